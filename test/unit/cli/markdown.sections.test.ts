/**
 * The plan comment a reviewer approves from (cli/markdown.ts), section by section, to the letter:
 * why a template is rewritten, moved, new or removed; a record set aside; the account, purge and
 * safety threshold it is applied under; its warnings; what no digest means; the commit; and what a
 * failed preview or a preview with nothing to plan says.
 */
import { describe, expect, it } from "vitest";
import {
  fenced,
  inlineCode,
  NO_CHANGES,
  NOTHING_PLANNED,
  PLAN_HEADING,
  PREVIEW_FAILED,
  planMarkdown,
  RESTORE_TITLE,
  visible,
  wrapped,
} from "../../../provider/cli/markdown";
import type { PlanReason, TemplatePlan } from "../../../provider/cli/templatePlans";

const DIGEST = "3f2a9c1e0b7d4a55e61f0c2d9b8a7364";

const base: TemplatePlan = {
  resource: "web",
  templateId: "web",
  account: "https://api.example.com",
  settings: { purge: true, safetyThreshold: { minExistingRecords: 10, maxChangePercent: 30 } },
  summary: "1 to create, 0 to update, 0 to delete, 1 unchanged (1 request)",
  corrections: [{ kind: "create", message: "+ CREATE www A 192.0.2.1", id: "new" }],
  setAside: [],
  digest: DIGEST,
};

/** The section of the single plan in the comment of `plan` (from its title to the line before the next section). */
function section(plan: TemplatePlan): string {
  const md = planMarkdown([plan]);
  const start = md.indexOf("**");
  const end = md.indexOf("\n\nTo apply exactly this plan");
  return md.slice(start, end < 0 ? undefined : end);
}

function title(reason: PlanReason): string {
  return section({ ...base, reason }).split("\n")[0] ?? "";
}

describe("why a template changes, in its title", () => {
  it("says each reason of a rewrite with one PUT", () => {
    const cases: [string, string][] = [
      ["create", "a create with purge owns the template, and the PUT replaces whatever it held"],
      ["unknown-add", "an earlier add had an unknown outcome"],
      ["vanished", "records were removed outside Pulumi, or by an interrupted run"],
      ["interrupted", "an interrupted run left the outcome of its last request unknown"],
      ["requested", "DOMAINAPI_REWRITE asks for it for this run"],
      ["imported", "it was imported, and the API cannot list what it holds"],
    ];
    for (const [why, text] of cases) {
      expect(title({ kind: "rewritten", why } as PlanReason)).toBe(
        `**Template \`web\`** (resource \`web\`, rewritten with one PUT: ${text}): ${base.summary}`,
      );
    }
  });

  it("says new, removed, moved here and moved to, with the other template in code", () => {
    expect(title({ kind: "created" })).toBe(`**Template \`web\`** (resource \`web\`, new): ${base.summary}`);
    expect(title({ kind: "removed" })).toBe(
      `**Template \`web\`** (resource \`web\`, removed from the program): ${base.summary}`,
    );
    expect(title({ kind: "replaces", templateId: "old`one" })).toBe(
      `**Template \`web\`** (resource \`web\`, moved here from template \`\`old\`one\`\`): ${base.summary}`,
    );
    expect(title({ kind: "replacedBy", templateId: "new" })).toBe(
      `**Template \`web\`** (resource \`web\`, moved to template \`new\`): ${base.summary}`,
    );
  });

  it("has no reason when it is a plain update", () => {
    expect(section(base).split("\n")[0]).toBe(`**Template \`web\`** (resource \`web\`): ${base.summary}`);
  });
});

