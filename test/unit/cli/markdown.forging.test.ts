/**
 * The pull-request plan is what people approve from: no value from the program, the state or the
 * engine can add a line to it, or HTML, a mention or a link outside code. Checked with a reader
 * written here from CommonMark's rules for fences and code spans (not with the renderer's helpers).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planMarkdown } from "../../../provider/cli/markdown";
import { templatePlans } from "../../../provider/cli/templatePlans";

type Props = Record<string, unknown>;
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

/** Removes code spans from one line (CommonMark: a run of n backticks closes at the next run of exactly n). */
function outsideCodeSpans(line: string): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "`") {
      out += line[i];
      i++;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))![0];
    const rest = line.slice(i + run.length);
    const close = [...rest.matchAll(/`+/g)].find((m) => m[0].length === run.length);
    if (!close || close.index === undefined) {
      out += run;
      i += run.length;
      continue;
    }
    i += run.length + close.index + run.length;
  }
  return out;
}

interface Read {
  /** Lines outside fenced blocks, with code spans removed: what renders as Markdown. */
  prose: string[];
  /** The lines of each fenced block, by its info string. */
  blocks: Array<{ info: string; lines: string[] }>;
}

/** Splits Markdown into prose and fenced blocks (a fence closes only with a run at least as long). */
function read(md: string): Read {
  const prose: string[] = [];
  const blocks: Read["blocks"] = [];
  let open: { fence: string; info: string; lines: string[] } | undefined;
  for (const line of md.split(/\r\n|\r|\n/)) {
    if (open) {
      const close = /^(`{3,})\s*$/.exec(line);
      if (close && close[1]!.length >= open.fence.length) {
        blocks.push({ info: open.info, lines: open.lines });
        open = undefined;
      } else open.lines.push(line);
      continue;
    }
    const start = /^(`{3,})([^`]*)$/.exec(line);
    if (start) open = { fence: start[1]!, info: start[2]!, lines: [] };
    else prose.push(outsideCodeSpans(line));
  }
  expect(open, "every fence is closed").toBeUndefined();
  return { prose, blocks };
}

/** Our own markup: the footer's tags. Anything else that looks like HTML, a mention or a link is forged. */
const OWN_TAGS = /<\/?(sub|code)>/g;

function expectNothingForged(md: string, corrections: number): void {
  const { prose, blocks } = read(md);
  const diff = blocks.filter((b) => b.info === "diff");
  // A long correction goes on over lines of its own, each starting with its sign and "↳", which no
  // value can put at the start of a line.
  const starts = diff.flatMap((b) => b.lines).filter((l) => !/^[+~-] ↳ /.test(l));
  expect(starts).toHaveLength(corrections);
  for (const line of starts) expect(line).toMatch(/^[+~-] (CREATE|MODIFY|DELETE) /);
  for (const line of prose) {
    const text = line.replace(OWN_TAGS, "");
    expect(text, line).not.toMatch(/[<>]/);
    expect(text, line).not.toMatch(/@[\w-]/);
    expect(text, line).not.toMatch(/\]\(|https?:|www\./i);
  }
  // Line separators or controls that a viewer might take for a line break are never there at all.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is about these characters
  expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
}

function step(name: string, olds: Props, news: Props) {
  return {
    op: "update",
    urn: `urn:pulumi:dev::dns::${TYPE}::${name}`,
    oldState: { type: TYPE, inputs: {}, outputs: olds },
    newState: { type: TYPE, inputs: news, outputs: {} },
  };
}

const PEM =
  "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\nMIIBCgKCAQEAx\n-----END PUBLIC KEY-----";

describe("nothing in the program, the state or the engine can forge the comment", () => {
  it("a PEM DKIM key, a lone \\r and a line separator in content stay on their correction's one line", () => {
    // Values held in the state were never checked by this version's check(): they reach the plan as they are.
    const olds = {
      templateId: "web",
      records: {
        "dkim/TXT": { name: "dkim._domainkey", type: "TXT", content: PEM },
        "@/TXT": { name: "@", type: "TXT", content: "v=spf1 -all\r+ CREATE www A 203.0.113.66 (new id)" },
      },
      ids: { "dkim/TXT": "r1", "@/TXT": "r2" },
    };
    const news = {
      templateId: "web",
      records: { "x/TXT": { name: "x", type: "TXT", content: "one\u2028- DELETE everything\u2029" } },
    };
    const md = planMarkdown(templatePlans({ steps: [step("web", olds, news)] }));
    // Two held TXT records, one declared: one modified, one deleted.
    expectNothingForged(md, 2);
    expect(md).toContain("\\r+ CREATE www A 203.0.113.66");
    expect(md).toContain("\\n");
  });

  it("a resource name with a backtick, a blank line, HTML and a mention stays inside its code span", () => {
    const name = "web`\n\n<img src=x onerror=alert(1)> @acme/admins [x](https://evil.example) `";
    const olds = {
      templateId: "web",
      records: { "a/A": { name: "a", type: "A", content: "192.0.2.1" } },
      ids: { "a/A": "r1" },
    };
    const news = { templateId: "web", records: { "a/A": { name: "a", type: "A", content: "192.0.2.2" } } };
    const md = planMarkdown(templatePlans({ steps: [step(name, olds, news)] }));
    expectNothingForged(md, 1);
    expect(md).toContain("<img src=x onerror=alert(1)>");
  });

  it("a template id and error text from the engine are shown as code too", () => {
    const olds = {
      templateId: "t`<b>@team",
      records: { "a/A": { name: "a", type: "A", content: "192.0.2.1" } },
      ids: { "a/A": "r1\n+ CREATE" },
    };
    const news = { templateId: "t`<b>@team", records: {} };
    const errors = ["error: <script>alert(1)</script> @acme/admins\r\n```\nbroke out"];
    const md = planMarkdown(templatePlans({ steps: [step("web", olds, news)] }), errors);
    expectNothingForged(md, 1);
  });

  it("holds for any content, names and resource names (property)", () => {
    const text = fc.string({ unit: "binary", maxLength: 30 });
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.array(text, { minLength: 1, maxLength: 4 }),
        (resource, name, templateId, contents) => {
          const olds = {
            templateId,
            records: Object.fromEntries(contents.map((c, i) => [`k${i}`, { name, type: "TXT", content: c }])),
            ids: Object.fromEntries(contents.map((_, i) => [`k${i}`, `r${i}`])),
          };
          const plans = templatePlans({ steps: [step(resource, olds, { templateId, records: {} })] });
          expectNothingForged(planMarkdown(plans), contents.length);
        },
      ),
      { numRuns: 300 },
    );
    // 300 runs take about a second alone; a loaded 2-core machine has taken 14 s.
  }, 60_000);
});
