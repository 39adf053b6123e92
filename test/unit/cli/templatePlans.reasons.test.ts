/**
 * Why `domainapi-plan --expect` can give no value for a template or a restore (cli/templatePlans.ts,
 * `notPlannableReason`): the reader is told what makes the plan unknowable and what to do about it.
 */
import { describe, expect, it } from "vitest";
import { notPlannableReason } from "../../../provider/cli/templatePlans";

describe("notPlannableReason", () => {
  it("of a template: secret records, values known only during up, or no account", () => {
    expect(notPlannableReason("secret")).toBe(
      'its records are secret in the preview (see "Secret records" in docs/previews.md: keep record content plain)',
    );
    expect(notPlannableReason("unknown")).toBe("its records are known only during `pulumi up`");
    expect(notPlannableReason("account")).toBe(
      "the preview does not say which account it is sent to (no domainapi:baseUrl in the stack config, no baseUrl " +
        "input of its provider): run domainapi-plan with DOMAINAPI_BASE_URL set as the preview had it, or, for an " +
        "explicit provider that does not change, preview with --show-sames so that its step is in the preview",
    );
    expect(notPlannableReason("secret", false)).toBe(notPlannableReason("secret"));
  });

  it("of a restore: its domain not shown, whether secret or unknown; the account as for a template", () => {
    const hidden = "its domain is not shown in the preview (a secret, or known only during `pulumi up`)";
    expect(notPlannableReason("secret", true)).toBe(hidden);
    expect(notPlannableReason("unknown", true)).toBe(hidden);
    expect(notPlannableReason("account", true)).toBe(notPlannableReason("account"));
  });
});
