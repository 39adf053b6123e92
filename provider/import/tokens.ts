/**
 * The lexical layer of RFC 1035 master files (section 5.1): text -> logical lines of tokens.
 * Handles `;` comments, `"quoted strings"` with backslash escapes, `( ... )` that continue a record
 * over several lines, and whether a line starts with blank space (an owner left out: the previous
 * one continues). Escapes are kept as written; what they mean depends on the field (rdata.ts).
 *
 * This module knows nothing of record types; it is the first step of reading zone text.
 */
import { ZoneInputError } from "./errors";

/** One token of a record: a word or a quoted string (without its quotes, escapes kept). */
export interface Token {
  readonly text: string;
  /** True for a `"..."` string: it may be empty and hold blanks, `;` and parentheses. */
  readonly quoted: boolean;
}

/** The tokens of one record or directive, which `( ... )` may spread over several lines. */
export interface LogicalLine {
  /** The 1-based line it starts on. */
  readonly line: number;
  /** True when the line starts with a blank: the owner is the previous record's. */
  readonly blankOwner: boolean;
  readonly tokens: readonly Token[];
  /** The text of each `;` comment on its lines, without the `;` (DNS hosts write flags there). */
  readonly comments: readonly string[];
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SEMICOLON = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === CR;
}

function endsWord(code: number): boolean {
  return (
    isBlank(code) || code === LF || code === SEMICOLON || code === OPEN || code === CLOSE || code === QUOTE
  );
}

/**
 * Splits master-file text into logical lines. Blank and comment-only lines give none.
 *
 * @param text the whole file
 * @param file how to name the file in errors
 * @throws {ZoneInputError} an unterminated quoted string, an unbalanced parenthesis
 * @example
 * tokenize('txt TXT ( "a b" ; note\n "c" )', "z")[0].tokens.map((t) => t.text); // ["txt", "TXT", "a b", "c"]
 */
export function tokenize(text: string, file: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let line = 1;
  let tokens: Token[] = [];
  let comments: string[] = [];
  let start = 1;
  // Stryker disable next-line BooleanLiteral: set from the first character before any line is flushed
  let blankOwner = false;
  let depth = 0;
  let openedOn = 0;
  let atLineStart = true;
  let i = 0;
  const n = text.length;
  const flush = (): void => {
    if (tokens.length > 0) lines.push({ line: start, blankOwner, tokens, comments });
    tokens = [];
    comments = [];
  };
  while (i < n) {
    const code = text.charCodeAt(i);
    if (atLineStart) {
      // A new logical line starts here (a line end inside parentheses starts none).
      atLineStart = false;
      start = line;
      blankOwner = isBlank(code);
    }
    if (code === LF) {
      line++;
      i++;
      if (depth === 0) {
        flush();
        atLineStart = true;
      }
      continue;
    }
    if (isBlank(code)) {
      i++;
      continue;
    }
    if (code === SEMICOLON) {
      let j = text.indexOf("\n", i);
      if (j === -1) j = n;
      comments.push(text.slice(i + 1, j).replace(/\r$/, ""));
      i = j;
      continue;
    }
    if (code === OPEN) {
      if (depth === 0) openedOn = line;
      depth++;
      i++;
      continue;
    }
    if (code === CLOSE) {
      if (depth === 0) throw new ZoneInputError(file, line, 'expected a "(" before this ")"');
      depth--;
      i++;
      continue;
    }
    if (code === QUOTE) {
      const quoteLine = line;
      let j = i + 1;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === BACKSLASH) {
          // An escaped line end is part of the string, and still a line of the file.
          if (text.charCodeAt(j + 1) === LF) line++;
          else if (text.charCodeAt(j + 1) === CR && text.charCodeAt(j + 2) === LF) {
            line++;
            j++;
          }
          j += 2;
        } else if (c === QUOTE || c === LF) break;
        else j++;
      }
      // Past the end, charCodeAt is NaN: no quote.
      if (text.charCodeAt(j) !== QUOTE) {
        throw new ZoneInputError(file, quoteLine, 'expected a closing quote (") before the end of the line');
      }
      tokens.push({ text: text.slice(i + 1, j), quoted: true });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < n) {
      const c = text.charCodeAt(j);
      // A backslash last in the file steps past the end (charCodeAt NaN), which ends the word there.
      if (c === BACKSLASH && text.charCodeAt(j + 1) !== LF) j += 2;
      else if (endsWord(c)) break;
      else j++;
    }
    tokens.push({ text: text.slice(i, j), quoted: false });
    i = j;
  }
  if (depth > 0) {
    throw new ZoneInputError(file, openedOn, 'expected a closing ")" for the "(" opened on this line');
  }
  flush();
  return lines;
}
