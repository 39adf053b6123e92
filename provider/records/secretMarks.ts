/**
 * Which fields of DnsTemplateRecords' records are secret, as the plugin tells the engine: the
 * records' own shape (keyed or listed, field by field) is this resource's knowledge, so the plugin
 * hands its properties here rather than knowing records itself.
 */
import { isSecret, type Props, plain, secret } from "../host/secretValues";

/**
 * Marks as secret every top-level property whose value shows any of `secretTexts` (a summary
 * quoting a record's content), in any letter case. Records are marked field by field, so that the
 * next call still knows which field was secret (and the announcements mask that one only): a field
 * that shows a secret text, and every field the properties' `secretRecords` names (the core's
 * account of which fields are secret, which holds also where the stored value is written
 * otherwise than the secret arrived, such as a lower-cased host name).
 *
 * @example
 * markSecrets({ records: { a: { name: "a", content: "k" } }, ids: {} }, ["k"]); // { records: { a: { name: "a", content: secret("k") } }, ids: {} }
 */
export function markSecrets(props: Props, secretTexts: readonly string[]): Props {
  const named = new Set(
    (Array.isArray(props.secretRecords) ? props.secretRecords : []).map((m: unknown) => String(m)),
  );
  if (secretTexts.length === 0 && named.size === 0) return props;
  const lowered = secretTexts.map((s) => s.toLowerCase());
  const shows = (value: unknown): boolean => {
    const text = (JSON.stringify(value) ?? "").toLowerCase();
    return lowered.some((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)));
  };
  const mark = (value: unknown, named = false): unknown =>
    (named || shows(value)) && !isSecret(value) ? secret(value) : value;
  const record = (ref: string, r: unknown): unknown => {
    if (typeof r !== "object" || r === null || Array.isArray(r) || isSecret(r))
      return mark(r, named.has(ref));
    return Object.fromEntries(
      Object.entries(r).map(([field, v]) => [field, mark(v, named.has(ref) || named.has(`${ref}:${field}`))]),
    );
  };
  const out: Props = {};
  for (const [key, value] of Object.entries(props)) {
    if (key === "records" && Array.isArray(value)) out[key] = value.map((r, i) => record(String(i), r));
    else if (key === "records" && typeof value === "object" && value !== null && !isSecret(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, r]) => [k, record(k, r)]));
    else out[key] = mark(value);
  }
  return out;
}

/** Whether `value` holds a secret wrapper anywhere inside. */
function holdsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(holdsSecret);
}

/**
 * The records of a resource's properties that arrived secret, as the `secretRecords` input reads
 * them: `i:field` or `key:field` for a secret field, the index or key for a record secret as a
 * whole, every record when the whole list is. Merged with the `secretRecords` the properties
 * already name, so that the core reads one input, whichever host gave it.
 *
 * @example
 * secretRecordMarks({ records: [{ content: "a" }, { content: secret("k") }] }); // ["1:content"]
 */
export function secretRecordMarks(props: Props): (number | string)[] {
  const whole = isSecret(props.records);
  const records = whole ? (props.records as { value: unknown }).value : props.records;
  const stored = plain({ marks: props.secretRecords }).value.marks;
  const marks: (number | string)[] = Array.isArray(stored)
    ? stored.filter((m): m is number | string => typeof m === "number" || typeof m === "string")
    : [];
  const add = (mark: number | string) => {
    if (!marks.includes(mark)) marks.push(mark);
  };
  const visit = (ref: number | string, record: unknown): void => {
    if (whole || isSecret(record)) add(ref);
    else if (typeof record === "object" && record !== null)
      for (const [field, value] of Object.entries(record)) if (holdsSecret(value)) add(`${ref}:${field}`);
  };
  if (Array.isArray(records)) for (const [i, r] of records.entries()) visit(i, r);
  else if (typeof records === "object" && records !== null)
    for (const [key, r] of Object.entries(records)) visit(key, r);
  return marks;
}
