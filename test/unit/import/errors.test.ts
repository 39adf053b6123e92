/**
 * ZoneInputError as a user and a script meet it: the message names the file and, when there is
 * one, the line (`file:line: what was expected`, as compilers write it); the file and line are
 * there to read, and the error says what it is.
 */
import { describe, expect, it } from "vitest";
import { importZones, ZoneInputError } from "../../../provider/import";
import { ZoneInputError as Direct } from "../../../provider/import/errors";

describe("ZoneInputError", () => {
  it("names the file and line of a problem in the text", () => {
    const err = new Direct("example.com.zone", 12, "expected a closing quote");
    expect(err.message).toBe("example.com.zone:12: expected a closing quote");
    expect([err.name, err.file, err.line]).toEqual(["ZoneInputError", "example.com.zone", 12]);
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toBe("ZoneInputError: example.com.zone:12: expected a closing quote");
  });

  it("names the file alone for a problem of the whole input", () => {
    const err = new Direct("dig.txt", 0, "expected the zone's domain");
    expect(err.message).toBe("dig.txt: expected the zone's domain");
    expect(err.line).toBe(0);
  });

  it("is what importing an unreadable zone throws, with its line", () => {
    let caught: unknown;
    try {
      importZones([{ text: '$ORIGIN example.com.\nwww TXT "open\n', file: "web.zone" }]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ZoneInputError);
    expect((caught as ZoneInputError).line).toBe(2);
    expect((caught as ZoneInputError).file).toBe("web.zone");
    expect((caught as Error).message).toMatch(/^web\.zone:2: /);
  });
});
