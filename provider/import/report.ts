/**
 * `import-report.md`: per template, every record skipped and every change made, with its line and
 * reason, and the one-line summary the command prints. Values from the zone are shown in code
 * spans, control characters as visible escapes, so a zone cannot add Markdown of its own.
 */
import type { ImportedTemplate } from "./template";

/** A value as a Markdown code span that nothing inside can end or break. */
export function codeSpan(value: string): string {
  const visible = value.replace(
    /[\p{Cc}\u2028\u2029]/gu,
    (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`,
  );
  const longest = Math.max(0, ...(visible.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // CommonMark strips one space from each end of a span that has both and is not all spaces: a
  // space added each side keeps a value's own, and keeps a backtick at an end from the fence.
  const pad = visible === "" || /^`|`$/.test(visible) || /^ .*[^ ].* $/.test(visible) ? " " : "";
  return `${fence}${pad}${visible}${pad}${fence}`;
}

/** Text from a zone or an error, made safe as Markdown prose: no HTML, no links, no line breaks. */
function prose(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, " ").replace(/[\\`*_[\]<>|#!]/g, (c) => `\\${c}`);
}

/** How one template's import reads in one line: `web: 38 records, 3 skipped, 12 changes`. */
export function summaryLine(t: ImportedTemplate): string {
  const flags = t.dropped.length > 0 ? `, ${t.dropped.length} host settings dropped` : "";
  return (
    `${t.templateId} (${t.file}, domain ${t.domain}): ${t.records.length} records, ` +
    `${t.skipped.length} skipped, ${t.changes.length} changes, ${t.ttlsDropped} TTLs dropped${flags}`
  );
}

/**
 * The Markdown of `import-report.md` for `templates`.
 *
 * @example
 * fs.writeFileSync("import-report.md", importReport(templates));
 */
export function importReport(templates: readonly ImportedTemplate[]): string {
  let md = "# Import report\n\n";
  md +=
    "Written by `domainapi-import`. Each template's resource has `purge: true`: its first `pulumi up` " +
    "replaces the template's records with exactly those of the program, in one PUT (every record id is new). " +
    "Review what was skipped and changed before that `up`. TTLs are dropped: the API has none.\n";
  for (const t of templates) {
    md += `\n## Template ${codeSpan(t.templateId)} from ${codeSpan(t.file)}\n\n`;
    md += `Domain ${codeSpan(t.domain)}: ${t.records.length} records imported, ${t.skipped.length} skipped, `;
    md += `${t.changes.length} changes, ${t.ttlsDropped} TTLs dropped.\n`;
    for (const note of t.notes) md += `\nRead: ${prose(note)}.\n`;
    if (t.dropped.length > 0) {
      md += "\n### Dropped: the DNS host's own settings of imported records\n\n";
      for (const d of t.dropped) md += `- line ${d.line}: ${prose(d.change)}\n`;
    }
    md += "\n### Skipped\n\n";
    if (t.skipped.length === 0) md += "Nothing.\n";
    for (const s of t.skipped) md += `- line ${s.line}: ${codeSpan(s.text)}: ${prose(s.reason)}\n`;
    md += "\n### Changed\n\n";
    if (t.changes.length === 0) md += "Nothing.\n";
    for (const c of t.changes) md += `- line ${c.line}: ${codeSpan(c.change)}\n`;
  }
  return md;
}