describe("a template's section", () => {
  it("lines up the notes, marks a set-aside record, then says where it is applied and its digest", () => {
    const plan: TemplatePlan = {
      ...base,
      corrections: [
        { kind: "create", message: "+ CREATE www A 192.0.2.1", id: "new" },
        {
          kind: "update",
          message: "~ MODIFY @ MX 10 mx.example.net -> 20 mx.example.net",
          id: "kept",
          recordId: "r-1",
        },
        { kind: "delete", message: "- DELETE old TXT going", id: "removed", recordId: "r-2" },
      ],
      setAside: ["api A 192.0.2.9"],
    };
    expect(section(plan)).toBe(
      [
        `**Template \`web\`** (resource \`web\`): ${base.summary}`,
        "",
        "```diff",
        "+ CREATE www A 192.0.2.1                              (new id)",
        "~ MODIFY @ MX 10 mx.example.net -> 20 mx.example.net  (id r-1 kept)",
        "- DELETE old TXT going                                (id r-2 removed)",
        // Past 96 columns a line goes on after its sign and an arrow.
        "! SET ASIDE api A 192.0.2.9                           (its earlier add is of unknown outcome: no",
        "! ↳ t sent)",
        "```",
        "",
        "Sent to account `https://api.example.com`, purge `true`, safety threshold `30% of at least 10 records`.",
        "",
        `Plan digest \`${DIGEST}\``,
      ].join("\n"),
    );
  });

  it("lines the notes up after the longest short line, two spaces on", () => {
    const plan: TemplatePlan = {
      ...base,
      corrections: [
        { kind: "create", message: "+ CREATE a A 192.0.2.1", id: "new" },
        { kind: "create", message: "+ CREATE bb A 192.0.2.2", id: "new" },
      ],
    };
    expect(section(plan).split("\n").slice(3, 5)).toEqual([
      "+ CREATE a A 192.0.2.1   (new id)",
      "+ CREATE bb A 192.0.2.2  (new id)",
    ]);
  });

  it("says a safety threshold that is off, and purge false", () => {
    const plan: TemplatePlan = { ...base, settings: { purge: false, safetyThreshold: false } };
    expect(section(plan)).toContain(
      "\n\nSent to account `https://api.example.com`, purge `false`, safety threshold `off`.\n\n",
    );
  });

  it("names the account alone when the settings are not given, and no account line without one", () => {
    const { settings: _settings, ...bare } = base;
    expect(section(bare)).toContain("\n\nSent to account `https://api.example.com`.\n\n");
    const { account: _account, ...nowhere } = base;
    expect(section(nowhere)).not.toContain("Sent to account");
  });

  it("counts its warnings, one in the singular, in a text block", () => {
    expect(section({ ...base, warnings: ["careful"] })).toMatch(
      /\n\nTemplate checks: 1 warning \(not failing the preview\)\n\n```text\ncareful\n```$/,
    );
    expect(section({ ...base, warnings: ["a", "b"] })).toMatch(
      /\n\nTemplate checks: 2 warnings \(not failing the preview\)\n\n```text\na\nb\n```$/,
    );
    expect(section({ ...base, warnings: [] })).not.toContain("Template checks");
  });

  it("without an account: shown in full, with no digest and why", () => {
    const { account: _a, digest: _d, ...rest } = base;
    const md = planMarkdown([{ ...rest, notPlannable: "account" }]);
    expect(md).toContain(
      "\n\nNo plan digest: **no digest**: the preview does not say which account it is sent to (no `domainapi:baseUrl` in the stack " +
        "config, no `baseUrl` input of its provider), and a plan's digest covers the account. Run `domainapi-plan` " +
        "with `DOMAINAPI_BASE_URL` set as the preview had it, or, for an explicit provider that does not change, " +
        "preview with `--show-sames` so that its step is in the preview.\n\n",
    );
    expect(md).toContain("```diff\n+ CREATE www A 192.0.2.1  (new id)\n```");
    expect(md).toContain(
      "No `DOMAINAPI_EXPECT_PLAN` value can be given for this preview: the plan of `web` is not known here, " +
        "so a reviewed `pulumi up` refuses to change it.",
    );
  });

  it("not plannable: one line that says why, and the expectation names every such template", () => {
    const unknown: TemplatePlan = {
      resource: "a",
      templateId: "ta",
      summary: "",
      corrections: [],
      setAside: [],
      notPlannable: "unknown",
    };
    const secret: TemplatePlan = { ...unknown, resource: "b", templateId: "tb", notPlannable: "secret" };
    const md = planMarkdown([unknown, secret, base]);
    expect(md).toContain(
      "\n\n**Template `ta`** (resource `a`): the records depend on values known only during `pulumi up`; the plan is made then.\n\n",
    );
    expect(md).toContain(
      "\n\n**Template `tb`** (resource `b`): **not planned**: the preview shows its records only as `[secret]`, so what `pulumi up` would send " +
        'cannot be shown here. Plan it from a preview that shows secrets (see "Secret records" in the ' +
        "docs of `domainapi-plan`), or keep secrets out of the records.\n\n",
    );
    expect(md).toContain("the plan of `ta`, `tb` is not known here");
    expect(md).not.toContain("To apply exactly this plan");
  });

  it("of a restore: its domain in code, no block, a hidden domain not planned", () => {
    const restore: TemplatePlan = {
      resource: "r",
      templateId: "restore/shop.example",
      restore: "shop.example",
      account: "https://api.example.com",
      reason: { kind: "created" },
      summary: "restored from quarantine",
      corrections: [],
      setAside: [],
      digest: DIGEST,
    };
    expect(section(restore)).toBe(
      [
        `${RESTORE_TITLE}\`shop.example\`** (resource \`r\`, new): restored from quarantine`,
        "",
        "Sent to account `https://api.example.com`.",
        "",
        `Plan digest \`${DIGEST}\``,
      ].join("\n"),
    );
    const hidden = { ...restore, restore: "(secret)", notPlannable: "secret" as const };
    expect(planMarkdown([hidden]).split("\n\n")[1]).toBe(
      `${RESTORE_TITLE}\`(secret)\`** (resource \`r\`, new): **not planned**: the preview does not show its domain ` +
        "(a secret, or a value known only during `pulumi up`), so a reviewed `pulumi up` refuses it.",
    );
  });
});

