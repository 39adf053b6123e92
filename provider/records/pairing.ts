/**
 * How the records a resource holds correspond to the records the program declares: which stay,
 * which change in place (keeping their ids), which go and which come. The pairing decides which id
 * a record keeps, so it must tell the story the reviewer expects: a record whose values are
 * unchanged keeps its id, and a pure rename keeps its id.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import {
  canonicalOrder,
  compareRecords,
  numberFieldsOf,
  type RecordSpec,
  type StateRecord,
} from "../dns/model";

/** How held and declared records correspond. */
export interface Pairing<H extends StateRecord, D extends RecordSpec> {
  /** Held records whose values are exactly declared: they stay, with their ids. */
  unchanged: Array<{ from: H; to: D }>;
  /** Held records changed in place into a declared one (content, numbers or name): ids kept. */
  updates: Array<{ from: H; to: D }>;
  dels: H[];
  adds: D[];
}

/** The records of both sides that no class has paired yet, in canonical order. */
interface Unpaired<H, D> {
  held: H[];
  desired: D[];
}

/**
 * Pairs the records of the same values. Both sides are in canonical order, where records of the
 * same values are adjacent and in the same order, so one merge pairs the i-th held record of a
 * value with the i-th declared one, in linear time and without a key per record: most records of
 * a large template are unchanged, and this is where they go.
 */
function pairUnchanged<H extends StateRecord, D extends RecordSpec>(
  held: readonly H[],
  desired: readonly D[],
  onPair: (from: H, to: D) => void,
): Unpaired<H, D> {
  const rest: Unpaired<H, D> = { held: [], desired: [] };
  let i = 0;
  let j = 0;
  while (i < held.length && j < desired.length) {
    const order = compareRecords(held[i]!, desired[j]!);
    if (order === 0) onPair(held[i++]!, desired[j++]!);
    // Stryker disable next-line EqualityOperator: order is not 0 here, the branch above took it
    else if (order < 0) rest.held.push(held[i++]!);
    else rest.desired.push(desired[j++]!);
  }
  for (; i < held.length; i++) rest.held.push(held[i]!);
  for (; j < desired.length; j++) rest.desired.push(desired[j]!);
  return rest;
}

/**
 * Pairs the unpaired records that share a key, in canonical order: the i-th unpaired held record
 * of a key with the i-th unpaired declared one. Records that `later` marks go after the others of
 * their key (a stable sort keeps canonical order). Returns what is still unpaired.
 */
function pairBy<H extends StateRecord, D extends RecordSpec>(
  unpaired: Unpaired<H, D>,
  keyOf: (r: RecordSpec) => string,
  onPair: (from: H, to: D) => void,
  // Stryker disable next-line BooleanLiteral: any constant moves no record: every comparison of the stable sort is 0
  later: (r: RecordSpec, side: "held" | "desired") => boolean = () => false,
): Unpaired<H, D> {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut; with either side empty no key pairs anything
  if (unpaired.held.length === 0 || unpaired.desired.length === 0) return unpaired;
  const last = <T extends RecordSpec>(rs: T[], side: "held" | "desired") =>
    rs.sort((a, b) => Number(later(a, side)) - Number(later(b, side)));
  const paired = new Set<H | D>();
  const wanted = Map.groupBy(unpaired.desired, keyOf);
  for (const [key, group] of Map.groupBy(unpaired.held, keyOf)) {
    const from = last(group, "held");
    const to = last(wanted.get(key) ?? [], "desired");
    for (let i = 0; i < Math.min(from.length, to.length); i++) {
      onPair(from[i]!, to[i]!);
      paired.add(from[i]!).add(to[i]!);
    }
  }
  return {
    held: unpaired.held.filter((r) => !paired.has(r)),
    desired: unpaired.desired.filter((r) => !paired.has(r)),
  };
}

/**
 * Pairs held with declared records, in this order (docs/design.md, "Previews and plans"):
 * 1. the same values: the record stays, with its id;
 * 2. the same type and name: its content (or numbers) changed in place;
 * 3. the same type and content: renamed in place, its id kept;
 * 4. the same type: changed in place, name and content.
 * Within 2 and 3 the closest partner comes first (the same numbers, then the same content or
 * numbers), so that a record whose content alone changed is not paired with its sibling.
 * Ties go in canonical order. What is left is deleted (held) or added (declared); a type change
 * is a delete plus an add, because `type` is not a field of an update. Deterministic: the same
 * sets in any order give the same pairing. Also what keeps a record's preview key (`planCheck` in `plan.ts`).
 *
 * @example
 * pairRecords(held, declared).updates; // [{ from: <www A 192.0.2.1>, to: <www A 192.0.2.2> }]
 */
export function pairRecords<H extends StateRecord, D extends RecordSpec>(
  held: readonly H[],
  desired: readonly D[],
): Pairing<H, D> {
  const unchanged: Array<{ from: H; to: D }> = [];
  const updates: Array<{ from: H; to: D }> = [];
  let rest = pairUnchanged(canonicalOrder(held), canonicalOrder(desired), (from, to) =>
    unchanged.push({ from, to }),
  );
  const update = (from: H, to: D) => updates.push({ from, to });
  // Keys that cannot collide: the type has no space, a JSON string ends where its quote does, and
  // numbers are integers. Built by hand: the leftovers of a large template are many.
  const quoted = JSON.stringify;
  const numbers = (r: RecordSpec) => {
    // Stryker disable next-line StringLiteral: the same text at the start of every record's numbers, so keys still match exactly when the values do
    let text = "";
    for (const field of numberFieldsOf(r.type)) {
      // Stryker disable next-line StringLiteral: the type fixes how many numbers follow, each at least a digit, so an absent one written as nothing between its spaces is as unambiguous as a "-"
      const value = r[field] ?? "-";
      text += ` ${value}`;
    }
    return text;
  };
  // A record that is renamed elsewhere (the other side holds its exact values at another name)
  // goes last among the records of its name, so that its sibling gets the content change.
  const renameKey = (r: RecordSpec) => `${r.type} ${quoted(r.content)}${numbers(r)}`;
  const renames = {
    held: new Set(rest.desired.map(renameKey)),
    desired: new Set(rest.held.map(renameKey)),
  };
  const renamedElsewhere = (r: RecordSpec, side: "held" | "desired") => renames[side].has(renameKey(r));
  // Within each class, the closest partner first, so that the story tells one change where there was one.
  for (const keyOf of [
    (r: RecordSpec) => `${r.type} ${quoted(r.name)}${numbers(r)}`,
    (r: RecordSpec) => `${r.type} ${quoted(r.name)} ${quoted(r.content)}`,
    (r: RecordSpec) => `${r.type} ${quoted(r.name)}`,
  ]) {
    rest = pairBy(rest, keyOf, update, renamedElsewhere);
  }
  for (const keyOf of [
    renameKey,
    (r: RecordSpec) => `${r.type} ${quoted(r.content)}`,
    (r: RecordSpec) => r.type,
  ]) {
    rest = pairBy(rest, keyOf, update);
  }
  return {
    unchanged,
    // In canonical order of the held records. Copies held under several ids are already in id
    // order (each class pairs a key's records in canonical order, which orders copies by id, and
    // the lower id first), and the sort is stable: no tie-break by id is needed.
    updates: updates.sort((a, b) => compareRecords(a.from, b.from)),
    dels: rest.held,
    adds: rest.desired,
  };
}
