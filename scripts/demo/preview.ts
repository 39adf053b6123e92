/**
 * The preview of the change, read as data: `pulumi preview --json` (the document a pull request's
 * CI saves), written to a file that the `domainapi-plan` bin turns into the pull request's plan,
 * and from which the demo shows the keyed diff of the changed template.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import type { Stack } from "@pulumi/pulumi/automation/index.js";
import { binPath } from "../lib/consumer.ts";

type Props = Record<string, unknown>;

/** A resource's state in a step. */
interface StepState {
  type?: string;
  inputs?: Props;
  outputs?: Props;
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: StepState;
  newState?: StepState;
}

/** The document `pulumi preview --json` prints, with the fields the demo reads. */
export interface PreviewDocument {
  steps?: PreviewStep[];
  changeSummary?: Record<string, number>;
}

type RunPulumiCmd = (args: string[], ...rest: unknown[]) => Promise<unknown>;

/**
 * `pulumi preview --json` of `stack`, saved to `file`. The Automation API has no `--json` option,
 * so the flag is added to the one CLI call the preview makes; the engine then prints the document
 * instead of its progress.
 */
export async function previewJson(stack: Stack, file: string): Promise<PreviewDocument> {
  const cli = stack as unknown as { runPulumiCmd: RunPulumiCmd };
  const run = cli.runPulumiCmd.bind(stack);
  cli.runPulumiCmd = (args, ...rest) => run(args[0] === "preview" ? [...args, "--json"] : args, ...rest);
  const printed: string[] = [];
  try {
    await stack.preview({ onOutput: (text) => printed.push(text) });
  } finally {
    cli.runPulumiCmd = run;
  }
  const text = printed.join("");
  fs.writeFileSync(file, text);
  return JSON.parse(text) as PreviewDocument;
}

/** The Markdown `domainapi-plan <file>` writes for a preview document saved in `file`. */
export function planMarkdown(file: string): string {
  return execFileSync(process.execPath, [binPath("pulumi-domainapi", "domainapi-plan"), file], {
    encoding: "utf8",
  });
}

const quote = (value: unknown): string => JSON.stringify(value);

function recordLines(marker: "+" | "-", record: Props, indent: string): string[] {
  const fields = Object.keys(record).sort();
  const width = Math.max(...fields.map((f) => f.length));
  return fields.map((f) => `${indent}${marker} ${f.padEnd(width)}: ${quote(record[f])}`);
}

/**
 * The records of resource `name` that its step changes, keyed `name/type` as the state keys them,
 * one entry per changed record, in the engine's `--diff` style; then the resource counts.
 */
export function keyedDiff(doc: PreviewDocument, name: string): string[] {
  const step = (doc.steps ?? []).find((s) => s.urn.endsWith(`::${name}`) && s.op !== "same");
  const lines: string[] = [];
  if (step) {
    const held = (step.oldState?.outputs?.records ?? {}) as Record<string, Props>;
    const declared = (step.newState?.inputs?.records ?? {}) as Record<string, Props>;
    const keys = [...new Set([...Object.keys(held), ...Object.keys(declared)])]
      .filter((k) => quote(held[k]) !== quote(declared[k]))
      .sort();
    const width = Math.max(...keys.map((k) => k.length));
    const entries: string[] = [];
    for (const key of keys) {
      const before = held[key];
      const after = declared[key];
      const label = key.padEnd(width);
      if (before === undefined && after !== undefined) {
        entries.push(`    + ${label} : {`, ...recordLines("+", after, "        "), "      }");
      } else if (after === undefined && before !== undefined) {
        entries.push(`    - ${label} : {`, ...recordLines("-", before, "        "), "      }");
      } else if (before !== undefined && after !== undefined && quote(before) !== quote(after)) {
        const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
        const changed = fields.filter((f) => quote(before[f]) !== quote(after[f]));
        const fw = Math.max(...changed.map((f) => f.length));
        entries.push(
          `    ~ ${label} : {`,
          ...changed.map((f) => `        ~ ${f.padEnd(fw)}: ${quote(before[f])} => ${quote(after[f])}`),
          "      }",
        );
      }
    }
    const type = step.urn.split("::").at(-2)?.split(/[$:]/).at(-1) ?? "";
    lines.push(`~ ${type} ${name} (${step.op})`, "  ~ records: {", ...entries, "    }");
  }
  const summary = doc.changeSummary ?? {};
  const counts = Object.entries(summary)
    .filter(([op, n]) => op !== "same" && n > 0)
    .map(
      ([op, n]) =>
        `${op === "update" ? "~" : op === "create" ? "+" : op === "delete" ? "-" : "+-"} ${n} to ${op}`,
    );
  lines.push("Resources:", ...counts.map((c) => `    ${c}`), `    ${summary.same ?? 0} unchanged`);
  return lines;
}
