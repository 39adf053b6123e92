/**
 * DnsTemplateRecords and the intent journal (host/journal.ts): what the run loop writes before each
 * request, and what the next operation on the resource reads from it as a fact for the planner
 * ({@link Interruption}). Also the one-run rewrite that stands in for a journal that is gone
 * (`DOMAINAPI_REWRITE`).
 *
 * Only reads and writes: what an interruption means for the requests is the planner's.
 */
import { canonicalOrder, describeRecord, identityOf } from "../dns/model";
import { DomainApiBaseError } from "../errors";
import {
  appendStep,
  currentOwner,
  entriesOf,
  entryFile,
  type Found,
  type JournalAccount,
  type JournalEntry,
  type JournalRequest,
  type JournalStep,
  ownerIsLive,
  readEntry,
  removeEntry,
  startEntry,
} from "../host/journal";
import { journalAccount } from "../host/session";
import type { Tracked } from "./fold";
import { maskText, NO_SECRETS, type Secrets, secretsOfRecords } from "./masking";
import type { HeldRecord, Holding, Interruption, KeyedRecord, Plan, PlannedRequest, Settings } from "./plan";
import { decodeOutputs, encodeOutputs } from "./state";

/** The environment variable that rewrites `purge: true` templates with one PUT, for one run. */
export const REWRITE_ENV = "DOMAINAPI_REWRITE";

/** The command that makes a `purge: true` template exact again when no journal is left. */
export function rewriteCommand(templateId: string): string {
  return `${REWRITE_ENV}=${/^[\w.-]+$/.test(templateId) ? templateId : `'${templateId.replaceAll("'", "'\\''")}'`} pulumi up`;
}

/** Whether `DOMAINAPI_REWRITE` (a template id, several separated by spaces or commas, or `all`) names `templateId`. */
export function rewriteRequested(templateId: string, value = process.env[REWRITE_ENV]): boolean {
  if (value === undefined) return false;
  // The empty pieces between two separators name nothing: a template id is never empty.
  const names = value.split(/[\s,]/);
  return names.includes("all") || names.includes(templateId);
}

/** One resource's operation, as the journal names it. */
export interface JournalScope {
  account: JournalAccount;
  settings: Settings;
  /** The resource id: the template id with purge, `<templateId>/<suffix>` without. */
  resource: string;
  operation: JournalEntry["operation"];
  /** The record ids the state held when the operation started. */
  startIds: string[];
}

/** What the run loop writes to: one resource's entry, before each request. */
export interface RunJournal {
  /**
   * Records, durably, that `request` is about to be sent, with what the run has proven so far and
   * the values the program marked secret (the run that reads the entry masks them too).
   */
  sending(tracked: Tracked, request: PlannedRequest, plan: string, secrets?: Secrets): void;
  /** Removes the entry and the entries this operation took over: the engine gets the outcome now. */
  clear(): void;
}

function requestOf(request: PlannedRequest): JournalRequest {
  if (request.method === "PUT") {
    return { method: "PUT", adds: request.records.map(describeRecord), deletes: [], updates: [] };
  }
  const adds: string[] = [];
  const deletes: string[] = [];
  const updates: string[] = [];
  for (const c of request.corrections) {
    if (c.kind === "create") adds.push(describeRecord(c.record));
    else if (c.kind === "delete") deletes.push(...c.del.map((d) => d.record_id));
    else if (c.kind === "update") updates.push(c.from.recordId);
  }
  return { method: "PATCH", adds, deletes, updates };
}

const stamp = (r: HeldRecord) => `${r.key}\n${identityOf(r)}\n${JSON.stringify([r.recordId, r.madeIds])}`;

/**
 * What an answer proved, as a step of the journal: the held records it set (added, or changed in
 * place) and removed, and the adds of unknown outcome since. Only the change: each step costs its
 * own size.
 */
function learntStep(settings: Settings, before: readonly HeldRecord[], after: Tracked): JournalStep {
  const was = new Set(before.map(stamp));
  const kept = new Set(after.held.map((r) => r.recordId));
  const set = after.held.filter((r) => !was.has(stamp(r)));
  const removed = before.filter((r) => !kept.has(r.recordId)).map((r) => r.recordId);
  // Stryker disable next-line StringLiteral: a step keeps the records and ids alone, not the plan
  const { records, ids } = encodeOutputs(settings, set, "");
  return { learnt: { records, ids, removed, untracked: after.untracked } };
}

