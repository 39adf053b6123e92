/**
 * DNS templates and their records: the state behind `PUT` and `PATCH
 * /v2/dns/templates/{template_id}/records`. A PATCH is atomic by default: the whole request is
 * validated (shape, ids, type rules) before anything changes, then applied as del, update, add.
 * The personalities change the id form, what a URL forward brings along, and PATCH atomicity.
 *
 * A URL forward (URLFWD, URLFWD301, URLCLO) brings an A and an AAAA record at its name, as the
 * spec says the service does ("When one is set, an A record and an AAAA record are created for
 * that host name"), unless the `urlForwardCreatesRecords` personality is turned off (then a
 * forward is one record, its add answered with its one id). By default:
 * - the answer to its PATCH add names all three ids, in an order the spec does not show (here a
 *   permutation chosen by `idOrderSeed` and the forward's id: the forward is not always first);
 * - a PUT answers one id per submitted record, as the spec says: the forward's own id at its
 *   position; the records made for it are created all the same, their ids in no answer;
 * - deleting the forward (PATCH del) deletes the records made for it that are still there, as a
 *   service that made them for the forward would; they can also be updated or deleted on their own;
 * - seeding (admin) stores exactly the records given: it describes a state, nothing is made.
 */
import { mulberry32 } from "./contactGenerator";
import { ApiError, invalidRequest, notFound } from "./errors";
import type { PatchMode } from "./personality";
import {
  formatPath,
  type PatchBody,
  parseOrThrow,
  type RecordInput,
  RecordInputSchema,
  type RecordType,
  typeRuleIssues,
} from "./validation";

/**
 * A record as the sandbox stores it. `priority` is present only on MX and SRV records, `weight`
 * and `port` only on SRV records.
 */
export interface SandboxRecord {
  record_id: string;
  name: string;
  type: RecordType;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/** How a {@link TemplateStore} behaves where the spec leaves it open. */
export interface TemplateRules {
  /** Ids are decimal numbers (`"101"`, served as numbers) instead of `"rec-N"`. */
  numericIds: boolean;
  /** A URL forward record brings an A and an AAAA record at its name. */
  urlForwardCreatesRecords: boolean;
  /** Seed of the order in which the answer to a forward's add names its three ids. */
  idOrderSeed: number;
  /** `itemwise`: a PATCH applies its valid items before answering 404 for an unknown id. */
  patchApply: PatchMode;
}

const STRICT_RULES: TemplateRules = {
  numericIds: false,
  urlForwardCreatesRecords: true,
  idOrderSeed: 1,
  patchApply: "atomic",
};

/** The types that are URL forwards, not DNS records. */
const URL_FORWARD_TYPES: ReadonlySet<RecordType> = new Set(["URLFWD", "URLFWD301", "URLCLO"]);
/** Where the records a URL forward brings along point: the service's forward server (documentation addresses). */
export const FORWARD_SERVER = { A: "192.0.2.80", AAAA: "2001:db8::80" } as const;

/**
 * The templates of the sandbox and the id counter. Ids are `"rec-" + n` (or `String(100 + n)`
 * with numeric ids) with `n` increasing over the life of the store (also across
 * {@link TemplateStore.clear}), so an id is never reused.
 */
export class TemplateStore {
  private nextId = 1;
  /** The ids of the records the service made for each forward (by the forward's id), while they exist. */
  private readonly made = new Map<string, string[]>();
  /** Told the id of every template whose records changed, once the change is made (the DNS publication listens). */
  onChange: ((templateId: string) => void) | undefined;

  /**
   * @param templates The live map the store changes (exposed as `sandbox.state.templates`).
   * @param rules The personality of the store; default strict (rec-N ids, atomic PATCH).
   */
  constructor(
    readonly templates: Map<string, SandboxRecord[]>,
    readonly rules: TemplateRules = STRICT_RULES,
  ) {}

  /** A copy of the records of a template, or undefined when it does not exist. */
  records(templateId: string): SandboxRecord[] | undefined {
    return this.templates.get(templateId)?.map((record) => ({ ...record }));
  }

