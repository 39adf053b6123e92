/**
 * THE planner. One pure function, {@link planResource}, decides everything about what a
 * DnsTemplateRecords resource sends: from what the resource holds and what the program declares,
 * the whole plan, its mode (nothing, PATCH corrections, or a PUT rewrite), the declared records set
 * aside, its corrections (each with its message and its part of a request), its summary and what a
 * refusal leads to ({@link RefusalPolicy}: a removal and a verification are plans too). The preview
 * (`diff`), `create`, `update`, `delete`, `read` ({@link planRefresh}), `check` ({@link planCheck}:
 * preview keys and the summary the safety check reads) and `domainapi-plan` all call it, as
 * octoDNS's `Plan` and dnscontrol's `ByResults` are the one source of their tools' changes; recovery
 * after a 404 is a new plan of the same function ({@link planRecovery}), which the run loop
 * (`run.ts`) asks for.
 *
 * Records without changes keep their ids. The service's PATCH does not say in which order it
 * returns the ids of added records, so each request carries at most ONE add (docs/design.md, "Record
 * ids"). The first request of an update also verifies every held record it leaves unchanged
 * (docs/design.md, "Verified updates"). Without `purge`, a request that can be answered 404 carries no
 * add, so that an API that applies part of a refused request can never make us add a record twice.
 *
 * Deterministic and linear apart from sorting (Maps, never nested scans). Knows neither HTTP nor Pulumi.
 */

import { canonicalOrder, describeRecord, RECORD_MODEL, type RecordSpec } from "../dns/model";
import {
  createCorrection,
  deleteCorrection,
  type HeldRecord,
  type KeyedRecord,
  type PlannedRequest,
  putOf,
  requestOf,
  type ShownCorrection,
  updateCorrection,
  verifyCorrection,
} from "./corrections";
import { freshKey, keyRecords } from "./keys";
import { type Pairing, pairRecords } from "./pairing";
import type { SafetyThreshold } from "./safety";
import type { VanishedSearch } from "./vanished";

/** The settings of a resource, with their defaults applied. */
export type Settings = {
  templateId: string;
  purge: boolean;
  safetyThreshold: SafetyThreshold | false;
};

/** What a resource holds, from its stored outputs. */
export interface Holding {
  settings: Settings;
  /** The records the template holds for the resource, with their ids, in canonical order. */
  held: HeldRecord[];
  /** Adds of unknown outcome, as they read in messages (`www A 192.0.2.1`). */
  untracked: string[];
  /**
   * The template may hold records the resource never saw (it was imported, and the API cannot
   * list a template's records): with purge, the first plan that declares records rewrites it.
   */
  unlisted?: boolean;
}

/** What the program declares, from its checked inputs. */
export interface Declaration {
  settings: Settings;
  /** The declared records, normalized and keyed, in canonical order. */
  declared: KeyedRecord[];
}

/**
 * How a plan changes the template: `none` sends nothing; `patch` sends PATCH corrections; `rewrite`
 * sends one PUT of every declared record (every id new).
 */
export type PlanMode = "none" | "patch" | "rewrite";

/** Why a plan rewrites the template with one PUT. */
export type RewriteReason =
  /** a create with purge: the resource owns the template, and the PUT sets it whole */
  | "create"
  /** an earlier add of unknown outcome: only a rewrite surely leaves the template as declared */
  | "unknown-add"
  /** a record to keep was removed outside Pulumi (a recovery after a 404) */
  | "vanished"
  /** an earlier request's outcome is unknown: the run that sent it was interrupted (the journal) */
  | "interrupted"
  /** asked for, for one run (`DOMAINAPI_REWRITE`): the journal of an interrupted run is gone */
  | "requested"
  /** the first records declared for an imported template, whose records the API cannot list */
  | "imported";

/**
 * What the journal (host/journal.ts) or the user says of an earlier operation on the resource that
 * never reached the engine: one more fact the plan starts from. The run loop reads it; the plan
 * decides what it means.
 */
