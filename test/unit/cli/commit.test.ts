/**
 * The commit (and the run) a plan comment is marked with: `--commit` takes only a whole SHA (an
 * abbreviated one can name several commits), and the deployment reads back only the marker lines
 * domainapi-plan and the plan action write, whole lines of their exact form.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  commitMarker,
  markedCommits,
  markedRuns,
  parseCommit,
  runMarker,
} from "../../../provider/cli/commit";
import { PreviewInputError } from "../../../provider/cli/errors";

const SHA1 = "0123456789abcdef0123456789abcdef01234567";
const SHA256 = `${SHA1}0123456789abcdef01234567`;

describe("parseCommit", () => {
  it("a whole SHA-1 or SHA-256, in any case and with blank space around: lower-cased", () => {
    expect(parseCommit(SHA1, "--commit")).toBe(SHA1);
    expect(parseCommit(SHA256, "--commit")).toBe(SHA256);
    expect(parseCommit(` ${SHA1.toUpperCase()}\n`, "--commit")).toBe(SHA1);
  });

  it("anything else is refused, naming the option, the value and the form expected", () => {
    for (const value of [
      "",
      SHA1.slice(0, 7),
      SHA1.slice(1),
      `${SHA1}0`,
      SHA256.slice(1),
      `${SHA256}0`,
      `${SHA1.slice(1)}g`,
      `x${SHA1}`,
      `${SHA1}x`,
      `${SHA1} ${SHA1}`,
    ]) {
      expect(() => parseCommit(value, "--commit"), value).toThrow(PreviewInputError);
    }
    expect(() => parseCommit("HEAD", "--sha")).toThrow(
      '--sha: "HEAD" is not a full commit id (40 or 64 hexadecimal digits); give the whole SHA (in a pull request\'s workflow: github.event.pull_request.head.sha)',
    );
  });

  it("any length but 40 and 64 is refused (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), maxLength: 80 }), (hex) => {
        const accepted = (() => {
          try {
            parseCommit(hex, "--commit");
            return true;
          } catch {
            return false;
          }
        })();
        expect(accepted).toBe(hex.length === 40 || hex.length === 64);
      }),
    );
  });
});

describe("the commit marker", () => {
  it("is an HTML comment on a line of its own, read back whole", () => {
    expect(commitMarker(SHA1)).toBe(`<!-- domainapi-plan commit=${SHA1} -->`);
    expect(markedCommits(["### DNS record plan", commitMarker(SHA1), "", commitMarker(SHA256)])).toEqual([
      SHA1,
      SHA256,
    ]);
  });

  it("only the exact line counts: not quoted, indented, followed by text, or with other characters", () => {
    expect(
      markedCommits([
        `> ${commitMarker(SHA1)}`,
        ` ${commitMarker(SHA1)}`,
        `${commitMarker(SHA1)} `,
        `${commitMarker(SHA1)} and more`,
        `<!-- domainapi-plan commit=${SHA1.toUpperCase()} -->`,
        "<!-- domainapi-plan commit= -->",
        `<!-- domainapi-plan  commit=${SHA1} -->`,
        `<!-- domainapi-plan run=${SHA1.replace(/[a-f]/g, "1")} -->`,
      ]),
    ).toEqual([]);
  });
});

describe("the run marker", () => {
  it("names the run in decimal, read back as a number", () => {
    expect(runMarker(123456)).toBe("<!-- domainapi-plan run=123456 -->");
    expect(markedRuns([runMarker(1), "text", runMarker(20_000_000_001)])).toEqual([1, 20_000_000_001]);
  });

  it("only the exact line counts", () => {
    expect(
      markedRuns([
        `> ${runMarker(1)}`,
        ` ${runMarker(1)}`,
        `${runMarker(1)} `,
        "<!-- domainapi-plan run=1a -->",
        "<!-- domainapi-plan run= -->",
        "<!-- domainapi-plan run=-1 -->",
        commitMarker(SHA1),
      ]),
    ).toEqual([]);
  });
});
