/**
 * import-report.md and the one-line summary, as a reader of an import sees them: every section and
 * count of a Cloudflare export read back word for word, "Nothing." where nothing was skipped or
 * changed, and zone text that cannot add Markdown of its own (CommonMark 0.31, "Code spans" and
 * "Backslash escapes"): values in code spans that hold any run of backticks, controls as visible
 * escapes, a Route 53 set identifier's markup escaped in prose.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importProgram, importReport, importZones, summaryLine } from "../../../provider/import";
import { codeSpan } from "../../../provider/import/report";

/** A Cloudflare export (dash.cloudflare.com, DNS > Records > Export), cut to five records. */
const CLOUDFLARE = [
  ";; SOA Record",
  "example.com\t3600\tIN\tSOA\tamit.ns.cloudflare.com. dns.cloudflare.com. 2049251346 10000 2400 604800 3600",
  "",
  ";; NS Records",
  "example.com.\t86400\tIN\tNS\tamit.ns.cloudflare.com.",
  "",
  ";; A Records",
  "www.example.com.\t1\tIN\tA\t192.0.2.1 ; cf_tags=cf-proxied:true",
  "",
  ";; CNAME Records",
  "api.example.com.\t300\tIN\tCNAME\twww.example.com.",
  "",
  ";; TXT Records",
  '_http._tcp.example.com.\t300\tIN\tTXT\t"txtvers=1" "path=/"',
  "",
].join("\n");

const INTRO =
  "# Import report\n\n" +
  "Written by `domainapi-import`. Each template's resource has `purge: true`: its first `pulumi up` " +
  "replaces the template's records with exactly those of the program, in one PUT (every record id is new). " +
  "Review what was skipped and changed before that `up`. TTLs are dropped: the API has none.\n";

/** What a CommonMark renderer shows for a code span: the fence stripped, then one space each side when both are there. */
function rendered(span: string): string {
  const fence = /^`+/.exec(span)?.[0] ?? "";
  // An opening run with no closing one is no code span, but backticks as text.
  expect(span.length).toBeGreaterThan(2 * fence.length);
  expect(span.endsWith(fence)).toBe(true);
  const inner = span.slice(fence.length, span.length - fence.length);
  // No run of exactly the fence's length inside: it would end the span early.
  for (const run of inner.match(/`+/g) ?? []) expect(run.length).not.toBe(fence.length);
  return inner.startsWith(" ") && inner.endsWith(" ") && inner.trim() !== "" ? inner.slice(1, -1) : inner;
}

