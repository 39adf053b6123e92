/**
 * Finding vanished records (docs/design.md, "Records changed outside Pulumi"): there is no GET for
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

/** A probe: the caller sends a PATCH of these corrections and resumes with `true` when accepted. */
type Probe = Generator<NamingCorrection[], void, boolean>;

/**
 * Searches `items`, known to hold at least one vanished record, front to back by galloping: probes
 * of 1, 2, 4, ... records while they are accepted (each accepted probe applies its items), and a
 * refused probe is halved down to the first vanished record in it, after which the search goes on
 * from the next record at the same probe size. A refused probe of one record names a vanished one,
 * so a wiped template costs one probe per record (n), and one vanished record among n about
 * 2·log2(n). The last unresolved record of a range known to be refused needs no question. A probe
 * is made smaller whenever its worst case (refused, then halved) could take the search past
 * n + log2(n) probes in all: never more.
 */
function* searchRefused(items: readonly NamingCorrection[], found: NamingCorrection[]): Probe {
  const n = items.length;
  const budget = n + Math.ceil(Math.log2(Math.max(n, 2)));
  let asked = 0;
  let next = 0; // items before `next` are resolved
  let size = 1;
  let restRefused = true; // nothing found yet: the rest holds a vanished record
  const ask = function* (from: number, to: number): Generator<NamingCorrection[], boolean, boolean> {
    asked++;
    return yield items.slice(from, to);
  };
  while (next < n) {
    // The probe may be refused and then halved (1 + log2 of its size questions) while resolving
    // one record: smaller probes while that could exceed the budget (a single record always fits).
    const known = (g: number) => g === n - next && restRefused;
    const cost = (g: number) => (known(g) ? 0 : 1) + Math.ceil(Math.log2(g)) + (n - next - 1);
    let g = Math.min(size, n - next);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a probe of one record always fits the budget (asked + cost(1) never exceeds it), so `g > 1` only ends a loop that never runs at g = 1
    while (g > 1 && asked + cost(g) > budget) g = Math.ceil(g / 2);
    size = g;
    const end = next + g;
    // The whole rest, when it is known refused, needs no question.
    if (!known(g) && (yield* ask(next, end))) {
      next = end;
      size *= 2;
      continue;
    }
    // [next, hi) holds a vanished record: halve it down to the first one.
    let hi = end;
    while (hi - next > 1) {
      const middle = next + Math.ceil((hi - next) / 2);
      if (yield* ask(next, middle)) next = middle;
      else hi = middle;
    }
    found.push(items[next]!);
    next++;
    restRefused = false;
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
  yield* searchRefused(deletions, found);
  return { vanished: found, rewrite: false };
}
