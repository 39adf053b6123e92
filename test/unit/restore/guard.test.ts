/**
 * DomainRestore under the reviewed-plan guard (provider/restore/guard.ts, docs/design.md "The
 * reviewed-plan guard"): with DOMAINAPI_EXPECT_PLAN set, a restore is sent only when the reviewed
 * plan names it, for this account, as `restore/<domain>=<digest>`; otherwise the refusal says why
 * and how to have it reviewed.
 */
import { describe, expect, it } from "vitest";
import { appliedAt, parseExpectation } from "../../../provider/host/expectation";
import { restoreDigest, restoreKey, restoreRefusal } from "../../../provider/restore/guard";

const ACCOUNT = "https://api.example.com";
const OTHER = "https://api.other.example";
const OTHER_DIGEST = "0123456789abcdef0123456789abcdef";

/** The value bound to the account the restore would be sent to (`null`: one not known). */
function under(value: string, account: string | null = ACCOUNT) {
  return appliedAt(parseExpectation(value), { account: account ?? undefined });
}

describe("the name and digest of a restore", () => {
  it("is named restore/<domain>", () => {
    expect(restoreKey("shop.example")).toBe("restore/shop.example");
  });

  it("has a digest of 32 hexadecimal digits that covers the domain and the account", () => {
    const digest = restoreDigest("shop.example", ACCOUNT);
    expect(digest).toMatch(/^[0-9a-f]{32}$/);
    expect(restoreDigest("shop.example", ACCOUNT)).toBe(digest);
    expect(restoreDigest("other.example", ACCOUNT)).not.toBe(digest);
    expect(restoreDigest("shop.example", OTHER)).not.toBe(digest);
    expect(restoreDigest("shop.example", undefined)).not.toBe(digest);
    expect(restoreDigest("shop.example", undefined)).not.toBe(restoreDigest("shop.example", ""));
  });

  it("is stable across versions (a plan reviewed before an upgrade still matches after it)", () => {
    expect(restoreDigest("shop.example", ACCOUNT)).toBe(restoreDigest("shop.example", ACCOUNT));
    expect(restoreDigest("shop.example", undefined)).toBe(restoreDigest("shop.example", undefined));
  });
});

describe("whether a restore may be sent", () => {
  const digest = restoreDigest("shop.example", ACCOUNT);

  it("with no reviewed plan (the variable not set): yes", () => {
    expect(restoreRefusal("shop.example", undefined)).toBeUndefined();
  });

  it("named by the reviewed plan with its digest for this account: yes", () => {
    expect(
      restoreRefusal("shop.example", under(`web=${OTHER_DIGEST} restore/shop.example=${digest}`)),
    ).toBeUndefined();
  });

  it("the variable set but empty: no, and the refusal says so and how to have it reviewed", () => {
    expect(restoreRefusal("shop.example", under(""))).toBe(
      'refusing to restore domain "shop.example" from quarantine: DOMAINAPI_EXPECT_PLAN is set but empty, so no ' +
        "change is a reviewed one. A restore cannot be undone; nothing was sent. To have it reviewed, preview the " +
        "program, let domainapi-plan list the restore in the pull-request plan, and run `pulumi up` with the " +
        `DOMAINAPI_EXPECT_PLAN value of that plan (it holds restore/shop.example=${digest}).`,
    );
  });

  it("a reviewed plan that does not name it (none included): no", () => {
    for (const value of ["none", `web=${OTHER_DIGEST}`, `restore/other.example=${digest}`]) {
      expect(restoreRefusal("shop.example", under(value))).toBe(
        'refusing to restore domain "shop.example" from quarantine: the reviewed plan (DOMAINAPI_EXPECT_PLAN) does ' +
          "not name it. A restore cannot be undone; nothing was sent. To have it reviewed, preview the program, let " +
          "domainapi-plan list the restore in the pull-request plan, and run `pulumi up` with the DOMAINAPI_EXPECT_PLAN " +
          `value of that plan (it holds restore/shop.example=${digest}).`,
      );
    }
  });

  it("reviewed for another account: no, naming the digests reviewed, this one, and its account", () => {
    const elsewhere = restoreDigest("shop.example", OTHER);
    expect(
      restoreRefusal(
        "shop.example",
        under(`restore/shop.example=${elsewhere} restore/shop.example=${OTHER_DIGEST}`),
      ),
    ).toBe(
      `refusing to restore domain "shop.example" from quarantine: the reviewed restore was ${elsewhere} or ` +
        `${OTHER_DIGEST}, and this one is ${digest} (a digest covers the account: this one is for ${ACCOUNT}). ` +
        "A restore cannot be undone; nothing was sent. To have it reviewed, preview the program, let domainapi-plan " +
        "list the restore in the pull-request plan, and run `pulumi up` with the DOMAINAPI_EXPECT_PLAN value of that " +
        `plan (it holds restore/shop.example=${digest}).`,
    );
  });

  it("the account not known: its digest is its own, and the refusal says the account is not known", () => {
    const unknown = restoreDigest("shop.example", undefined);
    expect(restoreRefusal("shop.example", under(`restore/shop.example=${unknown}`, null))).toBeUndefined();
    expect(restoreRefusal("shop.example", under(`restore/shop.example=${digest}`, null))).toContain(
      `and this one is ${unknown} (a digest covers the account: this one is for (an account not known))`,
    );
  });

  it("a parsed value not yet bound to an account is taken as for an account not known", () => {
    const unknown = restoreDigest("shop.example", undefined);
    expect(
      restoreRefusal("shop.example", parseExpectation(`restore/shop.example=${unknown}`)),
    ).toBeUndefined();
  });
});
