/**
 * Where a CAA warning points: the path a preview and the PR plan show with it.
 */
import { describe, expect, it } from "vitest";
import { findingText } from "../../../provider/checks/rules";
import { checkTemplate } from "../../../provider/checks/template";

describe("caa-unknown-tag", () => {
  it("names the record's content as the path, with the record and the registry's tags", () => {
    const [f] = checkTemplate([
      { path: "records[0]", record: { name: "@", type: "A", content: "192.0.2.1" } },
      { path: "records[1]", record: { name: "@", type: "CAA", content: '0 isue "ca.example.net"' } },
    ]);
    expect(f).toMatchObject({
      rule: "caa-unknown-tag",
      severity: "warning",
      path: "records[1].content",
      record: '@ CAA 0 isue "ca.example.net"',
    });
    expect(findingText(f!)).toMatch(
      /^\[caa-unknown-tag, RFC 8659 §4\.1, §7\.2\] the CAA tag "isue" is not in the IANA registry \(almost always a typo\); CAs ignore it; fix: use one of issue, issuewild, iodef/,
    );
  });
});
