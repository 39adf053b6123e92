/**
 * The executor against the sandbox: one planned request sent as the method the plan chose, and its
 * answer classified as the run loop reads it (docs/design.md, "Records changed outside Pulumi"): a
 * 404 to a request that names record ids is a refusal; to one that names none (a PUT, or a PATCH of
 * adds only), the template is gone; a failure that may have applied is of unknown outcome.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DomainApiClient } from "../../../provider/client/api";
import { DomainApiError, TemplateNotFoundError } from "../../../provider/errors";
import { send } from "../../../provider/records/apply";
import {
  createCorrection,
  deleteCorrection,
  type HeldRecord,
  type KeyedRecord,
  putOf,
  requestOf,
} from "../../../provider/records/corrections";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";

const sandbox = useSandbox();
let api: DomainApiClient;
const client = () => api;

beforeAll(async () => {
  api = new DomainApiClient({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: 5000, maxRetries: 0 });
  // The first request of a worker pays for the transport's start (seconds on a loaded machine).
  await api.putRecords("tpl-warm", []).catch(() => undefined);
}, 60_000);

const www: KeyedRecord = { name: "www", type: "A", content: "192.0.2.1", key: "www/A" };
const mail: KeyedRecord = { name: "mail", type: "A", content: "192.0.2.2", key: "mail/A" };

function changing(): string[] {
  return sandbox.requests.filter((r) => r.method !== "GET").map((r) => r.method);
}

describe("send", () => {
  it("sends a PUT plan as a PUT and answers the ids the template now holds", async () => {
    sandbox.seedTemplate("tpl-1", [{ name: "old", type: "TXT", content: "gone after the PUT" }]);
    const outcome = await send(client(), "tpl-1", putOf([www, mail]));
    const held = sandbox.templateRecords("tpl-1") ?? [];
    expect(changing()).toEqual(["PUT"]);
    expect(held.map((r) => r.name).sort()).toEqual(["mail", "www"]);
    expect(outcome).toEqual({ kind: "accepted", ids: held.map((r) => r.record_id) });
  });

  it("sends a PATCH plan as a PATCH, which adds beside what the template holds", async () => {
    sandbox.seedTemplate("tpl-1", [{ name: "old", type: "TXT", content: "kept" }]);
    const outcome = await send(client(), "tpl-1", requestOf([createCorrection(www)]));
    expect(changing()).toEqual(["PATCH"]);
    const added = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.name === "www");
    expect(sandbox.templateRecords("tpl-1")).toHaveLength(2);
    expect(outcome).toEqual({ kind: "accepted", ids: [added!.record_id] });
  });

  it("reads a 404 to a PATCH naming a record id as a refusal: the record vanished, not the template", async () => {
    sandbox.seedTemplate("tpl-1", []);
    const vanished: HeldRecord = { ...www, recordId: "rec-gone" };
    const outcome = await send(client(), "tpl-1", requestOf([deleteCorrection(vanished)]));
    expect(outcome.kind).toBe("refused");
    if (outcome.kind !== "refused") return;
    expect(outcome.error).toBeInstanceOf(DomainApiError);
    expect(outcome.error).not.toBeInstanceOf(TemplateNotFoundError);
    expect((outcome.error as DomainApiError).status).toBe(404);
  });

  it("reads a 404 to a PATCH of adds only as the template gone, naming it", async () => {
    const outcome = await send(client(), "tpl-missing", requestOf([createCorrection(www)]));
    expect(outcome.kind).toBe("template-gone");
    if (outcome.kind !== "template-gone") return;
    expect(outcome.error).toBeInstanceOf(TemplateNotFoundError);
    expect((outcome.error as Error).message).toMatch(/^DNS template "tpl-missing" was not found/);
  });

  it("reads a 404 to a PUT as the template gone, naming it", async () => {
    const outcome = await send(client(), "tpl-missing", putOf([www]));
    expect(outcome.kind).toBe("template-gone");
    if (outcome.kind !== "template-gone") return;
    expect(outcome.error).toBeInstanceOf(TemplateNotFoundError);
    expect((outcome.error as TemplateNotFoundError).templateId).toBe("tpl-missing");
  });

  it("reads an answer lost after the change applied as of unknown outcome", async () => {
    sandbox.seedTemplate("tpl-1", []);
    sandbox.addFault({ method: "PATCH", drop: "after" });
    const outcome = await send(client(), "tpl-1", requestOf([createCorrection(www)]));
    expect(outcome.kind).toBe("unknown");
    expect(sandbox.templateRecords("tpl-1")).toHaveLength(1);
    if (outcome.kind === "unknown") expect((outcome.error as DomainApiError).outcome).toBe("unknown");
  });

  it("reads a refusal that applied nothing (a 400) as failed, not as of unknown outcome", async () => {
    sandbox.seedTemplate("tpl-1", []);
    sandbox.addFault({ method: "PATCH", respond: { status: 400, body: '{"message":"bad record"}' } });
    const outcome = await send(client(), "tpl-1", requestOf([createCorrection(www)]));
    expect(outcome.kind).toBe("failed");
    if (outcome.kind === "failed") expect((outcome.error as DomainApiError).outcome).toBe("not-applied");
    expect(sandbox.templateRecords("tpl-1")).toEqual([]);
  });

  it("reads an error that is not the API's as failed, never throwing it", async () => {
    const broken = new TypeError("no connection pool");
    const api = {
      patchRecords: () => Promise.reject(broken),
      putRecords: () => Promise.reject(broken),
    };
    await expect(send(api, "tpl-1", putOf([www]))).resolves.toEqual({ kind: "failed", error: broken });
  });
});
