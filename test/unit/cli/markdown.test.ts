/**
 * `domainapi-plan`: the Markdown plan of a pull request from `pulumi preview --json`. The fixtures
 * under test/fixtures/preview/ are real previews captured from the engine against the sandbox
 * (test/fixtures/preview/capture.mjs); the other cases are steps written in the shape the provider
 * stores (keyed records and ids, or the older array shape it still reads).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { NO_CHANGES, NOTHING_PLANNED, PLAN_HEADING, planMarkdown } from "../../../provider/cli/markdown";
import { type PlanCommandIo, runPlanCommand } from "../../../provider/cli/plan";
import {
  PreviewInputError,
  parsePreview,
  previewErrors,
  previewFromEngineEvents,
} from "../../../provider/cli/preview";
import { planComment, planExpectation } from "../../../provider/cli/review";
import { TEMPLATE_RECORDS_TYPES, templatePlans } from "../../../provider/cli/templatePlans";

const TEMPLATE_RECORDS_TYPE = TEMPLATE_RECORDS_TYPES[0]!;

import { UNKNOWN } from "../../../provider/host/engine";

const fixtures = path.join(__dirname, "..", "..", "fixtures", "preview");

/** The whole plan of a preview that changes no template: and `up` may then change none. */
const NOTHING_TO_CHANGE = [
  PLAN_HEADING,
  "",
  NO_CHANGES,
  "",
  "To apply exactly this plan, run `pulumi up` with `DOMAINAPI_EXPECT_PLAN` set as below: a template whose plan differs is then refused.",
  "",
  "```text",
  "DOMAINAPI_EXPECT_PLAN='none'",
  "```",
  "",
].join("\n");
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), "utf8");
function markdownOf(text: string): string {
  const preview = parsePreview(text);
  return planMarkdown(templatePlans(preview), previewErrors(preview));
}

type Props = Record<string, unknown>;

/**
 * Records from small pools, so that exact matches, same-name pairs and duplicates happen often; in
 * the older stored array shape, which the provider's decoder reads as long as states of it exist.
 */
const recordArb = fc
  .record({
    name: fc.constantFrom("@", "www", "mail"),
    type: fc.constantFrom("A", "TXT", "MX", "CNAME"),
    content: fc.constantFrom("192.0.2.1", "192.0.2.2", "mx.example.net", "x"),
    priority: fc.constantFrom(10, 20),
  })
  .map(({ priority, ...r }) => (r.type === "MX" ? { ...r, priority } : r));
const recordsArb = fc.array(recordArb, { maxLength: 12 });
const heldArb = recordsArb.map((records) => records.map((r, i) => ({ ...r, recordId: `cur-${i}` })));

function step(
  op: string,
  name: string,
  states: { olds?: Props; news?: Props },
  type = TEMPLATE_RECORDS_TYPE,
) {
  return {
    op,
    urn: `urn:pulumi:dev::dns::${type}::${name}`,
    ...(states.olds ? { oldState: { type, urn: "u", inputs: {}, outputs: states.olds } } : {}),
    ...(states.news ? { newState: { type, urn: "u", inputs: states.news, outputs: {} } } : {}),
  };
}

const preview = (...steps: unknown[]) => JSON.stringify({ steps, changeSummary: {} });

/** Stored outputs: keyed records and their ids, as the provider writes them. */
const held = {
  templateId: "web",
  purge: true,
  records: {
    "@/A": { name: "@", type: "A", content: "192.0.2.10" },
    "www/CNAME": { name: "www", type: "CNAME", content: "{domainname}." },
  },
  ids: { "@/A": "rec-1", "www/CNAME": "rec-2" },
  lastPlan: "2 to create",
};

/** Checked inputs: keyed records, no ids. */
const declared = (records: Props, extra: Props = {}) => ({
  templateId: "web",
  purge: true,
  records,
  ...extra,
});

