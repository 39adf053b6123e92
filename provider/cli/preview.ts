/**
 * The machine-readable preview that `domainapi-plan` reads: what `pulumi preview --json` prints (the
 * engine's "preview digest"), as a zod schema of just the fields the plan needs.
 *
 * Each step of the digest is one resource operation (`create`, `update`, `delete`, `replace`,
 * `same` with `--show-sames`, ...). `oldState` is the resource as the state holds it (its `outputs`
 * are what the provider stored); `newState.inputs` are the inputs after the provider's `check`. The
 * Automation API does not offer `--json`; its engine events carry the same states, so
 * {@link previewFromEngineEvents} turns them into the same document.
 *
 * Knows neither HTTP nor the provider.
 */
import { z } from "zod";
import { PreviewInputError } from "./errors";

const Props = z.record(z.string(), z.unknown());

/** A resource's state in a step: only type, inputs and outputs matter here. */
const StepState = z.looseObject({
  type: z.string(),
  urn: z.string().optional(),
  /** The provider reference of this side of the step (a replacement may change it). */
  provider: z.string().optional(),
  inputs: Props.nullish(),
  outputs: Props.nullish(),
});

/** One step of `pulumi preview --json`. */
const PreviewStepSchema = z.looseObject({
  op: z.string(),
  urn: z.string(),
  /** The provider reference: its URN, `::`, its id (which provider, and so which account). */
  provider: z.string().optional(),
  oldState: StepState.nullish(),
  newState: StepState.nullish(),
});

/** A message of the preview: the engine's, the program's or a provider's (`severity`: info, warning, error). */
const PreviewDiagnosticSchema = z.looseObject({
  urn: z.string().optional(),
  message: z.string().optional(),
  severity: z.string().optional(),
});

/**
 * The digest `pulumi preview --json` prints. Every field is optional in the engine's own type
 * (`omitempty`), so a document counts as a preview when it is an object with at least one of them.
 */
const PreviewDigestSchema = z
  .looseObject({
    steps: z.array(PreviewStepSchema).optional(),
    changeSummary: z.record(z.string(), z.number()).optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    diagnostics: z.array(PreviewDiagnosticSchema).optional(),
    duration: z.number().optional(),
  })
  .refine(
    (d) => ["steps", "changeSummary", "config", "diagnostics", "duration"].some((key) => key in d),
    "expected the output of `pulumi preview --json` (an object with steps and a changeSummary)",
  );

/** One step of a preview: what the engine will do to one resource. */
export type PreviewStep = z.infer<typeof PreviewStepSchema>;
/** One message of a preview. */
export type PreviewDiagnostic = z.infer<typeof PreviewDiagnosticSchema>;
/** A parsed `pulumi preview --json` document. */
export type PreviewDigest = z.infer<typeof PreviewDigestSchema>;

export { PreviewInputError };

/**
 * Parses the text `pulumi preview --json` printed.
 *
 * @throws PreviewInputError when the text is not JSON, or not a preview digest (the message names
 *   the first field that does not fit)
 * @example
 * parsePreview('{"steps": [], "changeSummary": {"same": 3}}').steps; // []
 */
export function parsePreview(text: string): PreviewDigest {
  if (text.trim() === "") {
    throw new PreviewInputError("the input is empty: expected the output of `pulumi preview --json`");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new PreviewInputError(
      `the input is not JSON (${reason}): expected the output of \`pulumi preview --json\`, ` +
        "not of `pulumi preview` or `pulumi preview --diff`",
    );
  }
  const parsed = PreviewDigestSchema.safeParse(value);
  if (!parsed.success) {
    throw new PreviewInputError(
      `the input is not a \`pulumi preview --json\` document: ${z.prettifyError(parsed.error).replaceAll("\n", " ")}`,
    );
  }
  return parsed.data;
}

/**
 * The errors of a preview. A preview that failed (an invalid record, the safety threshold) still
 * prints its JSON, with the steps planned so far: a plan of it must say that it is incomplete.
 *
 * @example
 * previewErrors(parsePreview(text)); // ["error: ... resource 'web': property records[0].name ..."]
 */
export function previewErrors(preview: PreviewDigest): string[] {
  // Stryker disable next-line ArrayDeclaration: an item in place of absent diagnostics has no severity, so it is no error
  return (preview.diagnostics ?? []).flatMap((d) =>
    d.severity === "error" && d.message ? [d.message.trim()] : [],
  );
}

/** The parts of an Automation API engine event that carry a step or a message. */
interface StepEventLike {
  diagnosticEvent?: { urn?: string; message?: string; severity?: string; ephemeral?: boolean };
  resourcePreEvent?: {
    metadata?: {
      op?: string;
      urn?: string;
      type?: string;
      provider?: string;
      old?: { type?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
      new?: { type?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> } | null;
    };
  };
}

/**
 * The preview digest of the engine events of a preview (the Automation API's `onEvent`, or the lines
 * of `pulumi preview --event-log`), so that a program driving Pulumi from code gets the same plan as
 * `pulumi preview --json` gives on the command line.
 *
 * @example
 * const events: EngineEvent[] = [];
 * await stack.preview({ onEvent: (e) => events.push(e) });
 * planMarkdown(previewFromEngineEvents(events));
 */
export function previewFromEngineEvents(events: Iterable<unknown>): PreviewDigest {
  const steps: unknown[] = [];
  const diagnostics: PreviewDiagnostic[] = [];
  for (const event of events) {
    const diagnostic = (event as StepEventLike | null)?.diagnosticEvent;
    if (diagnostic && !diagnostic.ephemeral && diagnostic.severity !== "debug") {
      diagnostics.push({ urn: diagnostic.urn, message: diagnostic.message, severity: diagnostic.severity });
    }
    const metadata = (event as StepEventLike | null)?.resourcePreEvent?.metadata;
    if (!metadata?.op || !metadata.urn) continue;
    const state = (s: typeof metadata.old) =>
      s
        ? { type: s.type ?? metadata.type ?? "", inputs: s.inputs ?? {}, outputs: s.outputs ?? {} }
        : undefined;
    steps.push({
      op: metadata.op,
      urn: metadata.urn,
      ...(metadata.provider ? { provider: metadata.provider } : {}),
      oldState: state(metadata.old),
      newState: state(metadata.new),
    });
  }
  return PreviewDigestSchema.parse({ steps, diagnostics });
}
