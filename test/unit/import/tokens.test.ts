/**
 * The lexical layer of master files (RFC 1035 5.1), read as BIND, Windows DNS (`dnscmd
 * /zoneexport`, CRLF lines), Cloudflare and cli53 write them: `;` comments kept for the flags hosts
 * write there, `( ... )` records spread over lines, a blank first column for "the owner above",
 * quoted strings holding blanks, `;` and parentheses, `\X` escapes kept in words, and each refusal
 * with the line it names.
 */
import { describe, expect, it } from "vitest";
import { ZoneInputError } from "../../../provider/import";
import { type LogicalLine, tokenize } from "../../../provider/import/tokens";

const words = (line: LogicalLine | undefined) => line?.tokens.map((t) => (t.quoted ? `"${t.text}"` : t.text));

function refusal(text: string): ZoneInputError {
  try {
    tokenize(text, "example.com.zone");
  } catch (err) {
    if (err instanceof ZoneInputError) return err;
    throw err;
  }
  throw new Error("expected a ZoneInputError");
}

describe("tokenize", () => {
  it("reads BIND's SOA over six lines as one record, with each line's comment", () => {
    const text = [
      "$TTL 1h",
      "@\tIN\tSOA\tns1.example.com. hostmaster.example.com. (",
      "\t\t\t2026112001 ; serial",
      "\t\t\t7200       ; refresh",
      "\t\t\t3600       ; retry",
      "\t\t\t1209600    ; expire",
      "\t\t\t300 )      ; minimum",
      "www\tIN\tA\t192.0.2.1",
      "",
    ].join("\n");
    const lines = tokenize(text, "example.com.zone");
    expect(lines.map((l) => [l.line, l.blankOwner, words(l)])).toEqual([
      [1, false, ["$TTL", "1h"]],
      [
        2,
        false,
        [
          "@",
          "IN",
          "SOA",
          "ns1.example.com.",
          "hostmaster.example.com.",
          "2026112001",
          "7200",
          "3600",
          "1209600",
          "300",
        ],
      ],
      [8, false, ["www", "IN", "A", "192.0.2.1"]],
    ]);
    expect(lines[1]?.comments).toEqual([" serial", " refresh", " retry", " expire", " minimum"]);
    expect(lines[2]?.comments).toEqual([]);
  });

  it("gives no line for blank lines and comment-only lines, and keeps counting them", () => {
    const text = ";; SOA Record\n\n   \n\t; indented comment\nexample.com.\t3600\tIN\tA\t192.0.2.1\n";
    const lines = tokenize(text, "z");
    expect(lines.map((l) => [l.line, l.blankOwner, words(l)])).toEqual([
      [5, false, ["example.com.", "3600", "IN", "A", "192.0.2.1"]],
    ]);
  });

  it("marks a line that starts with a space or a tab as continuing the owner above", () => {
    const text = "www 300 IN A 192.0.2.1\n 300 IN A 192.0.2.2\n\tIN AAAA 2001:db8::1\nmail IN A 192.0.2.3\n";
    expect(tokenize(text, "z").map((l) => [l.line, l.blankOwner, words(l)?.[0]])).toEqual([
      [1, false, "www"],
      [2, true, "300"],
      [3, true, "IN"],
      [4, false, "mail"],
    ]);
  });

  it("marks the file's first line too when it starts with a blank", () => {
    expect(tokenize("  A 192.0.2.1\nb A 192.0.2.2\n", "z").map((l) => [l.line, l.blankOwner])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it("reads a Windows DNS export with CRLF line ends as the same records and comments", () => {
    const text =
      ';\r\n;  Database file example.com.dns for example.com zone.\r\n;\r\n\r\n@ 3600 A\t192.0.2.1 ; web\r\n  TXT\t"v=spf1 -all"\r\n';
    const lines = tokenize(text, "example.com.dns");
    expect(lines.map((l) => [l.line, l.blankOwner, words(l), l.comments])).toEqual([
      [5, false, ["@", "3600", "A", "192.0.2.1"], [" web"]],
      [6, true, ["TXT", '"v=spf1 -all"'], []],
    ]);
  });

  it("ends a comment at its own line end, the first line's too", () => {
    expect(tokenize(";\nwww A 192.0.2.1 ;\n", "z").map((l) => [l.line, words(l), l.comments])).toEqual([
      [2, ["www", "A", "192.0.2.1"], [""]],
    ]);
  });

  it("strips only the carriage return of a CRLF line end from a comment", () => {
    expect(tokenize("a A 192.0.2.1 ; x\ry\r\n", "z")[0]?.comments).toEqual([" x\ry"]);
  });

  it("ends a word at a comment, a parenthesis or a quote written against it", () => {
    const text = 'a 300 IN A 192.0.2.1;web\nb IN SOA ns. h.(1 2 3 4 5)\nc IN TXT"x y"\n';
    const lines = tokenize(text, "z");
    expect(lines.map(words)).toEqual([
      ["a", "300", "IN", "A", "192.0.2.1"],
      ["b", "IN", "SOA", "ns.", "h.", "1", "2", "3", "4", "5"],
      ["c", "IN", "TXT", '"x y"'],
    ]);
    expect(lines[0]?.comments).toEqual(["web"]);
  });

  it("keeps blanks, semicolons, parentheses and escaped quotes inside a quoted string", () => {
    const text = 'txt TXT "v=DKIM1; k=rsa; (p)" "say \\"hi\\"" "" ; note\nnext A 192.0.2.1\n';
    const lines = tokenize(text, "z");
    expect(lines[0]?.tokens).toEqual([
      { text: "txt", quoted: false },
      { text: "TXT", quoted: false },
      { text: "v=DKIM1; k=rsa; (p)", quoted: true },
      { text: 'say \\"hi\\"', quoted: true },
      { text: "", quoted: true },
    ]);
    expect(lines[0]?.comments).toEqual([" note"]);
    expect(lines[1]?.line).toBe(2);
  });

  it("keeps a word's escapes as written, an escaped blank or semicolon inside the word", () => {
    const text = 'a\\ b\\;c\\(d\\) TXT x\\"y\n';
    expect(words(tokenize(text, "z")[0])).toEqual(["a\\ b\\;c\\(d\\)", "TXT", 'x\\"y']);
  });

  it("ends a word at a backslash that is the last character of its line", () => {
    const lines = tokenize("a\\\nb A 192.0.2.1\n", "z");
    expect(lines.map((l) => [l.line, words(l)])).toEqual([
      [1, ["a\\"]],
      [2, ["b", "A", "192.0.2.1"]],
    ]);
    expect(words(tokenize("a TXT x\\", "z")[0])).toEqual(["a", "TXT", "x\\"]);
  });

  it("counts the lines an escaped line end spreads a quoted string over, LF or CRLF", () => {
    const text = 'a TXT "one\\\ntwo\\\r\nthree"\nb A 192.0.2.1\n';
    const lines = tokenize(text, "z");
    expect(lines[0]?.tokens[2]).toEqual({ text: "one\\\ntwo\\\r\nthree", quoted: true });
    expect(lines.map((l) => l.line)).toEqual([1, 4]);
    // An escaped carriage return alone is no line end.
    expect(tokenize('a TXT "x\\\ry"\nb A 192.0.2.1\n', "z").map((l) => l.line)).toEqual([1, 2]);
  });

  it("reads the last record of a file that has no final line end", () => {
    expect(tokenize("a A 192.0.2.1\nb A 192.0.2.2", "z").map(words)).toEqual([
      ["a", "A", "192.0.2.1"],
      ["b", "A", "192.0.2.2"],
    ]);
    const last = tokenize("a A 192.0.2.1 ; the last line", "z");
    expect(last.map((l) => [words(l), l.comments])).toEqual([[["a", "A", "192.0.2.1"], [" the last line"]]]);
  });

  it("starts the record after a parenthesised one on its own line, owner included", () => {
    const lines = tokenize('a TXT ( "x"\n  "y" )\n  TXT "z"\nb A 192.0.2.1\n', "z");
    expect(lines.map((l) => [l.line, l.blankOwner, words(l)])).toEqual([
      [1, false, ["a", "TXT", '"x"', '"y"']],
      [3, true, ["TXT", '"z"']],
      [4, false, ["b", "A", "192.0.2.1"]],
    ]);
  });

  it("reads nested parentheses as one record", () => {
    const lines = tokenize('a TXT ( ( "x"\n ) "y" )\nb A 192.0.2.1\n', "z");
    expect(lines.map((l) => [l.line, words(l)])).toEqual([
      [1, ["a", "TXT", '"x"', '"y"']],
      [3, ["b", "A", "192.0.2.1"]],
    ]);
  });
});

describe("tokenize refuses, naming the line", () => {
  it("a quoted string that a line end cuts", () => {
    const err = refusal('; c\nwww TXT "v=spf1 -all\nmail A 192.0.2.1\n');
    expect(err.message).toBe('example.com.zone:2: expected a closing quote (") before the end of the line');
    expect(err.line).toBe(2);
    expect(refusal('a TXT "x\\"').message).toBe(
      'example.com.zone:1: expected a closing quote (") before the end of the line',
    );
    expect(refusal('a TXT "x').line).toBe(1);
    // A quote further on does not close it: the string ends at the line end.
    expect(refusal('www TXT "v=spf1 -all\nmail TXT "x"\n').line).toBe(1);
    // An escape before the line end is no escaped line end.
    expect(refusal('www TXT "x\\;\nb"\n').line).toBe(1);
  });

  it('a ")" with no "(" before it', () => {
    expect(refusal("a A 192.0.2.1\nb A 192.0.2.2 )\n").message).toBe(
      'example.com.zone:2: expected a "(" before this ")"',
    );
  });

  it('a "(" never closed, naming the line it opened on', () => {
    const text = "a A 192.0.2.1\n@ SOA ns. h. (\n 1 2 3\n 4 5\nb A 192.0.2.2\n";
    expect(refusal(text).message).toBe(
      'example.com.zone:2: expected a closing ")" for the "(" opened on this line',
    );
    expect(refusal("@ SOA ns. h. ( ( 1 2 3 4 5 )\n").line).toBe(1);
    expect(refusal('a A 192.0.2.1\nb TXT (\n ( "x"\n ) "y"\n').line).toBe(2);
  });
});
