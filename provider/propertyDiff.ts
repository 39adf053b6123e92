/**
 * The detailed diff of the plugin's `Diff` answer: which input properties change, down to the
 * record (`records["www/A"].content`), so that `pulumi preview --diff` and the engine show exactly
 * what the planner changes. Records are keyed in the checked inputs (records/state.ts), so one
 * record's change is one entry. Pure.
 */
import { isDeepStrictEqual } from "node:util";

/** How a property changes, as the engine's `PropertyDiff.Kind` names it. */
export type PropertyDiffKind = "add" | "delete" | "update";

/** One changed property path and how it changes; `replace` when the change replaces the resource. */
export interface PropertyChange {
  path: string;
  kind: PropertyDiffKind;
  replace: boolean;
}

type Props = Record<string, unknown>;

const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

function keyPath(parent: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The changes from the old inputs to the new ones, property by property; objects are compared key
 * by key, one level below the top (a record), arrays and scalars as wholes.
 *
 * @param replaces the top-level properties whose change replaces the resource
 * @example
 * detailedDiff({ records: { "www/A": { content: "1" } } }, { records: { "www/A": { content: "2" } } }, []);
 * // [{ path: 'records["www/A"]', kind: "update", replace: false }]
 */
export function detailedDiff(olds: Props, news: Props, replaces: readonly string[]): PropertyChange[] {
  const changes: PropertyChange[] = [];
  for (const key of new Set([...Object.keys(olds), ...Object.keys(news)])) {
    const [a, b] = [olds[key], news[key]];
    if (isDeepStrictEqual(a, b)) continue;
    const replace = replaces.includes(key);
    if (a === undefined) changes.push({ path: key, kind: "add", replace });
    else if (b === undefined) changes.push({ path: key, kind: "delete", replace });
    else if (isObject(a) && isObject(b)) {
      for (const inner of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (isDeepStrictEqual(a[inner], b[inner])) continue;
        const kind = a[inner] === undefined ? "add" : b[inner] === undefined ? "delete" : "update";
        changes.push({ path: keyPath(key, inner), kind, replace });
      }
    } else changes.push({ path: key, kind: "update", replace });
  }
  return changes;
}

/**
 * The engine's name of a change's kind (`PropertyDiff.Kind`), for the plugin's detailed diff.
 *
 * @example
 * engineKind({ path: "templateId", kind: "update", replace: true }); // "UPDATE_REPLACE"
 */
export function engineKind(change: PropertyChange): `${"ADD" | "DELETE" | "UPDATE"}${"" | "_REPLACE"}` {
  return `${change.kind.toUpperCase() as "ADD" | "DELETE" | "UPDATE"}${change.replace ? "_REPLACE" : ""}`;
}

/** The top-level properties of the changes (`records["www/A"]` -> `records`), each once. */
export function changedProperties(changes: readonly PropertyChange[]): string[] {
  // split always gives a first piece: the whole path when it holds no "." or "[".
  return [...new Set(changes.map((c) => c.path.split(/[.[]/)[0]!))];
}