export interface Interruption {
  /** Where the fact comes from: an entry of the journal, or `DOMAINAPI_REWRITE` for one run. */
  source: "journal" | "requested";
  /** The interrupted request as people read it (`a PATCH adding www A 192.0.2.1`). */
  request: string;
  /**
   * The records the interrupted run had proven held when it stopped, when they are newer than the
   * state's (the engine never received them); else the state's stand.
   */
  held?: HeldRecord[];
  /** Adds whose outcome is unknown: the request in flight may have made them. */
  unknownAdds: string[];
  /**
   * The request in flight named held records (a delete or an update) or cannot be told: without
   * purge, the held records are then verified before anything else is believed of them.
   */
  namedHeld?: boolean;
}

/** How many records a plan creates, updates, deletes and leaves alone, and how many requests it sends. */
export interface PlanSummary {
  creates: number;
  updates: number;
  deletes: number;
  unchanged: number;
  requests: number;
}

export type { Correction, HeldRecord, KeyedRecord, PlannedRequest, ShownCorrection } from "./corrections";

/**
 * What the run loop does when a request of the plan is refused with 404: verify and remove are
 * plans like any other, told apart by this policy, not loops of their own.
 */
export interface RefusalPolicy {
  /**
   * Once the search found which named records vanished: `recover` plans anew from what exists
   * towards the declaration (create, update); `drop` lets them go and sends the plan's next
   * request (a removal: a record already gone is done; a verification: it leaves the state).
   */
  vanished: "recover" | "drop";
  /** The template itself gone: the run `fail`s, or is `done` (a removal: nothing is left to remove). */
  templateGone: "fail" | "done";
}

/** The policy of plans that bring a template to what is declared. */
const RECOVER: Readonly<RefusalPolicy> = Object.freeze({ vanished: "recover", templateGone: "fail" });

/** The policy of a removal: a record already gone is done, and so is a template gone. */
const REMOVE: Readonly<RefusalPolicy> = Object.freeze({ vanished: "drop", templateGone: "done" });

/** The policy of a verification: records found gone leave the state; a template gone fails it. */
const VERIFY: Readonly<RefusalPolicy> = Object.freeze({ vanished: "drop", templateGone: "fail" });

