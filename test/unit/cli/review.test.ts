/**
 * The plan of a preview for programs that drive Pulumi from code (the Automation API): from the
 * preview document or from its engine events, in an array or any other iterable (a generator that
 * yields them as they come), the same Markdown and the same `DOMAINAPI_EXPECT_PLAN` value; and when
 * no value can be given, which template and why.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePreview } from "../../../provider/cli/preview";
import { planComment, planExpectation, planExpectationResult } from "../../../provider/cli/review";
import { RESTORE_TYPES, TEMPLATE_RECORDS_TYPES } from "../../../provider/cli/templatePlans";

const fixtures = path.join(__dirname, "..", "..", "fixtures", "preview");
const read = (name: string) => fs.readFileSync(path.join(fixtures, name), "utf8");
const TYPE = TEMPLATE_RECORDS_TYPES[0] as string;

/** An engine event of a step of template `id`, its records given as `records`. */
function event(id: string, records: unknown) {
  const state = { type: TYPE, inputs: { templateId: id, records }, outputs: { templateId: id, records } };
  return {
    resourcePreEvent: {
      metadata: { op: "create", urn: `urn:pulumi:dev::dns::${TYPE}::${id}`, type: TYPE, new: state },
    },
  };
}

describe("engine events in any iterable", () => {
  it("a generator or a Set of the events: the same as the array", () => {
    const events = JSON.parse(read("update.events.json")) as unknown[];
    const comment = planComment(events);
    // Engine events carry no stack config: without DOMAINAPI_BASE_URL no digest, each template named.
    const result = planExpectationResult(events);
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^no plan can be reviewed for template /),
    });
    function* generated() {
      yield* events;
    }
    expect(planComment(generated())).toBe(comment);
    expect(planExpectationResult(generated())).toEqual(result);
    expect(planComment(new Set(events), { commit: "0123456789abcdef0123456789abcdef01234567" })).toContain(
      "<!-- domainapi-plan commit=0123456789abcdef0123456789abcdef01234567 -->",
    );
  });
});

describe("planExpectationResult", () => {
  it("a preview that changes nothing: `none`", () => {
    expect(planExpectationResult(parsePreview(read("no-changes.json")))).toEqual({ ok: true, value: "none" });
  });

  it("a failed preview: says so, whatever was planned before the failure", () => {
    expect(planExpectationResult(parsePreview(read("failed.json")))).toEqual({
      ok: false,
      reason: "the preview failed",
    });
    expect(planExpectation(parsePreview(read("failed.json")))).toBeUndefined();
  });

  it("every template whose plan is not known is named, with its resource and why, one after the other", () => {
    const result = planExpectationResult([event("web", "[secret]"), event("mail", { ciphertext: "x" })]);
    expect(result).toEqual({
      ok: false,
      reason:
        'no plan can be reviewed for template "mail" (resource "mail"): its records are secret in the preview ' +
        '(see "Secret records" in docs/previews.md: keep record content plain); ' +
        'template "web" (resource "web"): its records are secret in the preview ' +
        '(see "Secret records" in docs/previews.md: keep record content plain)',
    });
  });
});

describe("a DomainRestore whose domain the preview does not show", () => {
  it("is named with why: its domain, not its records", () => {
    const type = RESTORE_TYPES[0] as string;
    const preview = {
      config: { "domainapi:baseUrl": "https://api.example.com" },
      steps: [
        {
          op: "create",
          urn: `urn:pulumi:dev::dns::${type}::restore`,
          newState: { type, inputs: { domain: "[secret]" }, outputs: {} },
        },
      ],
    };
    expect(planExpectationResult(preview)).toEqual({
      ok: false,
      reason:
        'no plan can be reviewed for template "restore/(secret)" (resource "restore"): ' +
        "its domain is not shown in the preview (a secret, or known only during `pulumi up`)",
    });
  });
});