/** Runs the command on `input` (stdin) and returns its status and output. */
async function runCommand(args: string[], input = "") {
  const stdin = new PassThrough();
  stdin.end(input);
  let stdout = "";
  let stderr = "";
  const io: PlanCommandIo = {
    stdin,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  const code = await runPlanCommand(args, io);
  return { code, stdout, stderr };
}

/** The step of resource `name` in a preview document. */
function stepOf(
  doc: { steps: Array<{ urn: string; op: string; oldState?: { outputs?: Props } }> },
  name: string,
) {
  const found = doc.steps.find((s) => s.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`the fixture has no step of ${name}`);
  return found;
}

describe("the plan of a real preview (captured from the engine)", () => {
  const text = fixture("update.json");
  const doc = JSON.parse(text);
  // Rendered in each test, never while tests are collected: a mutation run attributes code run
  // outside a test to every test.
  const md = () => markdownOf(text);

  it("has one section per DnsTemplateRecords resource the preview changes, by resource name", () => {
    const titles = md()
      .split("\n")
      .filter((l) => l.startsWith("**Template"));
    expect(titles).toEqual([
      "**Template `tpl-2`** (resource `docs`, new): 1 to create (1 request: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown)",
      "**Template `tpl-1`** (resource `legacy`, removed from the program): 0 to create, 0 to update, 1 to delete, 0 unchanged (1 request)",
      "**Template `mail`** (resource `mail`): 2 to create, 1 to update, 0 to delete, 2 unchanged (2 requests)",
      "**Template `web`** (resource `web`): 1 to create, 1 to update, 1 to delete, 3 unchanged (1 request)",
    ]);
    // The stack beside them is in the preview, and not in the plan; the DomainRestore has its own section.
    expect(doc.steps.map((s: { urn: string }) => s.urn.split("::").pop())).toEqual(
      expect.arrayContaining(["restore", "dns-dev"]),
    );
    expect(md()).not.toMatch(/Stack|dns-dev/);
    expect(
      md()
        .split("\n")
        .filter((l) => l.startsWith("**Domain restore")),
    ).toEqual([
      "**Domain restore `shop.example`** (resource `restore`, new): restored from quarantine (1 request: POST /v2/domains/{domain}/restore; a restore cannot be undone)",
    ]);
  });

  it("names the id each record has in the state: kept when updated, removed when deleted, new when created", () => {
    const ids = stepOf(doc, "web").oldState?.outputs?.ids as Record<string, string>;
    const web = md().slice(md().indexOf("**Template `web`**"));
    expect(web).toContain(`- DELETE shop CNAME shops.example.net.         (id ${ids["shop/CNAME"]} removed)`);
    expect(web).toContain(`~ MODIFY @ A content 192.0.2.10 -> 192.0.2.11  (id ${ids["@/A"]} kept)`);
    expect(web).toContain("+ CREATE api A 192.0.2.20                      (new id)");
    const legacyIds = stepOf(doc, "legacy").oldState?.outputs?.ids as Record<string, string>;
    expect(md()).toContain(`- DELETE old A 192.0.2.99  (id ${legacyIds["old/A"]} removed)`);
  });

  it("says for every update what the provider itself said about it in the same preview", () => {
    // The provider's diff logs its plan (`template mail: <summary>` and one line per correction).
    const said = (doc.diagnostics as Array<{ message: string }>)
      .map((d) => d.message)
      .filter((m) => m.startsWith("template "));
    expect(said.length).toBe(2);
    for (const plan of templatePlans(parsePreview(text)).filter((p) => p.reason === undefined)) {
      const lines = plan.corrections.map((c) => `  ${c.message}`);
      expect(said).toContain(`${[`template ${plan.templateId}: ${plan.summary}`, ...lines].join("\n")}\n`);
    }
  });

  it("is the same from the engine events of that preview (the Automation API's onEvent)", () => {
    // Engine events carry no stack config: the base address is the one the program's environment gives.
    const events = previewFromEngineEvents(JSON.parse(fixture("update.events.json")));
    expect(planMarkdown(templatePlans(events, { baseUrl: doc.config["domainapi:baseUrl"] }))).toBe(md());
  });

  it("a preview with nothing to change (`--show-sames`: every resource a same step) has no DNS record changes", () => {
    const same = fixture("no-changes.json");
    const ops = JSON.parse(same).steps.map((s: { op: string; urn: string }) => s.op);
    expect(ops.length).toBeGreaterThan(3);
    expect(new Set(ops)).toEqual(new Set(["same"]));
    expect(markdownOf(same)).toBe(NOTHING_TO_CHANGE);
  });

  it("a preview that failed (an invalid record) says so first, with the engine's error, and claims no 'no changes'", () => {
    const out = markdownOf(fixture("failed.json"));
    expect(out.startsWith(`${PLAN_HEADING}\n\n**The preview failed**`)).toBe(true);
    // The engine's long line is wrapped so that its end is on screen: joined again here.
    expect(out.replaceAll("\n  ↳ ", "")).toMatch(
      /^error: .*resource 'docs': property records\[0\]\.name .*a CNAME cannot be at the apex/m,
    );
    expect(out).toContain(NOTHING_PLANNED);
    expect(out).not.toContain(NO_CHANGES);
  });

  it("a new templateId: every record created in the new template, every id of the old one removed", () => {
    const replace = fixture("replace.json");
    const ids = stepOf(JSON.parse(replace), "web").oldState?.outputs?.ids as Record<string, string>;
    const out = markdownOf(replace);
    expect(out).toContain(
      "**Template `tpl-3`** (resource `web`, moved here from template `web`): 5 to create (1 request: a PUT",
    );
    expect(out).toContain(
      "**Template `web`** (resource `web`, moved to template `tpl-3`): 0 to create, 0 to update, 5 to delete",
    );
    expect(out.match(/\(new id\)/g)).toHaveLength(5);
    const removed = [...out.matchAll(/\(id (\S+) removed\)/g)].map((m) => m[1]);
    expect(new Set(removed)).toEqual(new Set(Object.values(ids)));
  });
});

describe("the plan of each kind of step", () => {
  it("update: one line per correction, with the id kept, removed or new, and the planner's summary", () => {
    const news = declared({
      "@/A": { name: "@", type: "A", content: "192.0.2.11" },
      "api/A": { name: "api", type: "A", content: "192.0.2.20" },
    });
    const md = markdownOf(preview(step("update", "web", { olds: held, news })));
    expect(md).toContain(
      "**Template `web`** (resource `web`): 1 to create, 1 to update, 1 to delete, 0 unchanged (1 request)",
    );
    const lines = md.split("\n");
    expect(lines.find((l) => l.startsWith("- DELETE"))).toMatch(
      /^- DELETE www CNAME \{domainname\}\.\s+\(id rec-2 removed\)$/,
    );
    expect(lines.find((l) => l.startsWith("~ MODIFY"))).toMatch(
      /^~ MODIFY @ A content 192\.0\.2\.10 -> 192\.0\.2\.11\s+\(id rec-1 kept\)$/,
    );
    expect(lines.find((l) => l.startsWith("+ CREATE"))).toMatch(
      /^\+ CREATE api A 192\.0\.2\.20\s+\(new id\)$/,
    );
  });

  it("create with purge: every record new, one PUT", () => {
    const news = declared({ "@/A": { name: "@", type: "A", content: "192.0.2.10" } });
    const md = markdownOf(preview(step("create", "web", { news })));
    expect(md).toContain("**Template `web`** (resource `web`, new): 1 to create (1 request: a PUT");
    expect(md).toMatch(/\+ CREATE @ A 192\.0\.2\.10\s+\(new id\)/);
  });

  it("create without purge: one PATCH per added record, as the planner counts them", () => {
    const news = declared(
      {
        "@/A": { name: "@", type: "A", content: "192.0.2.10" },
        "@/TXT": { name: "@", type: "TXT", content: "hello" },
      },
      { purge: false },
    );
    const [plan] = templatePlans(parsePreview(preview(step("create", "web", { news }))));
    expect(plan?.summary).toBe("2 to create, 0 to update, 0 to delete, 0 unchanged (2 requests)");
    expect(plan?.corrections.map((c) => c.id)).toEqual(["new", "new"]);
  });

  it("delete: every record the resource holds is deleted, ids removed", () => {
    const [plan] = templatePlans(parsePreview(preview(step("delete", "web", { olds: held }))));
    expect(plan?.reason).toEqual({ kind: "removed" });
    expect(plan?.summary).toBe("0 to create, 0 to update, 2 to delete, 0 unchanged (1 request)");
    expect(plan?.corrections.map((c) => [c.message, c.id, c.recordId])).toEqual([
      ["- DELETE @ A 192.0.2.10", "removed", "rec-1"],
      ["- DELETE www CNAME {domainname}.", "removed", "rec-2"],
    ]);
  });

  it("a state in the older array shape is read too", () => {
    const olds = {
      templateId: "web",
      records: [{ name: "@", type: "A", content: "192.0.2.10", recordId: "rec-9" }],
    };
    const [plan] = templatePlans(parsePreview(preview(step("delete", "web", { olds }))));
    expect(plan?.corrections.map((c) => c.recordId)).toEqual(["rec-9"]);
  });

  it("replace (a new templateId): the new template created, the old one emptied", () => {
    const news = { ...declared(held.records), templateId: "tpl-3" };
    const plans = templatePlans(parsePreview(preview(step("replace", "web", { olds: held, news }))));
    expect(plans.map((p) => [p.templateId, p.reason])).toEqual([
      ["tpl-3", { kind: "replaces", templateId: "web" }],
      ["web", { kind: "replacedBy", templateId: "tpl-3" }],
    ]);
    expect(plans[0]?.corrections.every((c) => c.kind === "create" && c.id === "new")).toBe(true);
    expect(plans[1]?.corrections.map((c) => c.recordId)).toEqual(["rec-1", "rec-2"]);
  });

  it("the engine's bookkeeping steps of a replacement and same steps add nothing", () => {
    const news = { ...declared(held.records), templateId: "tpl-3" };
    const text = preview(
      step("create-replacement", "web", { olds: held, news }),
      step("delete-replaced", "web", { olds: held, news }),
      step("same", "web", { olds: held, news: declared(held.records) }),
    );
    expect(markdownOf(text)).toBe(NOTHING_TO_CHANGE);
  });

  it("resources of other providers are ignored", () => {
    const text = preview(
      step("update", "web", { olds: held, news: declared(held.records) }, "pulumi-nodejs:dynamic:Resource"),
      step("create", "bucket", { news: { templateId: "web", records: {} } }, "aws:s3/bucket:Bucket"),
    );
    expect(markdownOf(text)).toBe(NOTHING_TO_CHANGE);
  });

  it("a change of settings only (no record changes) says there are no DNS record changes", () => {
    const text = preview(
      step("update", "web", { olds: held, news: declared(held.records, { purge: false }) }),
    );
    expect(markdownOf(text)).toContain(NO_CHANGES);
  });

  it("records not known before `pulumi up` are said to be planned then", () => {
    const news = declared({ "@/A": { name: "@", type: "A", content: UNKNOWN } });
    const md = markdownOf(preview(step("update", "web", { olds: held, news })));
    expect(md).toContain(
      "**Template `web`** (resource `web`): the records depend on values known only during",
    );
  });

  it("the errors of a failed preview come before what was planned; from engine events too", () => {
    const news = declared({ ...held.records, "@/A": { name: "@", type: "A", content: "192.0.2.11" } });
    const failing = {
      steps: [step("update", "web", { olds: held, news })],
      diagnostics: [
        { message: "template web: 0 to create ...", severity: "info" },
        {
          urn: "urn:x",
          message: "error: resource 'mail': property records[1].priority is required\n",
          severity: "error",
        },
      ],
    };
    const md = markdownOf(JSON.stringify(failing));
    const failure = md.indexOf("**The preview failed**");
    expect(failure).toBeGreaterThan(0);
    expect(md.indexOf("error: resource 'mail': property records[1].priority is required")).toBeGreaterThan(
      failure,
    );
    expect(md.indexOf("**Template `web`**")).toBeGreaterThan(failure);
    expect(md).not.toContain("template web: 0 to create");
    const events = [
      { diagnosticEvent: { message: "error: boom\n", severity: "error", ephemeral: false } },
      { diagnosticEvent: { message: "still working", severity: "info", ephemeral: true } },
    ];
    expect(previewErrors(previewFromEngineEvents(events))).toEqual(["error: boom"]);
  });

  it("a templateId not known before `pulumi up`: the old template emptied, the new one planned then", () => {
    const news = { ...declared(held.records), templateId: UNKNOWN };
    const md = markdownOf(preview(step("replace", "web", { olds: held, news })));
    expect(md).toContain(
      "**Template `(not known yet)`** (resource `web`, moved here from template `web`): the records depend on values known only",
    );
    expect(md).toContain(
      "**Template `web`** (resource `web`, moved to template `(not known yet)`): 0 to create",
    );
    expect(md).not.toContain(UNKNOWN);
  });

  it("record content cannot break out of the code block", () => {
    const news = declared({ "@/TXT": { name: "@", type: "TXT", content: "a ``` b ```` c" } });
    const md = markdownOf(preview(step("create", "web", { news })));
    expect(md).toContain("`````diff\n+ CREATE @ TXT a ``` b ```` c  (new id)\n`````");
  });
});

describe("templatePlans (the provider's planner over the preview's states)", () => {
  it("names every held id at most once, and only held ids; the lines agree with the summary", () => {
    fc.assert(
      fc.property(heldArb, recordsArb, fc.boolean(), (state, desired, purge) => {
        const doc = parsePreview(
          preview(
            step("update", "t", {
              olds: { templateId: "t", records: state },
              news: { templateId: "t", records: desired, purge },
            }),
          ),
        );
        const [plan] = templatePlans(doc);
        fc.pre(plan !== undefined && !plan.reason);
        const { summary, corrections } = plan!;
        const heldIds = new Set(state.map((r) => r.recordId));
        const named = corrections.flatMap((c) => (c.recordId === undefined ? [] : [c.recordId]));
        expect(new Set(named).size).toBe(named.length);
        for (const id of named) expect(heldIds.has(id)).toBe(true);
        const count = (kind: string) => corrections.filter((c) => c.kind === kind).length;
        for (const c of corrections) {
          expect(c.id).toBe({ create: "new", update: "kept", delete: "removed" }[c.kind]);
        }
        const [, creates, updates, deletes, unchanged] =
          /^(\d+) to create, (\d+) to update, (\d+) to delete, (\d+) unchanged/.exec(summary) ?? [];
        expect([creates, updates, deletes].map(Number)).toEqual([
          count("create"),
          count("update"),
          count("delete"),
        ]);
        expect(Number(unchanged) + count("update") + count("delete")).toBe(state.length);
      }),
    );
  });
});

describe("bad input", () => {
  it.each([
    ["empty", "", /the input is empty/],
    ["not JSON (the text preview)", "Previewing update (dev):\n  ~ web update", /the input is not JSON/],
    ["an array", "[]", /not a `pulumi preview --json` document/],
    [
      "an object of something else",
      '{"version": 3, "deployment": {}}',
      /not a `pulumi preview --json` document/,
    ],
    ["steps of the wrong shape", '{"steps": [{"op": 1}]}', /not a `pulumi preview --json` document: .*steps/],
  ])("%s: a clear error", (_what, text, message) => {
    expect(() => parsePreview(text)).toThrow(PreviewInputError);
    expect(() => parsePreview(text)).toThrow(message);
  });
});

describe("the domainapi-plan command", () => {
  const text = preview(step("delete", "web", { olds: held }));

  it("reads stdin and writes the Markdown", async () => {
    const { code, stdout, stderr } = await runCommand([], text);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(markdownOf(text));
  });

  it("reads a file argument", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plan-"));
    try {
      const file = path.join(dir, "preview.json");
      fs.writeFileSync(file, text);
      const { code, stdout } = await runCommand([file]);
      expect(code).toBe(0);
      expect(stdout).toContain("- DELETE @ A 192.0.2.10");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 with a clear message on input that is not a preview, and writes no plan", async () => {
    const { code, stdout, stderr } = await runCommand([], "Previewing update (dev):");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^domainapi-plan: the input is not JSON .*pulumi preview --json/);
  });

  it("exits 2 on a missing file, an unknown option or two files", async () => {
    expect((await runCommand(["/nonexistent/preview.json"])).stderr).toMatch(/cannot read .*: no such file/);
    for (const args of [["/nonexistent/preview.json"], ["--frobnicate"], ["a.json", "b.json"]]) {
      expect((await runCommand(args)).code).toBe(2);
    }
  });

  it("--help prints the usage", async () => {
    const { code, stdout } = await runCommand(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: domainapi-plan \[--commit <sha>\] \[preview\.json\]/);
  });
});

