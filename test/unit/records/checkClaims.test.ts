/**
 * One template, one owner, as the plugin's Check claims it (provider/records/checkClaims.ts): what
 * claims a template and what does not, and how the refusal names the resources of a URN.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../provider/host/engine";
import { configureFrom } from "../../../provider/host/session";
import { TOKENS } from "../../../provider/manifest";
import { RESOURCES } from "../../../provider/operations";

// The records' check as the plugin's gRPC Check calls it: with the resource's URN. The claims are
// the process's, so each case uses templates of its own.
const records = RESOURCES[TOKENS.records];
const check = (urn: string, news: Record<string, unknown>) => records.check({}, news, urn);
const urn = (name: string, parents = "") => `urn:pulumi:dev::proj::${parents}${TOKENS.records}::${name}`;
const www = { name: "www", type: "A", content: "192.0.2.1" };

beforeAll(() => configureFrom({ apiKey: "claims-test-key", baseUrl: "http://127.0.0.1:9" }, "provider"));

describe("the plugin's Check claims a template per resource", () => {
  it("names a resource under a parent by its own name, not its parent's type", async () => {
    const parent = "my:component:Site$";
    expect(
      (await check(urn("site-a", parent), { templateId: "claims-parent", records: [] })).failures ?? [],
    ).toEqual([]);
    const second = await check(urn("site-b", parent), { templateId: "claims-parent", records: [] });
    expect(second.failures).toEqual([
      {
        property: "templateId",
        reason: expect.stringMatching(
          /^DnsTemplateRecords "site-a" and "site-b" both manage template "claims-parent", and both have purge: true/,
        ),
      },
    ]);
  });

  it("a check that fails claims nothing: the next resource on its template is not refused for it", async () => {
    const bad = await check(urn("broken"), {
      templateId: "claims-failed",
      records: [{ name: "www", type: "A", content: "not-an-address" }],
    });
    expect(bad.failures?.map((f) => f.reason)).toEqual([expect.stringMatching(/^records\[0\]\.content: /)]);
    const good = await check(urn("fixed"), { templateId: "claims-failed", records: [www] });
    expect(good.failures ?? []).toEqual([]);
  });

  it("a resource whose values a preview does not know yet claims nothing", async () => {
    const pending = await check(urn("pending"), {
      templateId: "claims-unknown",
      records: [{ name: "www", type: "A", content: UNKNOWN }],
    });
    expect(pending.failures ?? []).toEqual([]);
    const other = await check(urn("known"), { templateId: "claims-unknown", records: [www] });
    expect(other.failures ?? []).toEqual([]);
  });

  it("refuses a record both purge: false resources declare, whichever declares it second", async () => {
    const first = await check(urn("left"), { templateId: "claims-shared", purge: false, records: [www] });
    expect(first.failures ?? []).toEqual([]);
    const second = await check(urn("right"), {
      templateId: "claims-shared",
      purge: false,
      records: [{ ...www, name: "WWW" }],
    });
    expect(second.failures).toEqual([
      {
        property: "templateId",
        reason: expect.stringMatching(
          /^DnsTemplateRecords "left" and "right" share template "claims-shared" \(purge: false\) and both declare the record www A 192\.0\.2\.1/,
        ),
      },
    ]);
    // Other records on the shared template are each resource's own.
    const third = await check(urn("third"), {
      templateId: "claims-shared",
      purge: false,
      records: [{ name: "mail", type: "A", content: "192.0.2.2" }],
    });
    expect(third.failures ?? []).toEqual([]);
  });
});
