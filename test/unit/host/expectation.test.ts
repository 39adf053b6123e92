/**
 * The reviewed plans of `DOMAINAPI_EXPECT_PLAN` (provider/host/expectation.ts): the line a plan
 * prints for people to copy, how the value is read back however it was pasted (the shell's result,
 * the whole `NAME='value'` line, double quotes), the refusal of a malformed pair, and the digest
 * that names a reviewed change.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UnreviewedPlanError } from "../../../provider/errors";
import {
  appliedAt,
  EXPECT_PLAN_ENV,
  expectationAssignment,
  formatExpectation,
  parseExpectation,
  type ReviewedPlan,
  reviewedDigests,
  shortDigest,
} from "../../../provider/host/expectation";

const D1 = "3f2a9c1e0b7d4a55e61f0c2d9b8a7364";
const D2 = "0123456789abcdef0123456789abcdef";

/** A template id as the API allows it: one path segment, no space; `=` and quotes may appear. */
const templateId = fc
  .stringMatching(/^[A-Za-z0-9_.'"=$`\\-]{1,20}$/)
  .filter((id) => !id.includes("/") && id !== "none");
const digest = fc.stringMatching(/^[0-9a-f]{32}$/);
const plans = fc.array(fc.record({ templateId, digest }), { minLength: 1, maxLength: 5 });

/**
 * What a POSIX shell assigns for `NAME=word` (XCU 2.2): inside single quotes every character is
 * itself; outside, a backslash keeps the next character. Read independently of the provider's own
 * unquoting, so a template id holding `'\''` itself is read as the shell reads it.
 */
function shellAssigned(line: string): string {
  const word = line.slice(line.indexOf("=") + 1);
  let value = "";
  for (let i = 0; i < word.length; i++) {
    if (word[i] === "'") {
      const close = word.indexOf("'", i + 1);
      value += word.slice(i + 1, close);
      i = close;
    } else if (word[i] === "\\") {
      value += word[++i];
    } else {
      value += word[i];
    }
  }
  return value;
}

function refusal(value: string): string {
  try {
    parseExpectation(value);
  } catch (e) {
    expect(e).toBeInstanceOf(UnreviewedPlanError);
    return (e as Error).message;
  }
  throw new Error(`${JSON.stringify(value)} was read`);
}

describe("the variable", () => {
  it("is DOMAINAPI_EXPECT_PLAN", () => {
    expect(EXPECT_PLAN_ENV).toBe("DOMAINAPI_EXPECT_PLAN");
  });
});

describe("the value a plan prints", () => {
  it("pairs templateId=digest separated by spaces, in the order given", () => {
    expect(
      formatExpectation([
        { templateId: "web", digest: D1 },
        { templateId: "mail", digest: D2 },
      ]),
    ).toBe(`web=${D1} mail=${D2}`);
  });

  it("says none when nothing was to change", () => {
    expect(formatExpectation([])).toBe("none");
    expect(expectationAssignment([])).toBe("DOMAINAPI_EXPECT_PLAN='none'");
  });

  it("the line to copy quotes the value for the shell, a quote in a template id included", () => {
    expect(
      expectationAssignment([
        { templateId: "mail", digest: D2 },
        { templateId: "web", digest: D1 },
      ]),
    ).toBe(`DOMAINAPI_EXPECT_PLAN='mail=${D2} web=${D1}'`);
    expect(expectationAssignment([{ templateId: "o'neil", digest: D1 }])).toBe(
      `DOMAINAPI_EXPECT_PLAN='o'\\''neil=${D1}'`,
    );
  });
});

describe("reading the value back", () => {
  it("not set: undefined, every plan allowed", () => {
    expect(parseExpectation(undefined)).toBeUndefined();
  });

  it.each(["", "   ", "''", '""', "DOMAINAPI_EXPECT_PLAN=", "DOMAINAPI_EXPECT_PLAN=''", " ' ' "])(
    "set but blank (%j): blank, which refuses every change",
    (value) => {
      expect(parseExpectation(value)).toEqual({ kind: "blank" });
    },
  );

  it.each(["none", " none ", "'none'", "DOMAINAPI_EXPECT_PLAN='none'", '"none"'])(
    "%j: reviewed, nothing to change",
    (value) => {
      expect(parseExpectation(value)).toEqual({ kind: "reviewed", plans: [] });
    },
  );

  it("pairs separated by any whitespace, the digest after the last =", () => {
    expect(parseExpectation(`web=${D1}\tmail=${D2}\n a=b=${D1} `)).toEqual({
      kind: "reviewed",
      plans: [
        { templateId: "web", digest: D1 },
        { templateId: "mail", digest: D2 },
        { templateId: "a=b", digest: D1 },
      ],
    });
  });

  it("the whole line pasted (a CI variable's value), with spaces around the name's =", () => {
    expect(parseExpectation(` DOMAINAPI_EXPECT_PLAN= 'web=${D1} mail=${D2}' `)).toEqual({
      kind: "reviewed",
      plans: [
        { templateId: "web", digest: D1 },
        { templateId: "mail", digest: D2 },
      ],
    });
  });

  it("double quotes with the shell's escapes inside them", () => {
    expect(parseExpectation(`"a\\"b\\$c\\\`d\\\\e\\x=${D1}"`)).toEqual({
      kind: "reviewed",
      plans: [{ templateId: 'a"b$c`d\\e\\x', digest: D1 }],
    });
  });

  it("single quotes: only the shell's '\\'' stands for a quote", () => {
    expect(parseExpectation(`'o'\\''neil=${D1} a\\"b=${D2}'`)).toEqual({
      kind: "reviewed",
      plans: [
        { templateId: "o'neil", digest: D1 },
        { templateId: 'a\\"b', digest: D2 },
      ],
    });
  });

  it("quotes that do not pair are kept, and the pair they spoil is refused", () => {
    expect(refusal(`'web=${D1}"`)).toContain(`"'web=${D1}""`);
    expect(parseExpectation(`'web=${D1}`)).toEqual({
      kind: "reviewed",
      plans: [{ templateId: "'web", digest: D1 }],
    });
    expect(refusal("'")).toContain(`"'"`);
  });

  it("a name other than DOMAINAPI_EXPECT_PLAN is not taken off", () => {
    expect(refusal(`OTHER='web=${D1}'`)).toContain(`"OTHER='web=${D1}'"`);
  });

  it("refuses a malformed pair by name, saying the form expected", () => {
    expect(refusal(`web=${D1} mail`)).toBe(
      'DOMAINAPI_EXPECT_PLAN: "mail" is not a templateId=digest pair (the digest: 32 hexadecimal digits); ' +
        "copy the value domainapi-plan printed for the reviewed plan",
    );
  });

  it.each([
    ["no template id", `=${D1}`],
    ["no =", D1],
    ["a short digest", `web=${D1.slice(1)}`],
    ["a long digest", `web=${D1}0`],
    ["capital digits", `web=${D1.toUpperCase()}`],
    ["a digit that is not hexadecimal", `web=${D1.slice(1)}g`],
    ["text after the digest", `web=${D1}x`],
    ["text before the digest", `web=x${D1}`],
  ])("refuses %s", (_, pair) => {
    expect(refusal(pair)).toContain(`"${pair}" is not a templateId=digest pair`);
  });

  it("reads back a template id that holds the shell's own escape, '\\''", () => {
    const ps = [
      { templateId: "'\\''", digest: D1 },
      { templateId: "a", digest: D2 },
    ];
    const reviewed = { kind: "reviewed", plans: ps };
    expect(parseExpectation(shellAssigned(expectationAssignment(ps)))).toEqual(reviewed);
    expect(parseExpectation(expectationAssignment(ps))).toEqual(reviewed);
  });

  it("reads back every value a plan prints, as the shell leaves it or pasted whole", () => {
    fc.assert(
      fc.property(plans, (ps: ReviewedPlan[]) => {
        const reviewed = { kind: "reviewed", plans: ps };
        expect(parseExpectation(formatExpectation(ps))).toEqual(reviewed);
        expect(parseExpectation(expectationAssignment(ps))).toEqual(reviewed);
        // What the shell makes of the pasted line.
        expect(shellAssigned(expectationAssignment(ps))).toBe(formatExpectation(ps));
        expect(parseExpectation(shellAssigned(expectationAssignment(ps)))).toEqual(reviewed);
      }),
    );
  });
});

describe("the digests reviewed for one template or restore", () => {
  const expected = parseExpectation(`web=${D1} restore/shop.example=${D2} web=${D2}`);

  it("lists every digest given for it, none for another", () => {
    if (expected === undefined) throw new Error("not read");
    expect(reviewedDigests(expected, "web")).toEqual([D1, D2]);
    expect(reviewedDigests(expected, "restore/shop.example")).toEqual([D2]);
    expect(reviewedDigests(expected, "mail")).toEqual([]);
  });

  it("none when the value was blank", () => {
    expect(reviewedDigests({ kind: "blank" }, "web")).toEqual([]);
  });
});

describe("where a reviewed plan is applied", () => {
  it("binds the account to a value that is set, and leaves an unset one unset", () => {
    const expected = parseExpectation(`web=${D1}`);
    expect(appliedAt(expected, { account: "https://api.example.com" })).toEqual({
      kind: "reviewed",
      plans: [{ templateId: "web", digest: D1 }],
      applied: { account: "https://api.example.com" },
    });
    expect(appliedAt(undefined, { account: "https://api.example.com" })).toBeUndefined();
  });
});

describe("the digest of a change", () => {
  it("is the first 32 hexadecimal digits of the SHA-256 of its JSON: stable across versions", () => {
    // A plan reviewed with one release must still match after an upgrade.
    expect(shortDigest(["DomainRestore", "https://api.example.com", "shop.example"])).toBe(
      "f06956106469213ba7845b0afbdffdd0",
    );
  });

  it("differs for different descriptions", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        expect(shortDigest(a)).not.toBe(shortDigest(b));
        expect(shortDigest(a)).toMatch(/^[0-9a-f]{32}$/);
      }),
    );
  });
});
