/** How the demo prints: colours on a terminal, record tables, the summary of an up, id changes. */

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint =
  (code: string) =>
  (text: string): string =>
    color ? `\x1b[${code}m${text}\x1b[0m` : text;
export const bold = paint("1");
export const dim = paint("2");
export const green = paint("32");
export const red = paint("31");
export const yellow = paint("33");

/** Writes a line to stdout. */
export function write(text = ""): void {
  process.stdout.write(`${text}\n`);
}

/** A record as the stack's outputs show it. */
export interface ShownRecord {
  name: string;
  type: string;
  content: string;
  recordId: string;
  /** Every id the record owns (a URL forward's include those of the records made for it). */
  recordIds?: string[];
  priority?: number;
  weight?: number;
  port?: number;
}

/** The outputs of the quickstart program. */
export interface QuickstartOutputs {
  templates?: Record<string, ShownRecord[]>;
  plans?: Record<string, string>;
  restoredDomain?: string;
  restoredAt?: string;
  contactCountry?: string;
  contactsFound?: number;
  topContacts?: Array<{ handle: string; name: string; connections: number }>;
}

const NUMBERS = ["priority", "weight", "port"] as const;

/** The records of one template as a small table. */
export function recordTable(records: readonly ShownRecord[]): string[] {
  const rows = records.map((r) => {
    const numbers = NUMBERS.filter((k) => r[k] !== undefined).map((k) => `${k} ${r[k]}`);
    return [r.name, r.type, [r.content, ...numbers].join("  "), r.recordId] as const;
  });
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i as 0 | 1 | 2].length)));
  return rows.map(
    (row) =>
      `    ${row[0].padEnd(widths[0] ?? 0)}  ${row[1].padEnd(widths[1] ?? 0)}  ${row[2].padEnd(widths[2] ?? 0)}  ${dim(row[3])}`,
  );
}

/** What the first `pulumi up` made. */
export function summary(outputs: QuickstartOutputs, seconds: number): string {
  const lines = [`${green("✔")} ${bold("pulumi up")} succeeded in ${seconds.toFixed(1)} s`, ""];
  for (const [template, records] of Object.entries(outputs.templates ?? {})) {
    lines.push(`  ${bold(`Template ${template}`)}  ${dim(outputs.plans?.[template] ?? "")}`);
    lines.push(...recordTable(records), "");
  }
  lines.push(
    `  ${bold("Restored")}  ${outputs.restoredDomain} is out of quarantine ${dim(`(at ${outputs.restoredAt})`)}`,
  );
  const top = (outputs.topContacts ?? []).map((c) => `${c.handle} ${c.name} (${c.connections})`).join(", ");
  lines.push(
    `  ${bold("Contacts")}  ${outputs.contactsFound} active in ${outputs.contactCountry}; most connections: ${top}`,
  );
  return lines.join("\n");
}

/** A diff line coloured by its marker (+ green, - red, ~ yellow). */
export function colourDiffLine(line: string): string {
  const marker = line.trimStart()[0];
  if (marker === "+") return green(line);
  if (marker === "-") return red(line);
  if (marker === "~") return yellow(line);
  return line;
}

/** Which records of a template kept their ids, which are new, which are gone. */
export function idChanges(
  before: readonly ShownRecord[],
  after: readonly ShownRecord[],
): { kept: number; fresh: number; lines: string[] } {
  const beforeIds = new Set(before.map((r) => r.recordId));
  const afterIds = new Set(after.map((r) => r.recordId));
  type Fate = "kept" | "new" | "gone";
  const rows: Array<{ r: ShownRecord; fate: Fate }> = [
    ...after.map((r) => ({ r, fate: (beforeIds.has(r.recordId) ? "kept" : "new") as Fate })),
    ...before.filter((r) => !afterIds.has(r.recordId)).map((r) => ({ r, fate: "gone" as Fate })),
  ];
  const width = Math.max(...rows.map(({ r }) => r.recordId.length));
  const paintFate: Record<Fate, (t: string) => string> = { kept: (t) => t, new: green, gone: red };
  const describe = (r: ShownRecord): Array<string | number> => [
    r.name,
    r.type,
    ...NUMBERS.flatMap((k) => (r[k] === undefined ? [] : [r[k]])),
    r.content,
  ];
  return {
    kept: rows.filter((row) => row.fate === "kept").length,
    fresh: rows.filter((row) => row.fate === "new").length,
    lines: rows.map(
      ({ r, fate }) =>
        `    ${paintFate[fate](fate.padEnd(4))}  ${dim(r.recordId.padEnd(width))}  ${describe(r).join(" ")}`,
    ),
  };
}