describe("the comment around the sections", () => {
  const commit = "0123456789abcdef0123456789abcdef01234567";

  it("a reviewed plan: heading, commit, sections, the value to set, the footer and the commit's marker", () => {
    const md = planMarkdown([base], [], { commit });
    const parts = md.split("\n\n");
    expect(parts[0]).toBe(PLAN_HEADING);
    expect(parts[1]).toBe(`Planned from commit \`${commit}\`.`);
    expect(md).toContain(
      "\n\nTo apply exactly this plan, run `pulumi up` with `DOMAINAPI_EXPECT_PLAN` set as below: a template whose plan differs is then refused.\n\n```text\nDOMAINAPI_EXPECT_PLAN=",
    );
    expect(md).toContain(`web=${DIGEST}`);
    expect(md).toContain(
      "\n\n<sub>Made by <code>domainapi-plan</code> from <code>pulumi preview --json</code> with the provider's own " +
        "planner. An update's first request also re-states every record the resource keeps, with the values its " +
        "state holds, to prove they still exist: a record edited outside Pulumi under the same id is set back to them. " +
        "The template's other records are not sent and keep their ids, unless a plan says it rewrites the template with a PUT.</sub>\n\n",
    );
    expect(md).toMatch(/<\/sub>\n\n<!-- .*0123456789abcdef0123456789abcdef01234567.* -->\n$/);
    expect(planMarkdown([base])).not.toContain("Planned from commit");
    expect(planMarkdown([base])).toMatch(/<\/sub>\n$/);
  });

  it("nothing to change: says so, and the value that allows no change", () => {
    expect(planMarkdown([])).toBe(
      `${PLAN_HEADING}\n\n${NO_CHANGES}\n\n` +
        "To apply exactly this plan, run `pulumi up` with `DOMAINAPI_EXPECT_PLAN` set as below: a template whose plan differs is then refused.\n\n" +
        "```text\nDOMAINAPI_EXPECT_PLAN='none'\n```\n",
    );
  });

  it("a failed preview: the failure first, its lines in a block, and no value to set", () => {
    expect(planMarkdown([], ["error: one\r\ntwo", "error: three"])).toBe(
      `${PLAN_HEADING}\n\n${PREVIEW_FAILED}\n\n\`\`\`text\nerror: one\ntwo\nerror: three\n\`\`\`\n\n${NOTHING_PLANNED}\n`,
    );
    expect(NOTHING_PLANNED).toBe("No DNS record changes were planned before the failure.");
    const md = planMarkdown([base], ["error: boom"]);
    expect(md.indexOf(PREVIEW_FAILED)).toBeLessThan(md.indexOf("**Template"));
    expect(md).not.toContain("To apply exactly this plan");
    expect(md).not.toContain(NOTHING_PLANNED);
  });
});

describe("the pieces", () => {
  it("a code span pads a value that starts or ends with a backtick, or is empty", () => {
    expect(inlineCode("web")).toBe("`web`");
    expect(inlineCode("")).toBe("`  `");
    expect(inlineCode("`a")).toBe("`` `a ``");
    expect(inlineCode("a`")).toBe("`` a` ``");
    expect(inlineCode("a``b")).toBe("```a``b```");
  });

  it("a fence is at least three backticks, and longer than any run inside", () => {
    expect(fenced("diff", ["a"])).toEqual(["```diff", "a", "```"]);
    expect(fenced("text", ["a ```` b"])).toEqual(["`````text", "a ```` b", "`````"]);
  });

  it("visible escapes controls with their short names and others by code point", () => {
    expect(visible("a\nb\rc\td e")).toBe("a\\nb\\rc\\td e");
    expect(visible("a\u00a0b\u200bc")).toBe("a\\u{00A0}b\\u{200B}c");
    expect(visible("\u{E0041}")).toBe("\\u{E0041}");
  });

  it("wraps at the width, continuing after the lead and an arrow, never cutting an escape", () => {
    expect(wrapped("0123456789", 10, "+")).toEqual(["0123456789"]);
    expect(wrapped("0123456789A", 10, "+")).toEqual(["0123456789", "+ ↳ A"]);
    expect(wrapped("012345678\\n", 10, "-")).toEqual(["012345678", "- ↳ \\n"]);
    // A space that would end a line starts the next one instead.
    expect(wrapped("012345678 9", 10)).toEqual(["012345678", "  ↳  9"]);
  });

  it("counts wide characters as two columns and the widest as four", () => {
    expect(wrapped("一二三四五", 10)).toEqual(["一二三四五"]);
    expect(wrapped("一二三四五六", 10)).toEqual(["一二三四五", "  ↳ 六"]);
    expect(wrapped("a\u{12000}\u{12000}b", 9)).toEqual(["a\u{12000}\u{12000}", "  ↳ b"]);
    expect(wrapped("a\u{12000}\u{12000}", 9)).toEqual(["a\u{12000}\u{12000}"]);
    expect(wrapped("\u10ff\u10ff\u10ff", 3)).toEqual(["\u10ff\u10ff\u10ff"]);
  });
});
