/**
 * The marks of `secretRecords` at their edges (records/masking.ts): a key whose record name starts
 * with digits (a DKIM selector) is a key, not an index; marks of properties that hold no records
 * name nothing and break nothing.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../provider/dns/model";
import { keyRecords } from "../../../provider/records/keys";
import { describeMasked, maskText, NO_SECRETS, secretsOf } from "../../../provider/records/masking";

describe("a mark by key", () => {
  const dkim: RecordSpec = {
    name: "2024._domainkey",
    type: "TXT",
    content: "v=DKIM1; k=rsa; p=MIIBIjANBgkq",
  };
  const www: RecordSpec = { name: "www", type: "A", content: "192.0.2.1" };
  // Keyed in each test, not when the file is collected: its code is then covered test by test.
  const keyed = () => keyRecords([dkim, www]);

  it("names a record whose name starts with digits (a DKIM selector), not an index", () => {
    const records = keyed();
    expect(Object.keys(records)).toContain("2024._domainkey/TXT");
    const content = secretsOf({ records, secretRecords: ["2024._domainkey/TXT:content"] });
    expect(describeMasked(dkim, content)).toBe("2024._domainkey TXT [secret]");
    const whole = secretsOf({ records, secretRecords: ["2024._domainkey/TXT"] });
    expect(describeMasked(dkim, whole)).toBe("[secret] TXT [secret]");
    expect(describeMasked(www, whole)).toBe("www A 192.0.2.1");
  });

  it("of properties that hold no records names nothing, and breaks nothing", () => {
    for (const props of [
      { secretRecords: [0, "www/A", "www/A:content"] },
      { records: null, secretRecords: ["www/A"] },
      { records: "www A", secretRecords: [0, "www/A"] },
    ]) {
      expect(secretsOf(props)).toBe(NO_SECRETS);
    }
    expect(maskText("www A 192.0.2.1", secretsOf({ secretRecords: ["www/A"] }))).toBe("www A 192.0.2.1");
  });
});