describe("import-report.md", () => {
  it("reads back every section of a Cloudflare export, word for word", () => {
    const templates = importZones([{ text: CLOUDFLARE, file: "example.com.txt", templateId: "web" }]);
    expect(importReport(templates)).toBe(
      `${INTRO}
## Template \`web\` from \`example.com.txt\`

Domain \`example.com.\`: 2 records imported, 3 skipped, 1 changes, 5 TTLs dropped.

Read: the zone's domain, example.com., is its SOA record's owner.

### Dropped: the DNS host's own settings of imported records

- line 8: Cloudflare's proxying (cf-proxied:true) dropped: the API has no proxy, so this name will answer with the A record's own value instead of Cloudflare's addresses, and the server behind it is no longer hidden

### Skipped

- line 2: \`example.com. SOA amit.ns.cloudflare.com. dns.cloudflare.com. 2049251346 10000 2400 604800 3600\`: SOA: the DNS host's own record (the API has none; the service writes it)
- line 5: \`example.com. NS amit.ns.cloudflare.com.\`: the apex NS set is the DNS host's own (kept with --keep-apex-ns)
- line 14: \`_http._tcp.example.com. TXT "txtvers=1" "path=/"\`: 2 TXT strings that are separate items (as DNS-SD writes its key=value pairs): the API holds one string per TXT record, and joining them would change what clients read; only a value split at 255 bytes, or an SPF, DKIM or DMARC record, is joined

### Changed

- line 11: \`www.example.com. written www.{domainname}.\`
`,
    );
  });

  it("says Nothing. under Skipped and Changed when nothing was, and has no Dropped section", () => {
    const text = "$ORIGIN example.org.\nwww\tIN\tA\t192.0.2.7\nmail\tIN\tMX\t10 mx.example.net.\n";
    const report = importProgram([{ text, file: "example.org.zone" }], "yaml").files["import-report.md"];
    expect(report).toBe(
      `${INTRO}
## Template \`example.org\` from \`example.org.zone\`

Domain \`example.org.\`: 2 records imported, 0 skipped, 0 changes, 0 TTLs dropped.

Read: the zone's domain, example.org., is the $ORIGIN before its first record.

### Skipped

Nothing.

### Changed

Nothing.
`,
    );
  });

  it("gives each template its own section, in the order given", () => {
    const a = { text: "$ORIGIN a.example.\nwww A 192.0.2.1\n", file: "a.zone" };
    const b = { text: "$ORIGIN b.example.\nwww A 192.0.2.2\n", file: "b.zone" };
    const report = importReport(importZones([b, a]));
    const headings = report.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## Template `b` from `b.zone`", "## Template `a` from `a.zone`"]);
  });

  it("escapes what a Route 53 set identifier says in Markdown, and keeps a control character from breaking the item", () => {
    // Route 53 takes any text as a set identifier; cli53 writes it quoted in the record's comment.
    const text =
      "$ORIGIN example.net.\n" +
      'www\t60\tIN\tA\t192.0.2.51 ; AWS routing="WEIGHTED" weight=10 identifier="<b>blue</b> [x](http://e.test) *a*_b_`c`|#!\\\\"\n' +
      'www\t60\tIN\tA\t192.0.2.52 ; AWS routing="WEIGHTED" weight=90 identifier="one\u2028two\u2029three\u0085four\u009bfive"\n' +
      "app\t60\tIN\tA\t192.0.2.40\n";
    const report = importReport(importZones([{ text, file: "example.net.zone" }]));
    const items = report.split("\n").filter((l) => l.startsWith("- line "));
    expect(items).toHaveLength(2);
    expect(items[0]).toContain(
      '(identifier "\\<b\\>blue\\</b\\> \\[x\\](http://e.test) \\*a\\*\\_b\\_\\`c\\`\\|\\#\\!\\\\\\\\"); the API publishes',
    );
    expect(items[1]).toContain('(identifier "one two three four five"); the API publishes');
  });

  it("shows a skipped record's backticks inside a longer fence, its tab as the zone's escape", () => {
    // DNS-SD TXT strings are skipped (not joined); a quoted string may hold a tab and backticks.
    const text = '$ORIGIN example.com.\n_x._tcp\tTXT\t"a\tb" "``c`"\nwww A 192.0.2.1\n';
    const [t] = importZones([{ text, file: "z.zone" }]);
    expect(importReport(t ? [t] : [])).toContain(
      '- line 2: ```_x._tcp.example.com. TXT "a\\tb" "``c`"```: 2 TXT strings',
    );
  });

  it("names a file with backticks and spaces in a code span that reads as the file name", () => {
    const text = "$ORIGIN example.com.\nwww A 192.0.2.1\n";
    const report = importReport(importZones([{ text, file: "`my zone`", templateId: "t" }]));
    expect(report).toContain("## Template `t` from `` `my zone` ``\n");
  });
});

describe("codeSpan", () => {
  it("renders (CommonMark) as the value, controls and line separators shown as \\uXXXX", () => {
    const visible = (s: string) =>
      s.replace(/[\p{Cc}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("`", " ", "a", "\t", "\n", "\u2028", "\u007f", "\u0085", "é"),
          minLength: 1,
        }),
        (value) => {
          const span = codeSpan(value);
          expect(span).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
          expect(rendered(span)).toBe(visible(value));
        },
      ),
    );
  });

  it("escapes each control as its four hex digits", () => {
    expect(codeSpan("\u0000\u001b\u007f\u009f\u2028\u2029")).toBe(
      "`\\u0000\\u001b\\u007f\\u009f\\u2028\\u2029`",
    );
  });

  it("keeps the spaces of a value that starts and ends with one", () => {
    expect(codeSpan(" a ")).toBe("`  a  `");
    expect(codeSpan(" ")).toBe("` `");
    expect(codeSpan("a b")).toBe("`a b`");
    expect(codeSpan("a b c")).toBe("`a b c`");
    // A blank at one end only is kept by CommonMark as it is: no padding added.
    expect(codeSpan("a b ")).toBe("`a b `");
    expect(codeSpan(" a b")).toBe("` a b`");
    expect(codeSpan("a`b")).toBe("``a`b``");
    // Nothing can be an empty span: two blanks in a closed one, rather than backticks shown as text.
    expect(codeSpan("")).toBe("`  `");
  });
});

describe("summaryLine", () => {
  it("counts records, skips, changes, TTLs and host settings dropped, as the command prints it", () => {
    const [web] = importZones([{ text: CLOUDFLARE, file: "example.com.txt", templateId: "web" }]);
    expect(web && summaryLine(web)).toBe(
      "web (example.com.txt, domain example.com.): 2 records, 3 skipped, 1 changes, 5 TTLs dropped, 1 host settings dropped",
    );
  });

  it("says nothing of host settings when none was dropped", () => {
    const [t] = importZones([{ text: "$ORIGIN example.org.\nwww 300 A 192.0.2.7\n", file: "o.zone" }]);
    expect(t && summaryLine(t)).toBe(
      "o (o.zone, domain example.org.): 1 records, 0 skipped, 0 changes, 1 TTLs dropped",
    );
  });
});