  /**
   * Creates or replaces a template with the given records (validated like a PUT body, else an
   * {@link ApiError} naming the field) and returns the new ids in order.
   */
  seed(templateId: string, records: unknown[] = []): string[] {
    const valid = records.map((record, index) =>
      parseOrThrow(RecordInputSchema, record, `records[${index}]`),
    );
    return this.store(templateId, valid);
  }

  /**
   * `PUT`: replaces every record of an existing template; returns the new ids, one per submitted
   * record, in order (a URL forward's own id; the records made for it are in no answer).
   */
  replace(templateId: string, records: RecordInput[]): string[] {
    this.forget(this.require(templateId));
    const created = records.map((record) => this.created(record));
    this.templates.set(
      templateId,
      created.flatMap(({ record, made }) => [record, ...made]),
    );
    this.onChange?.(templateId);
    return created.map(({ record }) => record.record_id);
  }

  /**
   * The records the service made for each URL forward of a template that are still there, by the
   * forward's id (forwards without any left are not listed); undefined when the template does not exist.
   */
  madeRecords(templateId: string): Record<string, string[]> | undefined {
    const records = this.templates.get(templateId);
    if (records === undefined) return undefined;
    const present = new Set(records.map((record) => record.record_id));
    const result: Record<string, string[]> = {};
    for (const record of records) {
      const made = this.made.get(record.record_id)?.filter((id) => present.has(id)) ?? [];
      if (made.length > 0) result[record.record_id] = made;
    }
    return result;
  }

  /**
   * `PATCH`: validates the request against the template, then applies del, update, add. Returns
   * the ids of the added records, in the order of the add items; a URL forward's own id and those
   * of the A and AAAA records made for it in an order set by `idOrderSeed`. Deleting a forward
   * deletes the records made for it.
   *
   * @throws ApiError 404 for an unknown template or record id, 400 for a record id named twice
   *   or an update that breaks the rules of the record's type. Nothing changes on a 400; on a 404
   *   nothing changes when atomic, and every other item was applied when itemwise.
   */
  patch(templateId: string, body: PatchBody): string[] {
    const current = this.require(templateId);
    const byId = new Map(current.map((record) => [record.record_id, record]));
    const seen = new Map<string, string>();
    const referenced = [
      ...body.del.map((item, index) => ({ id: item.record_id, path: ["del", index, "record_id"] })),
      ...body.update.map((item, index) => ({ id: item.record_id, path: ["update", index, "record_id"] })),
    ];
    for (const { id, path } of referenced) {
      const where = formatPath(path);
      const earlier = seen.get(id);
      if (earlier !== undefined) {
        throw invalidRequest(`${where}: record ${id} is already named by ${earlier}; name each record once`);
      }
      seen.set(id, where);
    }
    const unknown = referenced.filter(({ id }) => !byId.has(id));
    const firstUnknown = unknown[0];
    const unknownError =
      firstUnknown === undefined
        ? undefined
        : notFound(
            `${formatPath(firstUnknown.path)}: template ${templateId} has no record ${firstUnknown.id}`,
          );
    if (unknownError !== undefined && this.rules.patchApply === "atomic") throw unknownError;
    const problems: string[] = [];
    body.update.forEach((item, index) => {
      const type = byId.get(item.record_id)?.type;
      if (type === undefined) return;
      for (const issue of typeRuleIssues(type, item)) {
        problems.push(
          `${formatPath(["update", index, ...issue.path])}: ${issue.message} (record ${item.record_id})`,
        );
      }
    });
    if (problems.length > 0) throw invalidRequest(problems.join("; "));

    // From here on every item is applied, except (itemwise) the ones naming an unknown id.
    const deleted = new Set(body.del.map((item) => item.record_id));
    for (const item of body.del) {
      if (!byId.has(item.record_id)) continue;
      for (const id of this.made.get(item.record_id) ?? []) deleted.add(id);
      this.made.delete(item.record_id);
    }
    const updates = new Map(body.update.map((item) => [item.record_id, item]));
    const next: SandboxRecord[] = [];
    for (const record of current) {
      if (deleted.has(record.record_id)) continue;
      const update = updates.get(record.record_id);
      next.push(
        update === undefined ? record : makeRecord(record.record_id, { ...update, type: record.type }),
      );
    }
    const added = body.add.map((item) => this.created(item));
    next.push(...added.flatMap(({ record, made }) => [record, ...made]));
    this.templates.set(templateId, next);
    this.onChange?.(templateId);
    if (unknownError !== undefined) {
      unknownError.message += "; the other items were applied";
      throw unknownError;
    }
    return added.flatMap(({ record, made }) => this.answerOrder([record, ...made].map((r) => r.record_id)));
  }

