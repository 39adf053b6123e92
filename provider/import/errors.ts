/**
 * The one error of reading zone data: where (file and line) and what was expected there. The
 * `domainapi-import` command exits with status 2 on it, so a script can tell unreadable input
 * from a failure of the command itself.
 */

/**
 * Zone data that cannot be read as a master file or a `dig` answer section. Its message names the
 * file, the line and what was expected, e.g. `example.com.zone:12: expected a closing quote`.
 */
export class ZoneInputError extends Error {
  /** The file (or label) the text came from. */
  readonly file: string;
  /** The 1-based line of the problem, 0 when it concerns the whole input. */
  readonly line: number;

  constructor(file: string, line: number, message: string) {
    super(line > 0 ? `${file}:${line}: ${message}` : `${file}: ${message}`);
    this.name = "ZoneInputError";
    this.file = file;
    this.line = line;
  }
}
