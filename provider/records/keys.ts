/**
 * Preview keys: the names records are stored under in the state (`{"www/CNAME": {...}}`), chosen
 * to read well in `pulumi preview --diff`. A record keeps its key for as long as it lives: the
 * planner (`planCheck`) gives a record it keeps or updates in place the key of the previous record,
 * so every correction of a plan is exactly one entry of the preview (an update one `~`, a create one
 * `+`, a delete one `-`); these functions name the records that are new.
 *
 * Pure: no HTTP, no Pulumi.
 */
import { canonicalOrder, numberFieldsOf, type RecordSpec } from "../dns/model";

/** `name/type`, then with the content, then with the numbers too (the second again for a record without numbers). */
function candidateKeys(r: RecordSpec): [byName: string, byContent: string, byNumbers: string] {
  const coarse = `${r.name}/${r.type}`;
  const numbers = numberFieldsOf(r.type)
    .map((field) => r[field])
    .filter((value) => value !== undefined);
  return [coarse, `${coarse}/${r.content}`, `${coarse}/${[...numbers, r.content].join(" ")}`];
}

/**
 * The most readable key not in `used` for a record new to a resource, which it then adds to `used`:
 * `name/type` only when `alone` (no other declared record has that name and type), else
 * `name/type/<content>`, else with its numbers too, else a `#2`, `#3` suffix. A key once used by a
 * previous record is never given to a new one, so a new record cannot be mistaken for a deleted one.
 *
 * @example
 * freshKey({ name: "www", type: "A", content: "192.0.2.2" }, new Set(["www/A"]), false); // "www/A/192.0.2.2"
 */
export function freshKey(r: RecordSpec, used: Set<string>, alone: boolean): string {
  const candidates = candidateKeys(r).slice(alone ? 0 : 1);
  let key = candidates.find((k) => !used.has(k));
  const base = candidates[candidates.length - 1]!;
  for (let n = 2; key === undefined; n++) if (!used.has(`${base}#${n}`)) key = `${base}#${n}`;
  used.add(key);
  return key;
}

/**
 * Gives each record of a first declaration a key unique within `records`: `name/type` when no
 * other record has that name and type, else `name/type/<content>`, else with its numbers too;
 * exact duplicates (possible only among held records, with different ids) get `#2`, `#3`...
 *
 * @example
 * keyRecords([{ name: "@", type: "MX", content: "mx1.example.net", priority: 10 }, { name: "www", type: "CNAME", content: "{domainname}." }]);
 * // { "@/MX": ..., "www/CNAME": ... }
 */
export function keyRecords<T extends RecordSpec>(records: readonly T[]): Record<string, T> {
  const ordered = canonicalOrder(records);
  const coarse = Map.groupBy(ordered, (r) => `${r.name}/${r.type}`);
  const withContent = Map.groupBy(ordered, (r) => `${r.name}/${r.type}/${r.content}`);
  const keyed: Record<string, T> = {};
  const used = new Set<string>();
  for (const r of ordered) {
    const [byName, byContent, byNumbers] = candidateKeys(r);
    const base =
      coarse.get(byName)!.length === 1
        ? byName
        : withContent.get(byContent)!.length === 1
          ? byContent
          : byNumbers;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}#${n}`;
    used.add(key);
    keyed[key] = r;
  }
  return keyed;
}
