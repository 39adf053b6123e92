/**
 * The shape DnsTemplateRecords keeps in the Pulumi state, and conversions to and from it.
 *
 * Records are stored keyed (`{"www/CNAME": {...}}`), not as an array: the engine diffs arrays
 * index by index, so one record inserted near the top of a sorted array would show every later
 * record as changed in `pulumi preview --diff`. Keyed, one changed record reads as one change.
 * Record ids sit in a parallel keyed map (`ids`), so the records of the outputs and of the checked
 * inputs have the same shape and an unchanged record shows no difference at all.
 *
 * Pure: no HTTP, no Pulumi.
 */
import { keyRecords, unkeyRecords } from "./keys";
import {
  canonicalOrder,
  DEFAULT_SAFETY_THRESHOLD,
  type RecordSpec,
  type SafetyThreshold,
  type StateRecord,
} from "./rules";

/** What `check()` returns and the engine stores as the resource's inputs. */
export interface CheckedInputs {
  templateId: string;
  records: Record<string, RecordSpec>;
  purge: boolean;
  safetyThreshold: SafetyThreshold | false;
}

/** What the resource's outputs hold (besides the engine's `__provider`). */
export interface RecordsOutputs extends CheckedInputs {
  /** Record id per record key. */
  ids: Record<string, string>;
  /** Readable summary of the last create or update. */
  lastPlan: string;
  /**
   * Set when an add may have reached the API without us learning its id (the connection broke
   * after the request was sent). With `purge`, the next update rewrites the template with one PUT,
   * which removes any such untracked record.
   */
  untrackedAdds?: boolean;
}

/** A resource's state as the provider works with it. */
export interface RecordsState {
  templateId: string;
  purge: boolean;
  safetyThreshold: SafetyThreshold | false;
  records: StateRecord[];
  untrackedAdds: boolean;
}

type Props = Record<string, unknown>;

function isRecordMap(value: unknown): value is Record<string, RecordSpec> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Desired records of checked inputs, in canonical order (an array is accepted too). */
export function desiredRecords(inputs: Props): RecordSpec[] {
  const records = inputs.records;
  if (Array.isArray(records)) return canonicalOrder(records.map((r) => stripId(r as StateRecord)));
  if (isRecordMap(records)) return unkeyRecords(records);
  return [];
}

function stripId(r: StateRecord | RecordSpec): RecordSpec {
  const { recordId: _id, ...spec } = r as StateRecord;
  return spec;
}

/**
 * `purge` and `safetyThreshold` of checked inputs or of outputs, with their defaults: purge unless
 * it is `false`, the default threshold when there is none (a state written before the threshold
 * existed had the default behaviour).
 *
 * @example
 * settingsOf({ purge: false }); // { purge: false, safetyThreshold: DEFAULT_SAFETY_THRESHOLD }
 */
export function settingsOf(props: Props): Pick<CheckedInputs, "purge" | "safetyThreshold"> {
  return {
    purge: props.purge !== false,
    safetyThreshold: (props.safetyThreshold ?? DEFAULT_SAFETY_THRESHOLD) as SafetyThreshold | false,
  };
}

/**
 * Reads a resource's outputs. Besides the keyed shape, it accepts the array shape
 * (`records: [{ ..., recordId }]`) of a state written before records were keyed.
 */
export function readState(outputs: Props): RecordsState {
  const base = {
    templateId: String(outputs.templateId ?? ""),
    ...settingsOf(outputs),
    untrackedAdds: outputs.untrackedAdds === true,
  };
  const records = outputs.records;
  if (Array.isArray(records)) {
    return { ...base, records: canonicalOrder(records as StateRecord[]) };
  }
  const ids = isRecordMap(outputs.ids) ? (outputs.ids as unknown as Record<string, string>) : {};
  const state: StateRecord[] = [];
  if (isRecordMap(records)) {
    for (const [key, record] of Object.entries(records)) {
      const recordId = ids[key];
      if (recordId !== undefined) state.push({ ...record, recordId });
    }
  }
  return { ...base, records: canonicalOrder(state) };
}

/** Builds the outputs for a state. */
export function writeOutputs(
  inputs: CheckedInputs,
  records: StateRecord[],
  lastPlan: string,
  untrackedAdds = false,
): RecordsOutputs {
  const keyed = keyRecords(canonicalOrder(records));
  const outRecords: Record<string, RecordSpec> = {};
  const ids: Record<string, string> = {};
  for (const [key, record] of Object.entries(keyed)) {
    outRecords[key] = stripId(record);
    ids[key] = record.recordId;
  }
  const outputs: RecordsOutputs = {
    templateId: inputs.templateId,
    records: outRecords,
    purge: inputs.purge,
    safetyThreshold: inputs.safetyThreshold,
    ids,
    lastPlan,
  };
  if (untrackedAdds) outputs.untrackedAdds = true;
  return outputs;
}

/** The records of outputs joined with their ids, canonical order: what the resource class exposes. */
export function joinRecordIds(records: unknown, ids: unknown): StateRecord[] {
  return readState({ records, ids }).records;
}
