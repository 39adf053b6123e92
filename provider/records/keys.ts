/**
 * Stable keys for records, so that `pulumi preview --diff` can show one entry per changed record
 * instead of one opaque change of the whole list.
 *
 * A record's key is `name/type` when it is the only record of that name and type in its list, so
 * changing its content (or priority) shows as ONE changed entry. When several records share a name
 * and type (three `www/A` records, two `@/MX`), each key also holds its content, which is what
 * tells them apart: `www/A/192.0.2.1`, `@/MX/mx1.example.net`; so changing the priority, weight or
 * port of one of two MX or SRV records still shows as one changed entry. Only when several records
 * of a name and type also share their content do the numbers join the key (`@/MX/10 mx.example.net`).
 * Those keys do not move when an unrelated record of the same name and type is added or removed
 * (no positional numbering), but changing the content of such a record changes its key, so it
 * shows as one removed and one added entry. Likewise, the
 * first record's key changes from `www/A` to `www/A/<content>` when a second `www/A` record joins.
 * Both are accepted costs: the diff stays honest and the keys stay stable for untouched records.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { canonicalOrder, numberFieldsOf, type RecordSpec } from "./rules";

/**
 * The coarse key of a record: `name/type`.
 *
 * @example
 * recordKey({ name: "www", type: "A", content: "192.0.2.1" }); // "www/A"
 */
export function recordKey(r: RecordSpec): string {
  return `${r.name}/${r.type}`;
}

/** What tells a record apart from others of its name and type: its numbers, then its content. */
function contentToken(r: RecordSpec): string {
  const numbers = numberFieldsOf(r.type)
    .map((field) => r[field])
    .filter((value) => value !== undefined);
  return [...numbers, r.content].join(" ");
}

/**
 * Gives each record a key unique within `records`: `name/type` when no other record has that name
 * and type, else `name/type/<content>`, else `name/type/<numbers and content>`. Exact duplicates (possible only among state
 * records, with different ids) get `#2`, `#3`... in canonical order, which then sorts by id.
 *
 * @example
 * keyRecords([
 *   { name: "www", type: "CNAME", content: "{domainname}." },
 *   { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
 *   { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
 * ]);
 * // { "@/MX/mx1.example.net": ..., "@/MX/mx2.example.net": ..., "www/CNAME": ... }
 */
export function keyRecords<T extends RecordSpec>(records: readonly T[]): Record<string, T> {
  const ordered = canonicalOrder(records);
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const groupSizes = new Map<string, number>();
  const contentSizes = new Map<string, number>();
  for (const r of ordered) {
    count(groupSizes, recordKey(r));
    count(contentSizes, `${recordKey(r)}/${r.content}`);
  }
  const keyed: Record<string, T> = {};
  const used = new Set<string>();
  for (const r of ordered) {
    const coarse = recordKey(r);
    const withContent = `${coarse}/${r.content}`;
    const base =
      (groupSizes.get(coarse) ?? 0) === 1
        ? coarse
        : (contentSizes.get(withContent) ?? 0) === 1
          ? withContent
          : `${coarse}/${contentToken(r)}`;
    let key = base;
    // Bounded: each pass finds a distinct suffix, and there are only records.length keys in use.
    for (let n = 2; used.has(key); n++) key = `${base}#${n}`;
    used.add(key);
    keyed[key] = r;
  }
  return keyed;
}

/**
 * The records of a keyed map, in canonical order: the inverse of {@link keyRecords}.
 *
 * @example
 * unkeyRecords(keyRecords(records)); // canonicalOrder(records)
 */
export function unkeyRecords<T extends RecordSpec>(keyed: Readonly<Record<string, T>>): T[] {
  return canonicalOrder(Object.values(keyed));
}
