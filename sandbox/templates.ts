/**
 * DNS templates and their records: the state behind `PUT` and `PATCH
 * /v2/dns/templates/{template_id}/records`. A PATCH is atomic: the whole request is validated
 * (shape, ids, type rules) before anything changes, then applied as del, update, add.
 */
import { ApiError, invalidRequest, notFound } from "./errors";
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

/**
 * The templates of the sandbox and the id counter. Ids are `"rec-" + n` with `n` increasing over
 * the life of the store (also across {@link TemplateStore.clear}), so an id is never reused.
 */
export class TemplateStore {
  private nextId = 1;

  /** @param templates The live map the store changes (exposed as `sandbox.state.templates`). */
  constructor(readonly templates: Map<string, SandboxRecord[]>) {}

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

  /** `PUT`: replaces every record of an existing template; returns the new ids, one per record. */
  replace(templateId: string, records: RecordInput[]): string[] {
    this.require(templateId);
    return this.store(templateId, records);
  }

  /**
   * `PATCH`: validates the whole request against the template, then applies del, update, add.
   * Returns the ids of the added records, in the order of the add items.
   *
   * @throws ApiError 404 for an unknown template or record id, 400 for a record id named twice
   *   or an update that breaks the rules of the record's type. Nothing changes on any error.
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
    for (const { id, path } of referenced) {
      if (!byId.has(id)) {
        throw notFound(`${formatPath(path)}: template ${templateId} has no record ${id}`);
      }
    }
    const problems: string[] = [];
    body.update.forEach((item, index) => {
      const type = byId.get(item.record_id)!.type;
      for (const issue of typeRuleIssues(type, item)) {
        problems.push(
          `${formatPath(["update", index, ...issue.path])}: ${issue.message} (record ${item.record_id})`,
        );
      }
    });
    if (problems.length > 0) throw invalidRequest(problems.join("; "));

    const deleted = new Set(body.del.map((item) => item.record_id));
    const updates = new Map(body.update.map((item) => [item.record_id, item]));
    const next: SandboxRecord[] = [];
    for (const record of current) {
      if (deleted.has(record.record_id)) continue;
      const update = updates.get(record.record_id);
      next.push(
        update === undefined ? record : makeRecord(record.record_id, { ...update, type: record.type }),
      );
    }
    const ids = body.add.map((item) => {
      const id = this.newId();
      next.push(makeRecord(id, item));
      return id;
    });
    this.templates.set(templateId, next);
    return ids;
  }

  /** Removes a template; false when it did not exist. */
  delete(templateId: string): boolean {
    return this.templates.delete(templateId);
  }

  /** Removes one record behind the client's back (drift); false when there was no such record. */
  deleteRecord(templateId: string, recordId: string): boolean {
    const records = this.templates.get(templateId);
    if (records === undefined) return false;
    const index = records.findIndex((record) => record.record_id === recordId);
    if (index < 0) return false;
    this.templates.set(
      templateId,
      records.filter((record) => record.record_id !== recordId),
    );
    return true;
  }

  /** Removes every template; the id counter keeps counting. */
  clear(): void {
    this.templates.clear();
  }

  private require(templateId: string): SandboxRecord[] {
    const records = this.templates.get(templateId);
    if (records === undefined) {
      throw new ApiError(404, "not_found", `template ${templateId} does not exist`);
    }
    return records;
  }

  private store(templateId: string, records: RecordInput[]): string[] {
    const stored = records.map((record) => makeRecord(this.newId(), record));
    this.templates.set(templateId, stored);
    return stored.map((record) => record.record_id);
  }

  private newId(): string {
    const id = `rec-${this.nextId}`;
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
