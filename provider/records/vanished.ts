/**
 * Finding vanished records (DECISIONS.md, "Records changed outside Pulumi"): there is no GET for
 * records, and the API validates a PATCH as a whole, so a 404 to a request that names several
 * record ids says only that at least one of them is gone. The search asks the API with smaller
 * PATCHes of the same items (probes) until it knows which.
 *
 * Pure: a generator that yields the corrections of the next probe and is resumed with the answer.
 * This module knows neither HTTP nor Pulumi.
 */
import type { Correction, NamingCorrection } from "./corrections";

/** What a search found. */
export interface VanishedSearch {
  /** Corrections whose record id the API no longer knows. */
  vanished: NamingCorrection[];
  /**
   * With purge: the search stopped because a record to keep is gone, so the template is rewritten
   * with one PUT whatever else vanished; `vanished` then names only what was found before.
   */
  rewrite: boolean;
}

/** A group of corrections still to search, and whether it is known to hold a vanished record. */
interface Task {
  group: NamingCorrection[];
  refused: boolean;
}

/** A probe: the caller sends a PATCH of these corrections and resumes with `true` when accepted. */
type Probe = Generator<NamingCorrection[], void, boolean>;

/**
 * Searches `group`, known to hold at least one vanished record. Groups are halved (a refused group
 * whose first half is accepted needs no question about its second half), so `k` vanished among `n`
 * cost about `2k log2(n/k)` probes. A probe that is refused resolves nothing, so halving is
 * allowed only while asking every unresolved record on its own would still keep the whole search
 * within `n + log2(n)` probes: a wiped template is then asked record by record, about `n`
 * probes, never the `2n` of halving all the way down.
 */
function* searchRefused(group: NamingCorrection[], found: NamingCorrection[]): Probe {
  const budget = group.length + Math.ceil(Math.log2(Math.max(group.length, 2)));
  const tasks: Task[] = [{ group, refused: true }];
  let asked = 0;
  let unresolved = group.length;
  const ask = function* (probe: NamingCorrection[]): Generator<NamingCorrection[], boolean, boolean> {
    asked++;
    const accepted = yield probe;
    if (accepted) unresolved -= probe.length;
    return accepted;
  };
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    const { group: items, refused } = task;
    if (refused && items.length === 1) {
      found.push(items[0]!);
      unresolved--;
      continue;
    }
    if (asked + 1 + unresolved > budget) {
      // One by one from here; the last record of a refused group needs no question when the
      // others were all accepted.
      for (const [i, c] of items.entries()) {
        const last = i === items.length - 1;
        if (refused && last && !found.some((f) => items.includes(f))) {
          found.push(c);
          unresolved--;
        } else if (!(yield* ask([c]))) {
          found.push(c);
          unresolved--;
        }
      }
      continue;
    }
    if (!refused) {
      if (!(yield* ask(items))) tasks.push({ group: items, refused: true });
      continue;
    }
    const middle = Math.ceil(items.length / 2);
    const [first, second] = [items.slice(0, middle), items.slice(middle)];
    if (yield* ask(first)) tasks.push({ group: second, refused: true });
    else tasks.push({ group: second, refused: false }, { group: first, refused: true });
  }
}

/**
 * Plans the probes that find which corrections of a request answered 404 name a record that no
 * longer exists. Each `yield` is the corrections of the next probe (a PATCH of just those); the
 * caller resumes with `true` when the probe was accepted (its items are then applied), `false` when
 * it was answered 404. Every correction not found vanished ends up in exactly one accepted probe.
 *
 * With `purge`, a vanished record that is to stay (an update or a verification), or an add that
 * rode with the refused request, means one PUT of the whole declared set: the search then stops as soon as that is certain, because the PUT fixes
 * the template and finding more would only name what vanished. So it first asks about the records
 * to keep as one group (or knows without asking, when the request deleted nothing), and searches
 * the deletions only when every record to keep exists: a vanished deletion is done.
 *
 * @param refused the corrections of the refused request that name a record id
 * @example
 * const search = searchVanished(refused, { purge: false });
 * for (let step = search.next(); !step.done; ) step = search.next(await accepted(requestOf(step.value)));
 */
export function* searchVanished(
  refused: readonly Correction[],
  options: { purge: boolean },
): Generator<NamingCorrection[], VanishedSearch, boolean> {
  // A URL forward's delete names several ids: each is asked about on its own (an id already gone is done).
  const naming = refused.flatMap((c): NamingCorrection[] =>
    c.kind === "create" ? [] : c.kind === "delete" ? c.del.map((item) => ({ ...c, del: [item] })) : [c],
  );
  const found: NamingCorrection[] = [];
  if (naming.length === 0) return { vanished: found, rewrite: false };
  if (!options.purge) {
    yield* searchRefused(naming, found);
    return { vanished: found, rewrite: false };
  }
  // An add rode with the refused request: only the PUT surely erases what a partly applied request did.
  if (refused.some((c) => c.kind === "create")) return { vanished: found, rewrite: true };
  const kept = naming.filter((c) => c.kind !== "delete");
  const deletions = naming.filter((c) => c.kind === "delete");
  // With no deletion in the refused request, a record to keep is known to be gone.
  if (kept.length > 0 && (deletions.length === 0 || !(yield kept))) return { vanished: found, rewrite: true };
  if (deletions.length > 0) yield* searchRefused(deletions, found);
  return { vanished: found, rewrite: false };
}
