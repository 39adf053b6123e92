/**
 * An SPF record whose deciding `all` passes (`+all`, or a bare `all`) authorises every host on the
 * Internet (RFC 7208 §5.1: `all` always matches; the qualifier `+`, the default, means pass). The
 * template checks warn of it in the preview (what `check()` says) and in the PR plan, and nothing
 * fails: it is legal, only almost never meant.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { checkTemplate } from "../../../provider/checks/template";
import { planMarkdown } from "../../../provider/cli/markdown";
import { templatePlans } from "../../../provider/cli/templatePlans";
import { configureFrom } from "../../../provider/host/session";
import * as provider from "../../../provider/records/provider";

const txt = (content: string) => ({ name: "@", type: "TXT" as const, content });
const rulesOf = (content: string) =>
  checkTemplate([{ path: "records[0]", record: txt(content) }]).map((f) => f.rule);

describe("the spf-pass-all warning (RFC 7208 §5.1)", () => {
  it.each([
    "v=spf1 +all",
    "v=spf1 all",
    "v=spf1 include:_spf.example.net +all",
    "v=spf1 ip4:192.0.2.0/24 ALL",
    "V=SPF1 mx +All",
  ])("%j authorises every host: it warns", (content) => {
    expect(rulesOf(content)).toEqual(["spf-pass-all"]);
  });

  it.each([
    "v=spf1 -all",
    "v=spf1 mx ~all",
    "v=spf1 ?all",
    "v=spf1 include:_spf.example.net",
    // Only the first `all` is ever evaluated: what follows it never decides.
    "v=spf1 mx -all +all",
    "v=spf1 redirect=_spf.example.net",
  ])("%j does not: no warning", (content) => {
    expect(rulesOf(content)).toEqual([]);
  });

  it("is a warning, citing the RFC, naming the record and the fix", () => {
    const [finding] = checkTemplate([{ path: "records[2]", record: txt("v=spf1 mx +all") }]);
    expect(finding).toMatchObject({
      rule: "spf-pass-all",
      severity: "warning",
      path: "records[2].content",
      record: "@ TXT v=spf1 mx +all",
    });
    expect(finding?.problem).toMatch(/"\+all" authorises every host on the Internet to send mail as "@"/);
    expect(finding?.fix).toMatch(/-all/);
  });

  describe("shown in the preview", () => {
    beforeAll(() => configureFrom({ apiKey: "checks-test-key", baseUrl: "http://127.0.0.1:9" }, "provider"));

    it("check() passes the record and says the warning, with the rule and its RFC section", async () => {
      const said: string[] = [];
      const spy = vi.spyOn(console, "warn").mockImplementation((line: unknown) => {
        said.push(String(line));
      });
      try {
        const result = await provider.check({}, { templateId: "t", records: [txt("v=spf1 mx +all")] });
        expect(result.failures ?? []).toEqual([]);
      } finally {
        spy.mockRestore();
      }
      expect(said.join("\n")).toMatch(/\[spf-pass-all, RFC 7208 §5\.1\] "\+all" authorises every host/);
    });
  });

  it("shown in the PR plan, under the template's section", () => {
    const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";
    const step = {
      op: "create",
      urn: `urn:pulumi:dev::dns::${TYPE}::mail`,
      newState: {
        type: TYPE,
        inputs: { templateId: "mail", records: { "@/TXT": txt("v=spf1 include:_spf.example.net all") } },
      },
    };
    const plans = templatePlans({
      config: { "domainapi:baseUrl": "https://api.example.com" },
      steps: [step],
    });
    expect(plans[0]?.warnings).toEqual([
      expect.stringMatching(/^@ TXT v=spf1 .* all: \[spf-pass-all, RFC 7208 §5\.1\]/),
    ]);
    const md = planMarkdown(plans);
    expect(md).toContain("Template checks: 1 warning (not failing the preview)");
    expect(md.replaceAll("\n  ↳ ", "")).toMatch(
      /\[spf-pass-all, RFC 7208 §5\.1\] "all" authorises every host/,
    );
  });
});
