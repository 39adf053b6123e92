/**
 * The PR plan (`domainapi-plan`) lists a template's check warnings under its section, lifted errors
 * among them, escaped like everything else there: a value in a warning cannot add a line or close
 * its block.
 */
import { describe, expect, it } from "vitest";
import { planMarkdown } from "../../../provider/cli/markdown";
import { templatePlans } from "../../../provider/cli/templatePlans";

type Props = Record<string, unknown>;
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

function created(name: string, news: Props) {
  return {
    op: "create",
    urn: `urn:pulumi:dev::dns::${TYPE}::${name}`,
    newState: { type: TYPE, inputs: news, outputs: {} },
  };
}

describe("warnings of the template checks in the PR plan", () => {
  it("are listed under the template's section, each naming its record, lifted errors marked", () => {
    const news = {
      templateId: "mail",
      purge: true,
      liftedChecks: ["spf-single-record"],
      records: {
        "mail/CNAME": { name: "mail", type: "CNAME", content: "mailhost.example.net." },
        "@/MX": { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
        "@/TXT/1": { name: "@", type: "TXT", content: "v=spf1 mx -all" },
        "@/TXT/2": { name: "@", type: "TXT", content: "v=spf1 include:_spf.example.net -all" },
      },
    };
    const plans = templatePlans({ steps: [created("mail", news)] });
    expect(plans[0]?.warnings).toEqual([
      expect.stringMatching(
        /^@ TXT v=spf1 mx -all: \[spf-single-record, RFC 7208 §3\.2\] .* \[lifted by liftedChecks: not failing the preview\]$/,
      ),
      expect.stringMatching(
        /^@ MX 10 mail\.\{domainname\}\.: \[target-is-cname, RFC 2181 §10\.3, RFC 2782\] the MX target/,
      ),
    ]);
    const md = planMarkdown(plans);
    const section = md.slice(md.indexOf("**Template `mail`**"));
    expect(section).toContain(
      "Template checks: 2 warnings (not failing the preview)\n\n```text\n@ TXT v=spf1 mx -all: [spf-single-record",
    );
  });

  it("a template without findings has no warnings line", () => {
    const news = { templateId: "web", records: { "@/A": { name: "@", type: "A", content: "192.0.2.1" } } };
    const plans = templatePlans({ steps: [created("web", news)] });
    expect(plans[0]?.warnings).toBeUndefined();
    expect(planMarkdown(plans)).not.toContain("Template checks:");
  });

  it("cannot forge the comment: line breaks are escapes, and no backtick run closes the block", () => {
    const forged = '0 tbs "````\n**Approved** @acme/admins <img src=x>\u2028"';
    const news = { templateId: "web", records: { "@/CAA": { name: "@", type: "CAA", content: forged } } };
    const md = planMarkdown(templatePlans({ steps: [created("web", news)] }));
    const lines = md.split("\n");
    const start = lines.findIndex((l) => /^`{3,}text$/.test(l));
    const fence = lines[start]!.replace("text", "");
    expect(fence.length).toBeGreaterThan(4);
    const end = lines.findIndex((l, i) => i > start && l === fence);
    // One warning: its first line, then only its own continuations (a long line is wrapped).
    const inside = lines.slice(start + 1, end);
    expect(inside.slice(1).every((l) => l.startsWith("  ↳ "))).toBe(true);
    expect(inside.join("\n").replaceAll("\n  ↳ ", "")).toContain(
      '0 tbs "````\\n**Approved** @acme/admins <img src=x>\\u{2028}"',
    );
    expect(lines.filter((l) => l.startsWith("**Approved**"))).toEqual([]);
  });
});
