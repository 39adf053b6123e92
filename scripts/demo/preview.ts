/**
 * The preview of the change, read as data: the engine's events of an Automation API preview make
 * the document `pulumi preview --json` prints (the Automation API has no `--json`; its events carry
 * the same steps), written to a file that the `domainapi-plan` bin turns into the pull request's
 * plan, and from which the demo shows the keyed diff of the changed template.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import type { EngineEvent } from "@pulumi/pulumi/automation/index.js";
import { binPath } from "../lib/consumer.ts";

type Props = Record<string, unknown>;

/** A resource's state in a step. */
interface StepState {
  type: string;
  inputs: Props;
  outputs: Props;
}

/** One step of `pulumi preview --json`. */
export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: StepState;
  newState?: StepState;
}

/** The document `pulumi preview --json` prints, with the fields the demo and the plan read. */
export interface PreviewDocument {
  steps: PreviewStep[];
  diagnostics: Array<{ urn?: string; message?: string; severity?: string }>;
  changeSummary: Record<string, number>;
}

/** The preview document of the engine events of a preview and its change summary. */
export function previewDocument(
  events: readonly EngineEvent[],
  changeSummary: Record<string, number>,
): PreviewDocument {
  const doc: PreviewDocument = { steps: [], diagnostics: [], changeSummary };
  for (const event of events) {
    const diagnostic = event.diagnosticEvent;
    if (diagnostic && !diagnostic.ephemeral) {
      doc.diagnostics.push({
        urn: diagnostic.urn,
        message: diagnostic.message,
        severity: diagnostic.severity,
      });
    }
    const metadata = event.resourcePreEvent?.metadata;
    if (!metadata?.op || !metadata.urn) continue;
    const state = (
      s: { type?: string; inputs?: Props; outputs?: Props } | undefined,
    ): StepState | undefined =>
      s
        ? { type: s.type ?? metadata.type ?? "", inputs: s.inputs ?? {}, outputs: s.outputs ?? {} }
        : undefined;
    doc.steps.push({
      op: metadata.op,
      urn: metadata.urn,
      oldState: state(metadata.old ?? undefined),
      newState: state(metadata.new ?? undefined),
    });
  }
  return doc;
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
  const step = doc.steps.find((s) => s.urn.endsWith(`::${name}`) && s.op !== "same");
  const lines: string[] = [];
  if (step) {
    const held = (step.oldState?.outputs.records ?? {}) as Record<string, Props>;
    const declared = (step.newState?.inputs.records ?? {}) as Record<string, Props>;
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
        entries.push(`    + ${label}: {`, ...recordLines("+", after, "        "), "      }");
      } else if (after === undefined && before !== undefined) {
        entries.push(`    - ${label}: {`, ...recordLines("-", before, "        "), "      }");
      } else if (before !== undefined && after !== undefined && quote(before) !== quote(after)) {
        const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
        const changed = fields.filter((f) => quote(before[f]) !== quote(after[f]));
        const fw = Math.max(...changed.map((f) => f.length));
        entries.push(
          `    ~ ${label}: {`,
          ...changed.map((f) => `        ~ ${f.padEnd(fw)}: ${quote(before[f])} => ${quote(after[f])}`),
          "      }",
        );
      }
    }
    const type = step.urn.split("::").at(-2)?.split(/[$:]/).at(-1) ?? "";
    lines.push(`~ ${type} ${name} (${step.op})`, "  ~ records: {", ...entries, "    }");
  }
  const counts = Object.entries(doc.changeSummary)
    .filter(([op, n]) => op !== "same" && n > 0)
    .map(
      ([op, n]) =>
        `${op === "update" ? "~" : op === "create" ? "+" : op === "delete" ? "-" : "+-"} ${n} to ${op}`,
    );
  lines.push("Resources:", ...counts.map((c) => `    ${c}`), `    ${doc.changeSummary.same ?? 0} unchanged`);
  return lines;
}

/** Writes a preview document as `pulumi preview --json` would. */
export function savePreview(doc: PreviewDocument, file: string): void {
  fs.writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}
