/**
 * The `DOMAINAPI_EXPECT_PLAN` value people copy: written quoted, read as the shell leaves it or as
 * pasted whole (with its `DOMAINAPI_EXPECT_PLAN=` and quotes); set but blank is an expectation that
 * refuses every change, unset is none. The shell used is the real one (`sh -c`).
 */
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  expectationAssignment,
  parseExpectation,
  planDigest,
  refusalOf,
  type TemplateApplied,
} from "../../../provider/records/digest";
import { planResource } from "../../../provider/records/plan";
import { decodeInputs } from "../../../provider/records/state";

const mail = { templateId: "mail", digest: "0123456789abcdef0123456789abcdef" };
const web = { templateId: "web", digest: "3f2a9c1e0b7d4a55e61f0c2d9b8a7364" };

/** What `sh` puts in the variable when `line` is pasted in front of a command. */
function asShellPrefix(line: string): string {
  return execFileSync("sh", ["-c", `${line} printenv DOMAINAPI_EXPECT_PLAN`], { encoding: "utf8" }).replace(
    /\n$/,
    "",
  );
}

describe("the DOMAINAPI_EXPECT_PLAN line of a plan", () => {
  it("is quoted, so that a shell keeps every pair", () => {
    const line = expectationAssignment([mail, web]);
    expect(line).toBe(
      "DOMAINAPI_EXPECT_PLAN='mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364'",
    );
    expect(asShellPrefix(line)).toBe(
      "mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364",
    );
    expect(expectationAssignment([])).toBe("DOMAINAPI_EXPECT_PLAN='none'");
  });

  it("reads the same plans as the shell leaves them, pasted whole, without the name, or double-quoted", () => {
    const reviewed = { kind: "reviewed", plans: [mail, web] };
    for (const value of [
      "mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364",
      "DOMAINAPI_EXPECT_PLAN='mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364'",
      "'mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364'",
      ' DOMAINAPI_EXPECT_PLAN="mail=0123456789abcdef0123456789abcdef  web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364"\n',
      "DOMAINAPI_EXPECT_PLAN=mail=0123456789abcdef0123456789abcdef web=3f2a9c1e0b7d4a55e61f0c2d9b8a7364",
    ]) {
      expect(parseExpectation(value), value).toEqual(reviewed);
    }
    expect(parseExpectation("DOMAINAPI_EXPECT_PLAN='none'")).toEqual({ kind: "reviewed", plans: [] });
  });

  it("round-trips any template id through the shell and through pasting (property)", () => {
    // Template ids: no spaces, controls, "/", "?", "#", "%" or "\" (validateTemplateId); quotes and "=" allowed.
    const id = fc.stringMatching(/^[A-Za-z0-9'"=$`!*;&|()<>{}[\]^~.,:@_+-]{1,12}$/);
    const digest = fc.stringMatching(/^[0-9a-f]{32}$/);
    fc.assert(
      fc.property(
        fc.array(fc.record({ templateId: id, digest }), { minLength: 1, maxLength: 3 }),
        (plans) => {
          const line = expectationAssignment(plans);
          expect(parseExpectation(line)).toEqual({ kind: "reviewed", plans });
          expect(parseExpectation(asShellPrefix(line))).toEqual({ kind: "reviewed", plans });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("set but empty or blank is an expectation that refuses every change; unset is none", () => {
    for (const blank of ["", "   ", "\n", "''", '""', "DOMAINAPI_EXPECT_PLAN=", "DOMAINAPI_EXPECT_PLAN=''"]) {
      expect(parseExpectation(blank), JSON.stringify(blank)).toEqual({ kind: "blank" });
    }
    expect(parseExpectation(undefined)).toBeUndefined();
    const plan = planResource(
      undefined,
      decodeInputs({ templateId: "web", records: [{ name: "@", type: "A", content: "192.0.2.1" }] }),
    );
    expect(refusalOf(plan, undefined)).toBeUndefined();
    const applied = { account: "https://api.example.com", purge: true, safetyThreshold: false as const };
    expect(refusalOf(plan, { kind: "blank", applied })).toMatch(
      /^refusing to change template "web": DOMAINAPI_EXPECT_PLAN is set but empty.*a failed `domainapi-plan --expect`.*Nothing was sent/,
    );
    // A plan that sends nothing is never refused.
    const nothing = planResource(undefined, decodeInputs({ templateId: "web", records: [], purge: false }));
    expect(nothing.requests).toEqual([]);
    expect(refusalOf(nothing, { kind: "blank", applied })).toBeUndefined();
  });

  it("a malformed pair is named with the form expected", () => {
    expect(() => parseExpectation("DOMAINAPI_EXPECT_PLAN='web'")).toThrow(
      /"web" is not a templateId=digest pair/,
    );
  });
});

describe("a digest covers where and how a plan is applied, not only what it sends", () => {
  const records = [{ name: "@", type: "A", content: "192.0.2.1" }];
  // Made in each test, not when the file is collected: its code is then covered test by test.
  const planned = () => planResource(undefined, decodeInputs({ templateId: "web", records, purge: false }));
  const reviewed: TemplateApplied = {
    account: "https://api.example.com",
    purge: false,
    safetyThreshold: { minExistingRecords: 10, maxChangePercent: 30 },
  };
  const others: Array<[string, TemplateApplied]> = [
    ["another account", { ...reviewed, account: "https://api.other.example" }],
    ["another path on the same host", { ...reviewed, account: "https://api.example.com/acme" }],
    ["purge", { ...reviewed, purge: true }],
    [
      "the threshold's share",
      { ...reviewed, safetyThreshold: { minExistingRecords: 10, maxChangePercent: 100 } },
    ],
    [
      "the threshold's floor",
      { ...reviewed, safetyThreshold: { minExistingRecords: 0, maxChangePercent: 30 } },
    ],
    ["the threshold off", { ...reviewed, safetyThreshold: false }],
  ];

  for (const [what, applied] of others) {
    it(`differs by ${what}, so the reviewed value refuses the plan there`, () => {
      const plan = planned();
      expect(planDigest(plan, applied)).not.toBe(planDigest(plan, reviewed));
      const value = parseExpectation(`web=${planDigest(plan, reviewed)}`);
      expect(refusalOf(plan, value && { ...value, applied: reviewed })).toBeUndefined();
      expect(refusalOf(plan, value && { ...value, applied })).toMatch(
        /^refusing to change template "web": its plan is not the reviewed one .*a digest covers the plan's requests and account .*purge .*safety threshold/,
      );
    });
  }

  it("is 128 bits, since the pull request's author picks both the shown plan and the applied one (a collision suffices)", () => {
    const plan = planned();
    expect(planDigest(plan, reviewed)).toMatch(/^[0-9a-f]{32}$/);
    const short = planDigest(plan, reviewed).slice(0, 16);
    expect(() => parseExpectation(`web=${short}`)).toThrow(
      new RegExp(`"web=${short}" is not a templateId=digest pair \\(the digest: 32 hexadecimal digits\\)`),
    );
  });

  it("is the same for the same account, settings and requests, whatever order the threshold was given in", () => {
    const plan = planned();
    const swapped = { maxChangePercent: 30, minExistingRecords: 10 };
    expect(planDigest(plan, { ...reviewed, safetyThreshold: swapped })).toBe(planDigest(plan, reviewed));
  });

  it("refuses, instead of guessing, an expectation not bound to where it applies", () => {
    const plan = planned();
    expect(() => refusalOf(plan, parseExpectation("none"))).toThrow(/appliedAt/);
  });
});