/** The held records after replaying what the answers of an entry proved on top of `base`. */
function replay(settings: Settings, base: readonly HeldRecord[], steps: readonly JournalStep[]): Tracked {
  const held = new Map(base.map((r) => [r.recordId, r]));
  let untracked: string[] = [];
  for (const step of steps) {
    if (!("learnt" in step)) continue;
    const { records, ids, removed, untracked: unknown } = step.learnt;
    // A step edited by hand is read as far as it goes.
    if (Array.isArray(removed)) for (const id of removed) held.delete(String(id));
    for (const r of decodeOutputs({ ...settings, records, ids }).held) held.set(r.recordId, r);
    untracked = Array.isArray(unknown) ? unknown.map(String) : [];
  }
  return { held: canonicalOrder([...held.values()]), untracked };
}

/**
 * The journal of one operation: its entry is started at its first request (a run that sends
 * nothing writes nothing). `adopted` are the files of entries this operation takes over (an
 * interrupted create's, found by its records): removed with its own when it is done.
 */
// Stryker disable next-line ArrayDeclaration: removing a file that is not there removes nothing
export function openJournal(scope: JournalScope, adopted: readonly string[] = []): RunJournal {
  const { account, settings, resource, operation, startIds } = scope;
  const own = entryFile(account.baseUrl, settings.templateId, resource);
  /** The held records the last step left (none before the first request). */
  let last: HeldRecord[] | undefined;
  return {
    sending(tracked, request, plan, secrets = NO_SECRETS) {
      const step: JournalStep = { sent: requestOf(request) };
      if (last === undefined) {
        // What the run starts from may already differ from the engine's state (an adopted entry).
        const start = learntStep(settings, [], tracked);
        startEntry(
          {
            version: 1,
            account,
            templateId: settings.templateId,
            resource,
            operation,
            purge: settings.purge,
            owner: currentOwner(),
            writtenAt: new Date().toISOString(),
            plan,
            startIds,
            ...(secrets.pattern === undefined
              ? {}
              : { secrets: { texts: [...secrets.texts], numbers: [...secrets.numbers] } }),
          },
          [start, step],
        );
      } else {
        appendStep(own, learntStep(settings, last, tracked));
        appendStep(own, step);
      }
      last = [...tracked.held];
    },
    clear() {
      for (const file of [own, ...adopted]) removeEntry(file);
    },
  };
}

/** The request in flight as people read it. */
export function describeJournalRequest(request: JournalRequest | undefined): string {
  if (request === undefined) return "a request whose answer had come back";
  if (request.method === "PUT") return `a PUT of ${request.adds.length} record(s)`;
  const parts = [
    ...request.adds.map((a) => `adding ${a}`),
    ...(request.deletes.length > 0 ? [`deleting ${request.deletes.length} record(s)`] : []),
    ...(request.updates.length > 0 ? [`updating ${request.updates.length} record(s)`] : []),
  ];
  return `a PATCH ${parts.length > 0 ? parts.join(", ") : "verifying records"}`;
}

/** Thrown when another live process is sending for the same resource: nothing was sent. */
export class ConcurrentRunError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.ConcurrentRunError");

  constructor(templateId: string, entry: JournalEntry, file: string, secrets: Secrets = NO_SECRETS) {
    super(
      `template ${templateId}: another process (pid ${entry.owner.pid} on ${entry.owner.host}, since ${entry.writtenAt}) ` +
        `is sending ${maskText(describeJournalRequest(entry.inFlight), secrets)} to this template for the same resource right now ` +
        `(journal entry ${file}). Two runs on one template undo each other's work, so nothing was sent: ` +
        "wait for that run to end and run `pulumi up` again.",
      "DOMAINAPI_CONCURRENT_RUN",
    );
  }
}