  /** Removes a template; false when it did not exist. */
  delete(templateId: string): boolean {
    const records = this.templates.get(templateId);
    if (records !== undefined) this.forget(records);
    const deleted = this.templates.delete(templateId);
    if (deleted) this.onChange?.(templateId);
    return deleted;
  }

  /** Removes one record behind the client's back (drift); false when there was no such record. */
  deleteRecord(templateId: string, recordId: string): boolean {
    const records = this.templates.get(templateId);
    if (records === undefined) return false;
    const index = records.findIndex((record) => record.record_id === recordId);
    if (index < 0) return false;
    // Exactly the one record: what was made for a forward stays, now on its own.
    this.made.delete(recordId);
    this.templates.set(
      templateId,
      records.filter((record) => record.record_id !== recordId),
    );
    this.onChange?.(templateId);
    return true;
  }

  /** Removes every template; the id counter keeps counting. */
  clear(): void {
    const ids = [...this.templates.keys()];
    this.templates.clear();
    for (const id of ids) this.onChange?.(id);
    this.made.clear();
  }

  /** Forgets what was made for the forwards among `records` (they are being replaced or removed). */
  private forget(records: SandboxRecord[]): void {
    for (const record of records) this.made.delete(record.record_id);
  }

  /**
   * The order in which an add's answer names the ids of one add item: as is for one id; for a
   * forward and the records made for it, a permutation picked by the seed and the forward's id,
   * so the forward is not always first, and the same seed gives the same answers.
   */
  private answerOrder(ids: string[]): string[] {
    if (ids.length < 2) return ids;
    const serial = Number(/\d+$/.exec(ids[0]!)?.[0] ?? 0);
    const random = mulberry32((this.rules.idOrderSeed ^ Math.imul(serial, 0x9e3779b1)) >>> 0);
    const order = [...ids];
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    return order;
  }

  private require(templateId: string): SandboxRecord[] {
    const records = this.templates.get(templateId);
    if (records === undefined) {
      throw new ApiError(404, "not_found", `template ${templateId} does not exist`);
    }
    return records;
  }

  private store(templateId: string, records: RecordInput[]): string[] {
    const previous = this.templates.get(templateId);
    if (previous !== undefined) this.forget(previous);
    const stored = records.map((record) => makeRecord(this.newId(), record));
    this.templates.set(templateId, stored);
    this.onChange?.(templateId);
    return stored.map((record) => record.record_id);
  }

  /** The record one PUT or add item creates, and those made for it (a URL forward's A and AAAA when so ruled). */
  private created(item: RecordInput): { record: SandboxRecord; made: SandboxRecord[] } {
    const record = makeRecord(this.newId(), item);
    if (!this.rules.urlForwardCreatesRecords || !URL_FORWARD_TYPES.has(record.type)) {
      return { record, made: [] };
    }
    const made = [
      makeRecord(this.newId(), { name: record.name, type: "A", content: FORWARD_SERVER.A }),
      makeRecord(this.newId(), { name: record.name, type: "AAAA", content: FORWARD_SERVER.AAAA }),
    ];
    this.made.set(
      record.record_id,
      made.map((r) => r.record_id),
    );
    return { record, made };
  }

  private newId(): string {
    const id = this.rules.numericIds ? String(100 + this.nextId) : `rec-${this.nextId}`;
    this.nextId += 1;
    return id;
  }
}

/** Builds a stored record with a fixed key order and only the numbers its type takes. */
function makeRecord(recordId: string, fields: Omit<SandboxRecord, "record_id">): SandboxRecord {
  const record: SandboxRecord = {
    record_id: recordId,
    name: fields.name,
    type: fields.type,
    content: fields.content,
  };
  if (fields.priority !== undefined) record.priority = fields.priority;
  if (fields.weight !== undefined) record.weight = fields.weight;
  if (fields.port !== undefined) record.port = fields.port;
  return record;
}
