/**
 * How results are printed and kept: one section (a heading, a note, a markdown table) per table,
 * numbered so that the results file lists them in order whatever ran first.
 */

/** One printed table of results. */
export interface Section {
  /** The section's number in the results file. */
  readonly order: number;
  /** The markdown text: heading, note, table. */
  readonly text: string;
}

/** A markdown table, columns padded to their widest cell. */
export function table(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? "").length)));
  const line = (cells: ReadonlyArray<string | number>): string =>
    `| ${widths.map((w, i) => String(cells[i] ?? "").padEnd(w)).join(" | ")} |`;
  return [line(header), `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`, ...rows.map(line)].join("\n");
}

/** Prints a section and returns it for the results file. */
export function section(
  order: number,
  title: string,
  note: string,
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): Section {
  const text = [
    `### ${Number.isInteger(order) ? `${order}.` : `${order}`} ${title}`,
    "",
    note,
    "",
    table(header, rows),
    "",
  ].join("\n");
  console.log(`\n${text}`);
  return { order, text };
}

export const ms = (x: number): string => `${Math.round(x)} ms`;
export const ratio = (x: number): string => `${x.toFixed(2)}x`;
export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
export const mib = (kibibytes: number): string => `${(kibibytes / 1024).toFixed(1)} MiB`;

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