/** What the next operation found in the journal. */
export interface JournalFinding {
  /** The fact for the planner. */
  interruption?: Interruption;
  /** The entries it takes over: removed once the operation is done. */
  files: string[];
  /** What to say before anything else. */
  warning?: string;
  /** The values the entry's run had marked secret: every line about it masks them. */
  secrets?: Secrets;
}

/** The secrets an entry recorded, as masking reads them. */
function secretsOfEntry(found: Found): Secrets {
  if (found.kind !== "entry" || found.entry.secrets === undefined) return NO_SECRETS;
  const { texts, numbers } = found.entry.secrets;
  // Each text and each number masked wherever a line quotes it.
  return secretsOfRecords([...texts, ...numbers.map((priority) => ({ priority }))]);
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((id, i) => id === [...b].sort()[i]);

function interruptionOf(found: Found, startIds: readonly string[]): Interruption {
  if (found.kind === "corrupt") {
    return {
      source: "journal",
      request: `a request the journal cannot tell (its entry ${found.file} is unreadable: ${found.reason})`,
      unknownAdds: ["an add whose answer was lost"],
      namedHeld: true,
    };
  }
  const { entry } = found;
  // The entry's first step restates what the run started from, so replaying needs no base.
  const proven = replay(
    { templateId: entry.templateId, purge: entry.purge, safetyThreshold: false },
    [],
    entry.steps,
  );
  const current = sameIds(entry.startIds, startIds);
  return {
    source: "journal",
    request: `${describeJournalRequest(entry.inFlight)} (${entry.operation}, ${entry.writtenAt})`,
    ...(current ? { held: proven.held } : {}),
    unknownAdds: [...new Set([...proven.untracked, ...(entry.inFlight?.adds ?? [])])],
    namedHeld: (entry.inFlight?.deletes.length ?? 0) + (entry.inFlight?.updates.length ?? 0) > 0,
  };
}

/**
 * What the journal says of the resource's last operation on this machine, for an operation that
 * starts from `holding` (the state; none for a create). An entry of another process that is still
 * running is a run in flight now, not an interruption: the operation is refused (`refuseLive`) or,
 * for a preview's diff, only said. A create without purge has no id to find its entry by: it takes
 * over an interrupted create's entry on the same template whose records it declares.
 *
 * @param declared the records declared now, as they read in messages (a create's match)
 * @throws ConcurrentRunError when `refuseLive` and another live process holds the resource's entry
 */
export function findInterruption(
  account: JournalAccount,
  settings: Settings,
  resource: string | undefined,
  holding: Holding | undefined,
  declared: readonly string[],
  refuseLive: boolean,
): JournalFinding {
  const startIds = (holding?.held ?? []).map((r) => r.recordId);
  let found: Found | undefined;
  if (resource !== undefined) {
    found = readEntry(entryFile(account.baseUrl, settings.templateId, resource));
  } else {
    const wanted = new Set(declared);
    const has = (r: string) => wanted.has(r);
    found = entriesOf(account.baseUrl, settings.templateId).find(
      (f) =>
        f.kind === "entry" &&
        f.entry.operation === "create" &&
        !f.entry.purge &&
        !ownerIsLive(f.entry.owner) &&
        (replay(settings, [], f.entry.steps).held.map(describeRecord).some(has) ||
          (f.entry.inFlight?.adds.some(has) ?? false)),
    );
  }
  if (found === undefined) return { files: [] };
  if (found.kind === "entry" && ownerIsLive(found.entry.owner)) {
    // Thrown to the engine as it is: the values the other run marked secret are masked here.
    const error = new ConcurrentRunError(settings.templateId, found.entry, found.file, secretsOfEntry(found));
    if (refuseLive) throw error;
    return { files: [], warning: error.message };
  }
  return {
    interruption: interruptionOf(found, startIds),
    files: [found.file],
    secrets: secretsOfEntry(found),
  };
}

/**
 * What the first operation that finds an interruption says, before anything else: that the
 * interrupted request's outcome is unknown, and what the plan does about it. Without purge, the
 * records whose add may or may not have been applied (each is there once or missing: they are not
 * added again), and how to check them.
 */
export function interruptionWarning(plan: Plan, interruption: Interruption, purge: boolean): string {
  const t = `template ${plan.templateId}`;
  if (interruption.source === "requested") {
    return purge
      ? `${t}: ${REWRITE_ENV}: ${plan.text}.`
      : `${t}: ${REWRITE_ENV} does not apply (purge: false: the template holds records that are not this resource's, so it is never rewritten).`;
  }
  const head = `${t}: outcome unknown: an earlier run on this machine was interrupted while sending ${interruption.request}`;
  // With purge the recovery sets nothing aside and verifies nothing (a PUT): only the head and the plan.
  const doubled = plan.setAside;
  const twice =
    doubled.length === 0
      ? ""
      : ` Whether the API applied the add of these records is unknown: ${doubled.join("; ")}. Each is now in the template ` +
        "once, or missing: the resource does not add them again (a second copy could never be found, as the API cannot " +
        "list a template's records) and its state does not claim them (they stay listed as of unknown outcome). Check " +
        "them in the registrar's panel and add one that is missing there by hand.";
  const verifies =
    plan.requests[0]?.method === "PATCH" && plan.requests[0].corrections.some((c) => c.kind === "verify");
  return `${head}.${twice} Recovering: ${plan.text}${verifies ? " (the first request verifies every record the state holds)" : ""}.`;
}

/** What an operation learnt from the journal and `DOMAINAPI_REWRITE`, and how it journals its own requests. */
export interface Consulted {
  /** The fact for the planner, if any. */
  interruption?: Interruption;
  /** Said before anything else (another live run on the resource, in a preview). */
  warning?: string;
  /** The values an interrupted run had marked secret: the caller masks them in every line too. */
  secrets: Secrets;
  /** The journal of this operation, under the resource id it writes (none for a preview's diff). */
  journal(resource: string): RunJournal | undefined;
}

/**
 * Consults the journal for one operation of a resource. A diff (a preview, or the diff before an
 * update) only reads, and reads nothing where the account is not known yet (a preview without a
 * key); create, update and delete refuse to run beside another live run of the same resource.
 *
 * @param resource the resource id; undefined for a create without purge (found by its records)
 * @throws ConfigError from the settings, as the client would; ConcurrentRunError
 */
export function consultJournal(input: {
  operation: "diff" | JournalEntry["operation"];
  settings: Settings;
  resource: string | undefined;
  holding: Holding | undefined;
  declared: readonly KeyedRecord[] | undefined;
}): Consulted {
  const { operation, settings, resource, holding, declared } = input;
  let account: JournalAccount;
  try {
    account = journalAccount();
  } catch (err) {
    if (operation === "diff") return { secrets: NO_SECRETS, journal: () => undefined };
    throw err;
  }
  const finding = findInterruption(
    account,
    settings,
    resource,
    holding,
    (declared ?? []).map(describeRecord),
    operation !== "diff",
  );
  // Only without an interrupted run's entry, which wins (below).
  const requested = declared !== undefined && rewriteRequested(settings.templateId);
  const rewrite = process.env[REWRITE_ENV];
  // A typo in the one-run switch would rewrite nothing, silently: each preview names what it skips.
  const unnamed =
    operation === "diff" &&
    rewrite !== undefined &&
    declared !== undefined &&
    !rewriteRequested(settings.templateId)
      ? `template ${settings.templateId}: ${REWRITE_ENV}=${rewrite} does not name this template, so it is not rewritten ` +
        `(name it by its template id, ${settings.templateId}, or use all).`
      : undefined;
  const warning = [finding.warning, unnamed].filter((w) => w !== undefined).join("\n");
  const interruption: Interruption | undefined =
    finding.interruption ??
    (requested
      ? { source: "requested", request: `${REWRITE_ENV}=${process.env[REWRITE_ENV]}`, unknownAdds: [] }
      : undefined);
  const startIds = (holding?.held ?? []).map((r) => r.recordId);
  return {
    ...(interruption ? { interruption } : {}),
    ...(warning !== "" ? { warning } : {}),
    secrets: finding.secrets ?? NO_SECRETS,
    journal: (id) =>
      operation === "diff"
        ? undefined
        : openJournal({ account, settings, resource: id, operation, startIds }, finding.files),
  };
}