describe("domainapi-plan --expect and the renderer for the Automation API", () => {
  const text = fixture("update.json");

  it("prints the DOMAINAPI_EXPECT_PLAN value of the reviewed plans, one templateId=digest pair each", async () => {
    const { code, stdout } = await runCommand(["--expect"], text);
    expect(code).toBe(0);
    const pairs = stdout.trim().split(" ");
    const plans = templatePlans(parsePreview(text));
    expect(pairs).toEqual(plans.map((p) => `${p.templateId}=${p.digest}`));
    for (const pair of pairs) expect(pair).toMatch(/^[^=\s]+=[0-9a-f]{32}$/);
    // The Markdown names each digest, and the same value to copy.
    const md = markdownOf(text);
    for (const p of plans) expect(md).toContain(`Plan digest \`${p.digest}\``);
    expect(md).toContain(`DOMAINAPI_EXPECT_PLAN='${stdout.trim()}'`);
  });

  it("refuses to print an expectation for a failed preview", async () => {
    const { code, stdout, stderr } = await runCommand(["--expect"], fixture("failed.json"));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/the preview failed/);
  });

  it("planComment and planExpectation give the same from engine events as from the preview document", () => {
    const events = JSON.parse(fixture("update.events.json"));
    // Engine events carry no stack config: the program's environment gives the base address.
    vi.stubEnv("DOMAINAPI_BASE_URL", JSON.parse(text).config["domainapi:baseUrl"]);
    try {
      expect(planComment(events)).toBe(markdownOf(text));
      expect(planExpectation(events)).toBe(planExpectation(parsePreview(text)));
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
