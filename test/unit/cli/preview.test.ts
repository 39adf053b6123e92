/**
 * What `domainapi-plan` reads (cli/preview.ts): the whole refusal of a text that is no
 * `pulumi preview --json` document, the errors of a failed preview, and the Automation API's engine
 * events turned into the same document (a step per resource pre-event, the messages that are neither
 * ephemeral nor debug).
 */
import { describe, expect, it } from "vitest";
import {
  PreviewInputError,
  parsePreview,
  previewErrors,
  previewFromEngineEvents,
} from "../../../provider/cli/preview";

function refusal(text: string): string {
  try {
    parsePreview(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PreviewInputError);
    return (err as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("parsePreview", () => {
  it("refuses an empty or blank input, saying what it expects", () => {
    for (const text of ["", "  \n\t"]) {
      expect(refusal(text)).toBe("the input is empty: expected the output of `pulumi preview --json`");
    }
  });

  it("refuses text that is not JSON, with the parser's reason and the command that prints JSON", () => {
    expect(refusal("Previewing update (dev):")).toMatch(
      /^the input is not JSON \(.+\): expected the output of `pulumi preview --json`, not of `pulumi preview` or `pulumi preview --diff`$/,
    );
    expect(refusal("{")).toContain(`(${jsonReason("{")})`);
  });

  it("refuses JSON of another shape on one line, naming the field", () => {
    const message = refusal('{"steps": [{"op": 1, "urn": "u"}]}');
    expect(message).toMatch(/^the input is not a `pulumi preview --json` document: .*steps/);
    expect(message).not.toContain("\n");
    expect(refusal("{}")).toBe(
      "the input is not a `pulumi preview --json` document: ✖ expected the output of `pulumi preview --json` (an object with steps and a changeSummary)",
    );
  });

  it("takes an object with any one of the digest's fields", () => {
    for (const key of ["steps", "changeSummary", "config", "diagnostics", "duration"]) {
      const value = key === "steps" || key === "diagnostics" ? [] : key === "duration" ? 1 : {};
      expect(parsePreview(JSON.stringify({ [key]: value }))).toEqual({ [key]: value });
    }
  });
});

/** The message JSON.parse gives for `text`. */
function jsonReason(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  return "";
}

describe("previewErrors", () => {
  it("gives the trimmed messages of severity error only, skipping empty ones", () => {
    const preview = parsePreview(
      JSON.stringify({
        diagnostics: [
          { severity: "error", message: "  error: boom\n" },
          { severity: "warning", message: "warning: careful" },
          { severity: "info", message: "info" },
          { severity: "error", message: "" },
          { severity: "error" },
          { message: "no severity" },
          { severity: "error", message: "error: second" },
        ],
      }),
    );
    expect(previewErrors(preview)).toEqual(["error: boom", "error: second"]);
    expect(previewErrors(parsePreview('{"steps": []}'))).toEqual([]);
  });
});

describe("previewFromEngineEvents", () => {
  const urn = "urn:pulumi:dev::p::domainapi:index:DnsTemplateRecords::web";

  it("makes a step of each resource pre-event with an op and a URN, each side typed", () => {
    const preview = previewFromEngineEvents([
      {
        resourcePreEvent: {
          metadata: {
            op: "update",
            urn,
            type: "domainapi:index:DnsTemplateRecords",
            provider: "urn:pulumi:dev::p::pulumi:providers:domainapi::live::id-1",
            old: { outputs: { templateId: "web" } },
            new: { type: "own:type", inputs: { templateId: "web" } },
          },
        },
      },
      { resourcePreEvent: { metadata: { op: "create" } } },
      { resourcePreEvent: { metadata: { urn } } },
      { resourcePreEvent: {} },
      null,
      { something: "else" },
      { resourcePreEvent: { metadata: { op: "delete", urn, old: null, new: null } } },
    ]);
    expect(preview.steps).toEqual([
      {
        op: "update",
        urn,
        provider: "urn:pulumi:dev::p::pulumi:providers:domainapi::live::id-1",
        oldState: {
          type: "domainapi:index:DnsTemplateRecords",
          inputs: {},
          outputs: { templateId: "web" },
        },
        newState: { type: "own:type", inputs: { templateId: "web" }, outputs: {} },
      },
      { op: "delete", urn },
    ]);
    expect(preview.steps?.[1]).not.toHaveProperty("provider");
    expect(preview.diagnostics).toEqual([]);
  });

  it("a side without a type of its own or of the event has an empty type", () => {
    const preview = previewFromEngineEvents([
      { resourcePreEvent: { metadata: { op: "create", urn, new: { inputs: { a: 1 } } } } },
    ]);
    expect(preview.steps?.[0]?.newState).toEqual({ type: "", inputs: { a: 1 }, outputs: {} });
  });

  it("keeps the messages that are neither ephemeral nor debug, with their URN and severity", () => {
    const preview = previewFromEngineEvents([
      { diagnosticEvent: { urn, message: "error: boom", severity: "error" } },
      { diagnosticEvent: { message: "progress", severity: "info", ephemeral: true } },
      { diagnosticEvent: { message: "trace", severity: "debug" } },
      { diagnosticEvent: { message: "careful", severity: "warning", ephemeral: false } },
    ]);
    expect(preview.diagnostics).toEqual([
      { urn, message: "error: boom", severity: "error" },
      { message: "careful", severity: "warning" },
    ]);
    expect(previewErrors(preview)).toEqual(["error: boom"]);
  });
});
