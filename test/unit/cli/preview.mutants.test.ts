/**
 * What `domainapi-plan` refuses in a preview document (cli/preview.ts) beyond its top level: a
 * step's side without its type, or with inputs that are no object, and a message that is no text.
 * Each is refused with the place it is at, before anything is planned from it.
 */
import { describe, expect, it } from "vitest";
import { PreviewInputError, parsePreview, previewErrors } from "../../../provider/cli/preview";

function refusal(value: unknown): string {
  try {
    parsePreview(JSON.stringify(value));
  } catch (err) {
    expect(err).toBeInstanceOf(PreviewInputError);
    return (err as Error).message;
  }
  throw new Error("expected a refusal");
}

const urn = "urn:pulumi:dev::dns::domainapi:index:DnsTemplateRecords::web";

describe("a step's side", () => {
  it("without its type is refused, naming the side", () => {
    const message = refusal({ steps: [{ op: "create", urn, newState: { inputs: {} } }] });
    expect(message).toMatch(
      /^the input is not a `pulumi preview --json` document: .*steps\[0\]\.newState\.type/,
    );
  });

  it("with inputs or outputs that are no object is refused, naming them", () => {
    expect(refusal({ steps: [{ op: "delete", urn, oldState: { type: "t", outputs: "x" } }] })).toMatch(
      /steps\[0\]\.oldState\.outputs/,
    );
    expect(refusal({ steps: [{ op: "create", urn, newState: { type: "t", inputs: [1] } }] })).toMatch(
      /steps\[0\]\.newState\.inputs/,
    );
  });
});

describe("a message of the preview", () => {
  it("that is no text is refused, naming it, rather than read as an error", () => {
    expect(refusal({ diagnostics: [{ severity: "error", message: 5 }] })).toMatch(
      /diagnostics\[0\]\.message/,
    );
    expect(refusal({ diagnostics: [{ severity: ["error"], message: "boom" }] })).toMatch(
      /diagnostics\[0\]\.severity/,
    );
  });

  it("of severity error with text is an error of the preview, trimmed", () => {
    const preview = parsePreview(
      JSON.stringify({ diagnostics: [{ severity: "error", message: "\n boom \n" }] }),
    );
    expect(previewErrors(preview)).toEqual(["boom"]);
  });
});