/** What one resource sends, for people and for the API. */
export interface Plan {
  templateId: string;
  mode: PlanMode;
  /** What a 404 to one of its requests leads to. */
  onRefusal: RefusalPolicy;
  /** Set exactly when `mode` is `rewrite`. */
  rewrite?: RewriteReason;
  /** Every change for people: deletes, then modifications, then creates, each in canonical order. */
  corrections: ShownCorrection[];
  /** The requests, in the order they must be sent. */
  requests: PlannedRequest[];
  summary: PlanSummary;
  /** The summary as people read it (`1 to create, ... (2 requests)`, or what a PUT does). */
  text: string;
  /**
   * Declared records not planned (no purge): their earlier add is of unknown outcome, so they may
   * exist, and adding them again could make a duplicate. As they read in messages.
   */
  setAside: string[];
  /** Adds of unknown outcome that are no longer declared: no longer tracked (a last warning). */
  forgotten: string[];
  /** The adds of unknown outcome the resource still tracks once the plan is carried out. */
  untracked: string[];
  /** Set when the plan recovers from an interrupted run: the interrupted request, as people read it. */
  interrupted?: string;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/**
 * One line for people, e.g. `2 to create, 1 to update, 1 to delete, 7 unchanged (3 requests)`.
 *
 * @example
 * formatSummary({ creates: 0, updates: 1, deletes: 0, unchanged: 4, requests: 1 });
 * // "0 to create, 1 to update, 0 to delete, 4 unchanged (1 request)"
 */
export function formatSummary(s: PlanSummary): string {
  return `${s.creates} to create, ${s.updates} to update, ${s.deletes} to delete, ${s.unchanged} unchanged (${plural(s.requests, "request")})`;
}

function rewriteText(reason: RewriteReason, creates: number, deletes: number, forwards: number): string {
  // A URL forward is never in a PUT (its answer may name more ids than records): each follows alone.
  const then = forwards > 0 ? `, then ${plural(forwards, "PATCH", "PATCHes")} adding each URL forward` : "";
  const requests = plural(1 + forwards, "request");
  switch (reason) {
    case "create":
      return `${creates} to create (${requests}: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown${then})`;
    case "unknown-add":
      return `${creates} to create, ${deletes} to delete (${requests}: a PUT of every record after an earlier add of unknown outcome${then}; every id is new)`;
    case "vanished":
      return `all ${creates} records rewritten with one PUT${then} to restore what was removed outside Pulumi (every record id is new)`;
    case "interrupted":
      return `all ${creates} records rewritten with one PUT${then} after an interrupted run whose last request's outcome is unknown (every record id is new: the PUT replaces whatever that request left)`;
    case "requested":
      return `all ${creates} records rewritten with one PUT${then}, as DOMAINAPI_REWRITE asks (every record id is new: the PUT replaces whatever the template held)`;
    case "imported":
      return `${creates} to create (${requests}: a PUT, which replaces whatever records the template held when it was imported: the API cannot list them${then})`;
  }
}

/** Whether the template answered this URL forward's add with several ids, of which it owns all. */
function owningMade(r: HeldRecord): boolean {
  return (r.madeIds?.length ?? 0) > 0;
}

/** Options of {@link planUpdate}. */
interface PatchOptions {
  /**
   * The resource owns the template. Then the first request may carry an add beside the records it
   * names, because a 404 is followed by one PUT that erases whatever a partly applied request did.
   */
  purge: boolean;
  /** Re-state every unchanged held record in the first request (off only for a recovery, which just proved them). */
  verify: boolean;
  /**
   * Verify the held records even when nothing changes: after an interrupted run, whose deletes
   * may have applied, only a verification (and the recovery its 404 leads to) makes the state true.
   */
  verifyAlways?: boolean;
}

/**
 * The PATCH plan that turns the held records into the declared ones: exact matches stay and keep
 * their ids; paired records are updated in place (`pairing.ts`); what is left is deleted or added.
 * When anything changes, the first request carries every `del` and `update` and verifies every
 * unchanged record; each add goes in a request of its own, except that with `purge` the first add
 * rides with the first request.
 */
function planPatch(
  templateId: string,
  p: Pairing<HeldRecord, KeyedRecord>,
  options: PatchOptions,
): Omit<Plan, "setAside" | "forgotten" | "untracked" | "onRefusal"> {
  // A URL forward that owns the records made for it is not updated in place (which id is its own
  // is not known): it is deleted with all of them and added anew. Nor is it re-stated.
  const replaced = p.updates.filter(({ from }) => owningMade(from));
  const updates = p.updates.filter(({ from }) => !owningMade(from));
  const dels = canonicalOrder([...p.dels, ...replaced.map(({ from }) => from)]);
  const adds = canonicalOrder([...p.adds, ...replaced.map(({ to }) => to)]);
  const unchanged = p.unchanged.filter(({ from }) => !owningMade(from));
  const corrections = [
    ...dels.map(deleteCorrection),
    ...updates.map(({ from, to }) => updateCorrection(from, to)),
    ...adds.map(createCorrection),
  ];
  const requests: PlannedRequest[] = [];
  // Verifying always, with no record unchanged, leaves `first` empty: no request.
  if (corrections.length > 0 || options.verifyAlways === true) {
    const named = [
      ...corrections.filter((c) => c.kind !== "create"),
      ...(options.verify ? unchanged.map(({ from, to }) => verifyCorrection(from, to)) : []),
    ];
    const creates = corrections.filter((c) => c.kind === "create");
    // Without ids to name, a request can only be refused because the template is gone.
    const firstAdd = options.purge || named.length === 0 ? creates.shift() : undefined;
    const first = firstAdd ? [...named, firstAdd] : named;
    if (first.length > 0) requests.push(requestOf(first));
    for (const create of creates) requests.push(requestOf([create]));
  }
  const summary = {
    creates: adds.length,
    updates: updates.length,
    deletes: dels.length,
    unchanged: p.unchanged.length,
    requests: requests.length,
  };
  return {
    templateId,
    mode: requests.length > 0 ? "patch" : "none",
    corrections,
    requests,
    summary,
    text: formatSummary(summary),
  };
}

function planRewrite(
  templateId: string,
  held: readonly HeldRecord[],
  declared: readonly KeyedRecord[],
  reason: RewriteReason,
): Omit<Plan, "setAside" | "forgotten" | "untracked" | "onRefusal"> {
  // Every held id goes and every declared record comes with a new id: the truth about ids.
  const deletes = reason === "create" ? [] : canonicalOrder(held).map(deleteCorrection);
  const creates = canonicalOrder(declared).map(createCorrection);
  // A PUT's ids are attributed by position, and a URL forward's answer may name more: each forward
  // is added by a PATCH of its own after the PUT of the other records.
  const forwards = creates.filter((c) => c.kind === "create" && RECORD_MODEL[c.record.type].urlForward);
  const others = declared.filter((r) => !RECORD_MODEL[r.type].urlForward);
  const requests = [putOf(others), ...forwards.map((c) => requestOf([c]))];
  const summary = {
    creates: creates.length,
    updates: 0,
    deletes: deletes.length,
    unchanged: 0,
    requests: requests.length,
  };
  return {
    templateId,
    mode: "rewrite",
    rewrite: reason,
    corrections: [...deletes, ...creates],
    requests,
    summary,
    text: rewriteText(reason, creates.length, deletes.length, forwards.length),
  };
}

/**
 * Without purge, a declared record whose add is of unknown outcome is not planned again: it may
 * exist, and adding it again could make a duplicate. It stays tracked for as long as it is
 * declared; once it is not, it is forgotten (with a last warning).
 */
function setAsideUnknownAdds(
  untracked: readonly string[],
  declared: readonly KeyedRecord[],
): { planned: KeyedRecord[]; setAside: string[]; forgotten: string[] } {
  if (untracked.length === 0) return { planned: [...declared], setAside: [], forgotten: [] };
  const unknown = new Set(untracked);
  const planned = declared.filter((r) => !unknown.has(describeRecord(r)));
  const stillDeclared = new Set(declared.map(describeRecord));
  return {
    planned,
    setAside: untracked.filter((u) => stillDeclared.has(u)),
    forgotten: untracked.filter((u) => !stillDeclared.has(u)),
  };
}

/**
 * THE plan of one resource: what `create` (nothing held yet), `update` or `delete` (nothing declared)
 * sends, and what the preview and the pull-request plan show.
 *
 * - Create: with purge, one PUT of every record (the resource owns the template); without, PATCHes.
 * - Update: after an add of unknown outcome, with purge, one PUT of every record; without purge the
 *   declared records whose add is of unknown outcome are set aside; otherwise the minimal verified
 *   PATCH plan.
 * - Delete: one PATCH removing the held records; after an add of unknown outcome, with purge, one PUT
 *   of no records (only emptying the template removes a record whose id was never learned).
 *
 * - After an interrupted run (`interrupted`): see {@link planInterrupted}.
 *
 * @param before what the resource holds (`undefined` for a create)
 * @param after what the program declares (`undefined` for a delete)
 * @param interrupted what the journal says of an operation that never reached the engine
 * @example
 * const plan = planResource(decodeOutputs(olds), decodeInputs(news));
 * plan.corrections.map((c) => c.message); // ["~ MODIFY www A content 192.0.2.1 -> 192.0.2.2"]
 */
export function planResource(
  before: Holding | undefined,
  after: Declaration | undefined,
  interrupted?: Interruption,
): Plan {
  if (interrupted !== undefined) return planInterrupted(before, after, interrupted);
  if (after === undefined) {
    if (before === undefined) throw new RangeError("planResource: a resource neither held nor declared");
    const { settings, held, untracked } = before;
    const removesAll = untracked.length > 0 && settings.purge;
    if (removesAll) {
      const plan = planRewrite(settings.templateId, held, [], "unknown-add");
      const text = `${held.length} to delete (1 request: a PUT of no records, which also removes what an add of unknown outcome may have made)`;
      return { ...plan, onRefusal: REMOVE, text, setAside: [], forgotten: [], untracked: [] };
    }
    const corrections = canonicalOrder(held).map(deleteCorrection);
    const requests = corrections.length > 0 ? [requestOf(corrections)] : [];
    const summary = { creates: 0, updates: 0, deletes: held.length, unchanged: 0, requests: requests.length };
    return {
      templateId: settings.templateId,
      mode: requests.length > 0 ? "patch" : "none",
      onRefusal: REMOVE,
      corrections,
      requests,
      summary,
      text: formatSummary(summary),
      setAside: [],
      // A resource that goes stops tracking its adds of unknown outcome: say so once more.
      forgotten: [...untracked],
      untracked: [],
    };
  }
  const { settings, declared } = after;
  const held = before?.held ?? [];
  const untracked = before?.untracked ?? [];
  // An imported template is left as it is until records are declared (its import declares none).
  const imported = before?.unlisted === true && declared.length > 0;
  if (settings.purge && (before === undefined || untracked.length > 0 || imported)) {
    const plan = planRewrite(
      settings.templateId,
      held,
      declared,
      before === undefined ? "create" : untracked.length > 0 ? "unknown-add" : "imported",
    );
    return { ...plan, onRefusal: RECOVER, setAside: [], forgotten: [], untracked: [] };
  }
  const aside = settings.purge
    ? { planned: declared, setAside: [], forgotten: [] }
    : setAsideUnknownAdds(untracked, declared);
  const plan = planPatch(settings.templateId, pairRecords(held, aside.planned), {
    purge: settings.purge,
    verify: true,
  });
  return {
    ...plan,
    onRefusal: RECOVER,
    setAside: aside.setAside,
    forgotten: aside.forgotten,
    untracked: aside.setAside,
  };
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/**
 * What a resource holds once an interruption is taken into account: what the interrupted run
 * proved (when newer than the state), and its adds of unknown outcome besides the state's. The run
 * loop starts from it, as the plan does.
 *
 * @param settings the settings, for a resource that holds nothing yet (a create)
 */
export function interruptedHolding(
  before: Holding | undefined,
  settings: Settings,
  interrupted: Interruption | undefined,
): Holding {
  const holding = before ?? { settings, held: [], untracked: [] };
  if (interrupted === undefined || interrupted.source === "requested") return holding;
  return {
    settings: holding.settings,
    held: interrupted.held ?? holding.held,
    untracked: union(holding.untracked, interrupted.unknownAdds),
  };
}

/** One PUT of the declared records after an interrupted run, or as `DOMAINAPI_REWRITE` asks. */
function recoveryRewrite(
  held: HeldRecord[],
  after: Declaration,
  reason: "requested" | "interrupted",
  interrupted: Interruption,
): Plan {
  const plan = planRewrite(after.settings.templateId, held, after.declared, reason);
  return {
    ...plan,
    onRefusal: RECOVER,
    setAside: [],
    forgotten: [],
    untracked: [],
    interrupted: interrupted.request,
  };
}

/**
 * The plan after an interrupted run (docs/behaviour.md, "Interrupted runs"), with the fewest
 * requests that make the state true. What the interrupted run proved replaces the state it started
 * from; the adds it may have made are of unknown outcome. Then:
 * - a removal removes what is held; with purge and adds of unknown outcome, by a PUT of no records;
 * - with purge, one PUT of every declared record: the only request sure to leave the template
 *   exactly as declared, whatever the interrupted request did (every id is new);
 * - without purge, the declared records whose add is of unknown outcome are set aside (each is
 *   there once or missing; adding it again could make a copy nothing finds: the warning names
 *   them); when the interrupted request named held records, the first PATCH verifies every held record even when nothing else changes, so that a delete of it
 *   is found (a 404) and what it removed is added again. The state claims no record that was not
 *   proven.
 * A `DOMAINAPI_REWRITE` request changes only a resource with purge (without purge the template is
 * not the resource's to rewrite).
 */
export function planInterrupted(
  before: Holding | undefined,
  after: Declaration | undefined,
  interrupted: Interruption,
): Plan {
  const settings = (after ?? before)!.settings;
  if (interrupted.source === "requested") {
    if (after === undefined || !settings.purge) return planResource(before, after);
    return recoveryRewrite(before?.held ?? [], after, "requested", interrupted);
  }
  const holding = interruptedHolding(before, settings, interrupted);
  if (after === undefined) return { ...planResource(holding, undefined), interrupted: interrupted.request };
  if (settings.purge) return recoveryRewrite(holding.held, after, "interrupted", interrupted);
  const aside = setAsideUnknownAdds(holding.untracked, after.declared);
  const plan = planPatch(settings.templateId, pairRecords(holding.held, aside.planned), {
    purge: false,
    // A create's held records were proven by the interrupted run's own answers, moments ago.
    verify: before !== undefined || interrupted.namedHeld === true,
    verifyAlways: interrupted.namedHeld === true,
  });
  return {
    ...plan,
    onRefusal: RECOVER,
    setAside: aside.setAside,
    forgotten: aside.forgotten,
    untracked: aside.setAside,
    interrupted: interrupted.request,
  };
}

/**
 * The plan after a request was refused with 404 and the search found what vanished: with purge,
 * when a record to keep is gone, one PUT of every declared record; otherwise the PATCH plan from
 * what exists now (`held`: the vanished records gone, the accepted probes applied) to the
 * declared records, without verifying again what the search just proved: a vanished deletion is
 * done, a vanished record to keep is added again, and nothing else is touched.
 *
 * @param held the records the template holds now, as the search proved
 * @param plan the plan whose request was refused (its settings, set-aside records and tracking)
 * @param declared the declared records (all of them; those set aside by `plan` stay aside)
 * @example
 * const next = planRecovery(run.held, plan, declared, search);
 */
export function planRecovery(
  held: readonly HeldRecord[],
  plan: Plan,
  declared: Declaration,
  search: VanishedSearch,
): Plan {
  const { settings } = declared;
  const keptVanished = search.vanished.some((c) => c.kind !== "delete");
  if (settings.purge && (search.rewrite || keptVanished)) {
    const rewrite = planRewrite(settings.templateId, held, declared.declared, "vanished");
    return { ...rewrite, onRefusal: RECOVER, setAside: [], forgotten: plan.forgotten, untracked: [] };
  }
  const aside = new Set(plan.setAside);
  const planned = declared.declared.filter((r) => !aside.has(describeRecord(r)));
  const patch = planPatch(settings.templateId, pairRecords(held, planned), {
    purge: settings.purge,
    verify: false,
  });
  return {
    ...patch,
    onRefusal: RECOVER,
    setAside: plan.setAside,
    forgotten: plan.forgotten,
    untracked: plan.untracked,
  };
}

/**
 * The verification of every held record (what `pulumi refresh` sends when verification is on):
 * one request that re-states each record with the values it has, or none.
 *
 * @example
 * planVerify(holding).requests[0]; // { method: "PATCH", body: { update: [{ record_id: "r1", ... }] } }
 */
export function planVerify(holding: Holding): Plan {
  // The values of the records made for a URL forward are not ours to re-state.
  const ordered = canonicalOrder(holding.held.filter((r) => !owningMade(r)));
  const requests = ordered.length > 0 ? [requestOf(ordered.map((r) => verifyCorrection(r, r)))] : [];
  const summary = {
    creates: 0,
    updates: 0,
    deletes: 0,
    unchanged: ordered.length,
    requests: requests.length,
  };
  return {
    templateId: holding.settings.templateId,
    mode: requests.length > 0 ? "patch" : "none",
    onRefusal: VERIFY,
    corrections: [],
    requests,
    summary,
    text: formatSummary(summary),
    setAside: [],
    forgotten: [],
    untracked: [...holding.untracked],
  };
}

/** The plan of a `check()` and the declared records keyed as it pairs them. */
export interface CheckedPlan {
  /** The declared records with their preview keys, in canonical order. */
  declared: KeyedRecord[];
  /** The plan against the previous inputs (what the safety check reads); none for a first declaration. */
  plan?: Plan;
}

/**
 * What `check()` asks: the plan of the declared `records` against the previous inputs, and the
 * preview keys that plan gives them, from its one pairing. A record the plan keeps or updates in
 * place inherits the key of the previous record it is paired with, so every correction is exactly
 * one entry of the preview; a new record gets the most readable key that no previous record used
 * (`keys.ts`). Without previous records, the keys of a first declaration and no plan.
 *
 * The previous inputs hold no record ids: their keys stand in for them (`key:www/A`), so the plan
 * counts and pairs as an update's would, but is for reading (its summary), never for sending.
 *
 * @param previous the declaration of the previous inputs, if the template is the same
 * @example
 * const { declared, plan } = planCheck(decodeInputs(olds), validated.records, settings);
 * const refusal = plan && checkSafety(plan, settings.safetyThreshold);
 */
export function planCheck(
  previous: Declaration | undefined,
  records: readonly RecordSpec[],
  settings: Settings,
): CheckedPlan {
  if (previous === undefined || previous.declared.length === 0) {
    const keyed = Object.entries(keyRecords(records)).map(([key, r]): KeyedRecord => ({ ...r, key }));
    return { declared: canonicalOrder(keyed) };
  }
  const held = previous.declared.map((r): HeldRecord => ({ ...r, recordId: `key:${r.key}` }));
  // Stryker disable next-line StringLiteral: a placeholder; the pairing below gives every record its key
  const declared = records.map((r): KeyedRecord => ({ ...r, key: "" }));
  const pairing = pairRecords(held, declared);
  for (const { from, to } of [...pairing.unchanged, ...pairing.updates]) to.key = from.key;
  const used = new Set(previous.declared.map((r) => r.key));
  const siblings = Map.groupBy(declared, (r) => `${r.name}/${r.type}`);
  for (const r of pairing.adds) {
    r.key = freshKey(r, used, siblings.get(`${r.name}/${r.type}`)?.length === 1);
  }
  const plan = planPatch(settings.templateId, pairing, { purge: settings.purge, verify: true });
  return {
    declared: canonicalOrder(declared),
    plan: { ...plan, onRefusal: RECOVER, setAside: [], forgotten: [], untracked: [] },
  };
}

/**
 * What `pulumi refresh` sends: the verification of every held record when it is switched on for
 * the command ({@link planVerify}), else nothing.
 *
 * @example
 * const plan = planRefresh(decodeOutputs(props), verifyOnRefresh());
 */
export function planRefresh(holding: Holding, verify: boolean): Plan {
  if (verify) return planVerify(holding);
  const summary = { creates: 0, updates: 0, deletes: 0, unchanged: holding.held.length, requests: 0 };
  return {
    templateId: holding.settings.templateId,
    mode: "none",
    onRefusal: VERIFY,
    corrections: [],
    requests: [],
    summary,
    text: formatSummary(summary),
    setAside: [],
    forgotten: [],
    untracked: [...holding.untracked],
  };
}
