/**
 * The DnsTemplateRecords provider methods driven directly (as the engine's plugin would) against a
 * real sandbox: what each method sends, what the state says afterwards, and what survives a fault.
 */

import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DomainApiError } from "../../../provider/errors";
import { UNKNOWN } from "../../../provider/host/engine";
import { PartialFailure } from "../../../provider/host/partialFailure";
import * as records from "../../../provider/records/provider";
import { configureFor, failurePath, PROVIDER } from "../helpers";

const API_KEY = "provider-test-key-5b1e";
type Props = Record<string, unknown>;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY });
  configureFor(records, sandbox, API_KEY, { maxRetries: 1, timeoutMs: 2000 });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.reset();
});

const web = [
  { name: "WWW", type: "cname", content: "{domainname}." },
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
];

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

function heldIn(templateId: string) {
  return (sandbox.templateRecords(templateId) ?? [])
    .map((r) => `${r.name} ${r.type} ${r.priority ?? ""} ${r.content}`.replace("  ", " "))
    .sort();
}

function idsOf(outs: Props): string[] {
  return Object.values(outs.ids as Record<string, string>).sort();
}

async function failureOf(fn: () => Promise<unknown>): Promise<Error & { id?: string; properties?: Props }> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

describe("check", () => {
  it("canonicalizes (type upper-case, name lower-case, keyed, defaults) and makes no request", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    expect(inputs).toEqual({
      __provider: PROVIDER,
      templateId: "tpl-1",
      purge: true,
      safetyThreshold: { minExistingRecords: 10, maxChangePercent: 30 },
      records: {
        "@/A": { name: "@", type: "A", content: "192.0.2.10" },
        "@/MX": { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
        "www/CNAME": { name: "www", type: "CNAME", content: "{domainname}." },
      },
    });
    expect(sandbox.requests).toEqual([]);
  });

  it("names the property path and the fix of every failure", async () => {
    const result = await records.check(
      {},
      {
        templateId: "",
        records: [
          { name: "@", type: "MX", content: "mx.example.net" },
          { name: "x", type: "A", content: "1.2.3" },
        ],
        purge: "yes",
        colour: "blue",
      },
    );
    const byProperty = Object.fromEntries((result.failures ?? []).map((f) => [failurePath(f), f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(
      ["colour", "purge", "records[0].priority", "records[1].content", "templateId"].sort(),
    );
    expect(byProperty["records[0].priority"]).toMatch(/priority/);
    expect(byProperty.purge).toMatch(/true|false/);
    expect(sandbox.requests).toEqual([]);
  });

  it("lets values unknown during preview through, to be checked when they are known", async () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const result = await records.check(
      {},
      { templateId: "tpl-1", records: [{ name: "@", type: "A", content: unknown }] },
    );
    expect(result.failures ?? []).toEqual([]);
    // A misspelt input name is still refused: it does not depend on any value.
    const misspelt = await records.check(
      {},
      { templateId: "tpl-1", record: [], records: [{ name: "@", type: "A", content: unknown }] },
    );
    expect(misspelt.failures?.map((f) => f.property)).toEqual(["record"]);
  });

  it("applies the safety threshold against the previous inputs", async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({
      name: `h${i}`,
      type: "A",
      content: `192.0.2.${i}`,
    }));
    const olds = await checked({ templateId: "tpl-1", records: twelve });
    const result = await records.check(olds, { templateId: "tpl-1", records: twelve.slice(0, 4) });
    // The refusal comes first, with its numbers, never after the whole record list.
    expect(result.failures?.[0]?.property).toBe("");
    expect(result.failures?.[0]?.reason).toMatch(/^refusing to update or delete 8 of 12 /);
    const allowed = await records.check(olds, {
      templateId: "tpl-1",
      records: twelve.slice(0, 4),
      safetyThreshold: false,
    });
    expect(allowed.failures ?? []).toEqual([]);
  });
});

describe("create, update, delete", () => {
  it("creates with one PUT, updates with the minimal plan keeping ids, deletes with one PATCH", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    expect(created.id).toBe("tpl-1");
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PUT"]);
    const ids = idsOf(created.outs as Props);
    expect(ids).toEqual((sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort());

    const changed = web.map((r) => (r.type === "MX" ? { ...r, priority: 20 } : r));
    const next = await checked({ templateId: "tpl-1", records: changed }, inputs);
    expect((await records.diff("tpl-1", created.outs as Props, next)).changes).toBe(true);
    sandbox.clearRequests();
    const updated = await records.update("tpl-1", created.outs as Props, next);
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH"]);
    expect(idsOf(updated.outs as Props)).toEqual(ids);
    expect((await records.diff("tpl-1", updated.outs as Props, next)).changes).toBe(false);

    sandbox.clearRequests();
    await records.delete("tpl-1", updated.outs as Props);
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH"]);
    expect(sandbox.templateRecords("tpl-1")).toEqual([]);
  });

  it("says that the create's PUT replaces whatever the template held", async () => {
    sandbox.seedTemplate("web", [{ name: "legacy", type: "TXT", content: "made by hand" }]);
    const inputs = await checked({ templateId: "web", records: web });
    const created = await records.create(inputs);
    expect((created.outs as Props).lastPlan).toBe(
      "3 to create (1 request: a PUT, which replaces whatever records the template holds: the API cannot list them, so they are not shown)",
    );
    expect(heldIn("web")).not.toContain("legacy TXT made by hand");
  });

  it("re-checks its own stored (keyed) inputs without a failure or a change", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web, purge: false });
    const again = await records.check(inputs, inputs);
    expect(again.failures ?? []).toEqual([]);
    expect({ ...(again.inputs as Props), __provider: PROVIDER }).toEqual(inputs);
  });

  it("a preview with values not known yet plans a change, wherever the unknown is, and sends nothing", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    sandbox.clearRequests();
    const keyed = inputs.records as Record<string, Props>;
    const [firstKey] = Object.keys(keyed);
    const withUnknown: Props[] = [
      { ...inputs, records: UNKNOWN },
      { ...inputs, records: [...web.slice(1), { ...web[0], content: UNKNOWN }] },
      { ...inputs, records: [UNKNOWN] },
      {
        ...inputs,
        records: { ...keyed, [firstKey as string]: { ...keyed[firstKey as string], content: UNKNOWN } },
      },
      {
        ...inputs,
        records: { ...keyed, [firstKey as string]: { ...keyed[firstKey as string], ttl: UNKNOWN } },
      },
      { ...inputs, records: { ...keyed, [firstKey as string]: UNKNOWN } },
      { ...inputs, purge: UNKNOWN },
    ];
    // A plan of what is not known yet would be a false story (an unknown list read as empty would
    // announce every record deleted): the preview says only that something changes.
    const said: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => {
      said.push(String(line));
    });
    try {
      for (const news of withUnknown) {
        expect(await records.diff("tpl-1", created.outs as Props, news)).toEqual({ changes: true });
      }
      expect((await records.diff("tpl-1", created.outs as Props, inputs)).changes).toBe(false);
    } finally {
      spy.mockRestore();
    }
    expect(said).toEqual([]);
    expect(sandbox.requests).toEqual([]);
  });

  it("a new templateId is a replacement", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    const moved = await checked({ templateId: "tpl-2", records: web });
    expect(await records.diff("tpl-1", created.outs as Props, moved)).toMatchObject({
      replaces: ["templateId"],
    });
  });

  it("with purge: false, creates with one PATCH per record and leaves other records alone", async () => {
    sandbox.seedTemplate("web", [{ name: "legacy", type: "TXT", content: "keep me" }]);
    const inputs = await checked({ templateId: "web", records: web, purge: false });
    const created = await records.create(inputs);
    expect(created.id).toMatch(/^web\//);
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH", "PATCH", "PATCH"]);
    await records.delete(created.id, created.outs as Props);
    expect(heldIn("web")).toEqual(["legacy TXT keep me"]);
  });

  it("fails create naming the template when it does not exist", async () => {
    const inputs = await checked({ templateId: "no-such-template", records: web });
    const err = await failureOf(() => records.create(inputs));
    expect(err.message).toMatch(/template "no-such-template" was not found.*templateId/);
    expect((err as Error & { code?: string }).code).toBe("DOMAINAPI_TEMPLATE_NOT_FOUND");
  });
});

describe("partial failure", () => {
  it("records exactly what the API applied when the 2nd PATCH fails, and the retry finishes the job", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    const more = [
      ...web,
      { name: "a1", type: "A", content: "192.0.2.41" },
      { name: "a2", type: "A", content: "192.0.2.42" },
      { name: "a3", type: "A", content: "192.0.2.43" },
    ];
    const next = await checked({ templateId: "tpl-1", records: more }, inputs);
    sandbox.addFault({ method: "PATCH", nth: 2, respond: { status: 500 } });
    const err = await failureOf(() => records.update("tpl-1", created.outs as Props, next));
    expect(err.message).toMatch(/500/);
    expect(err.id).toBe("tpl-1");
    const partial = err.properties as Props;
    expect(partial.__provider).toBe(PROVIDER);
    expect(idsOf(partial)).toEqual((sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort());
    expect(Object.keys(partial.ids as object)).toHaveLength(4);

    sandbox.clearFaults();
    sandbox.clearRequests();
    const finished = await records.update("tpl-1", partial, next);
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PATCH", "PATCH"]);
    expect(heldIn("tpl-1")).toHaveLength(6);
    expect(idsOf(finished.outs as Props)).toEqual(
      (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort(),
    );
  });

  it("says the outcome is unknown when an add's connection dropped after it was applied, then rewrites with a PUT", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    const next = await checked(
      { templateId: "tpl-1", records: [...web, { name: "b", type: "A", content: "192.0.2.9" }] },
      inputs,
    );
    sandbox.addFault({ method: "PATCH", drop: "after" });
    const err = await failureOf(() => records.update("tpl-1", created.outs as Props, next));
    expect(err.message).toMatch(/unknown/i);
    expect(err.message).toMatch(/pulumi up/);
    const partial = err.properties as Props;
    expect(partial.untrackedAdds).toBe(true);
    // The add landed (the sandbox applied it) but its id is unknown to the state.
    expect(heldIn("tpl-1")).toHaveLength(4);
    expect(Object.keys(partial.ids as object)).toHaveLength(3);
    expect((await records.diff("tpl-1", partial, next)).changes).toBe(true);

    sandbox.clearRequests();
    const healed = await records.update("tpl-1", partial, next);
    expect(sandbox.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(heldIn("tpl-1")).toHaveLength(4);
    expect((healed.outs as Props).untrackedAdds).toBeUndefined();
    expect(idsOf(healed.outs as Props)).toEqual(
      (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort(),
    );
  });
});

describe("records changed outside Pulumi", () => {
  it("without purge, an update of a vanished record becomes an add; a delete of a vanished record is done", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web, purge: false });
    const created = await records.create(inputs);
    const held = sandbox.templateRecords("tpl-1") ?? [];
    const www = held.find((r) => r.name === "www");
    const apex = held.find((r) => r.type === "A");
    sandbox.deleteRecord("tpl-1", www?.record_id as string);
    sandbox.deleteRecord("tpl-1", apex?.record_id as string);
    const next = await checked(
      {
        templateId: "tpl-1",
        purge: false,
        records: [
          { name: "www", type: "CNAME", content: "web.{domainname}." },
          { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
        ],
      },
      inputs,
    );
    sandbox.clearRequests();
    const updated = await records.update(created.id, created.outs as Props, next);
    // The verified PATCH (404), one probe per record found vanished (the search gallops from one
    // record: the apex A's delete, then the www update), the MX's verification accepted, then the
    // re-add of the updated record.
    expect(sandbox.requests.map((r) => `${r.method} ${r.status}`)).toEqual([
      "PATCH 404",
      "PATCH 404",
      "PATCH 404",
      "PATCH 204",
      "PATCH 200",
    ]);
    expect(heldIn("tpl-1")).toEqual(["@ MX 10 mx1.example.net", "www CNAME web.{domainname}."]);
    expect(idsOf(updated.outs as Props)).toEqual(
      (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort(),
    );
  });

  it("with purge, a vanished record makes the update one PUT of the declared set", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    const www = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.name === "www");
    sandbox.deleteRecord("tpl-1", www?.record_id as string);
    const changed = web.map((r) => (r.type === "A" ? { ...r, content: "192.0.2.11" } : r));
    const next = await checked({ templateId: "tpl-1", records: changed }, inputs);
    sandbox.clearRequests();
    const updated = await records.update("tpl-1", created.outs as Props, next);
    expect(sandbox.requests.map((r) => r.method).at(-1)).toBe("PUT");
    expect(heldIn("tpl-1")).toEqual(["@ A 192.0.2.11", "@ MX 10 mx1.example.net", "www CNAME {domainname}."]);
    // The summary says what was done, not only what was planned.
    expect((updated.outs as Props).lastPlan).toMatch(
      /1 to update.*; then all 3 records rewritten with one PUT to restore what was removed outside Pulumi/,
    );
    expect(idsOf(updated.outs as Props)).toEqual(
      (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort(),
    );
  });

  it("the verifying PATCH dropped on every attempt, then answered 503: each up fails naming why, nothing is changed, the next up converges", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web, purge: false });
    const created = await records.create(inputs);
    const apex = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.type === "A");
    sandbox.deleteRecord("tpl-1", apex?.record_id as string);
    const before = heldIn("tpl-1");
    const changed = web.map((r) => (r.type === "MX" ? { ...r, content: "mx2.example.net" } : r));
    const next = await checked({ templateId: "tpl-1", records: changed, purge: false }, inputs);
    const olds: Props = { ...(created.outs as Props), __provider: PROVIDER };

    const unchanged = (err: Error & { properties?: Props }) => {
      // Nothing was applied: the state keeps what it held, and the template is as it was.
      expect(err).toBeInstanceOf(PartialFailure);
      expect(err.properties?.ids).toEqual(olds.ids);
      expect(err.properties?.records).toEqual(olds.records);
      expect(String(err.properties?.lastPlan)).toMatch(/^failed: /);
      expect(heldIn("tpl-1")).toEqual(before);
    };

    sandbox.clearRequests();
    sandbox.addFault({ method: "PATCH", drop: "before", times: 10 });
    const dropped = await failureOf(() => records.update("tpl-1", olds, next));
    // The verifying PATCH carries no add, so it is safe to repeat: resent as maxRetries allows.
    expect(sandbox.requests.map((r) => `${r.method} ${r.dropped}`)).toEqual(["PATCH before", "PATCH before"]);
    const lost = dropped.cause as DomainApiError;
    expect(lost).toBeInstanceOf(DomainApiError);
    expect(lost).toMatchObject({
      code: "DOMAINAPI_NETWORK",
      method: "PATCH",
      outcome: "unknown",
      retryable: true,
      attempts: 2,
    });
    expect(dropped.message).toMatch(
      /^PATCH \/v2\/dns\/templates\/tpl-1\/records lost the connection .* after 2 attempts\. The request is safe to repeat: run the operation again\./,
    );
    // No add was sent, so nothing may be said about one being added twice.
    expect(dropped.message).not.toMatch(/being added|added again|duplicate/);
    unchanged(dropped);

    sandbox.clearFaults();
    sandbox.clearRequests();
    sandbox.addFault({ method: "PATCH", respond: { status: 503 }, times: 10 });
    const busy = await failureOf(() => records.update("tpl-1", dropped.properties as Props, next));
    expect(sandbox.requests.map((r) => `${r.method} ${r.status}`)).toEqual(["PATCH 503", "PATCH 503"]);
    expect(busy.cause).toMatchObject({ status: 503, outcome: "not-applied", attempts: 2 });
    expect(busy.message).toMatch(
      /^PATCH \/v2\/dns\/templates\/tpl-1\/records returned 503 Service Unavailable \(after 2 attempts\)/,
    );
    expect(busy.message).toMatch(/\[DOMAINAPI_HTTP, HTTP 503, outcome: not-applied\]/);
    unchanged(busy);

    sandbox.clearFaults();
    const converged = await records.update("tpl-1", busy.properties as Props, next);
    expect(heldIn("tpl-1")).toEqual(["@ A 192.0.2.10", "@ MX 10 mx2.example.net", "www CNAME {domainname}."]);
    expect(idsOf(converged.outs as Props)).toEqual(
      (sandbox.templateRecords("tpl-1") ?? []).map((r) => r.record_id).sort(),
    );
  });

  it("delete succeeds when the template is gone", async () => {
    const inputs = await checked({ templateId: "tpl-3", records: web });
    const created = await records.create(inputs);
    sandbox.deleteTemplate("tpl-3");
    await expect(records.delete("tpl-3", created.outs as Props)).resolves.toBeUndefined();
  });
});

describe("the seams of the records path", () => {
  it("refuses records given as an object (a JavaScript or YAML program), naming the property", async () => {
    const result = await records.check(
      {},
      { templateId: "tpl-1", records: { www: { name: "www", type: "A", content: "192.0.2.1" } } },
    );
    expect(result.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^records: expected a list of records/) },
    ]);
    // Also on an update, where the previous inputs are keyed: only check()'s own keyed records pass.
    const olds = await checked({ templateId: "tpl-1", records: web });
    const again = await records.check(olds, {
      templateId: "tpl-1",
      records: { "www/A": { name: "www", type: "A", content: "192.0.2.1" } },
    });
    expect(again.failures?.map(failurePath)).toEqual(["records"]);
    expect(sandbox.requests).toEqual([]);
  });

  it("an error raised deep in an update reaches the engine with its status, outcome and cause", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    const next = await checked(
      {
        templateId: "tpl-1",
        records: web.map((r) => (r.type === "A" ? { ...r, content: "192.0.2.12" } : r)),
      },
      inputs,
    );
    sandbox.addFault({
      method: "PATCH",
      respond: { status: 500, body: JSON.stringify({ message: "backend exploded" }) },
    });
    const err = await failureOf(() => records.update("tpl-1", created.outs as Props, next));
    // The engine shows the message: the API's words, the status, the stable code and the outcome.
    expect(err.message).toMatch(/500/);
    expect(err.message).toMatch(/backend exploded/);
    expect(err.message).toMatch(/DOMAINAPI_HTTP, HTTP 500, outcome: not-applied/);
    const cause = (err as Error & { cause?: { status?: number; outcome?: string } }).cause;
    expect(cause?.status).toBe(500);
    expect(cause?.outcome).toBe("not-applied");
    // The state reached is recorded: nothing was applied, every record keeps its id.
    expect(idsOf(err.properties as Props)).toEqual(idsOf(created.outs as Props));
  });

  it("sees no change and sends nothing when the program reorders its records", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    sandbox.clearRequests();
    const reordered = await checked({ templateId: "tpl-1", records: [...web].reverse() }, inputs);
    expect(reordered).toEqual(inputs);
    expect((await records.diff("tpl-1", created.outs as Props, reordered)).changes).toBe(false);
    expect(sandbox.requests).toEqual([]);
  });

  it("keeps a record's key when a sibling of its name and type goes away", async () => {
    const mx = [
      { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
      { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
    ];
    const inputs = await checked({ templateId: "tpl-1", records: mx });
    expect(Object.keys(inputs.records as object)).toEqual(["@/MX/mx1.example.net", "@/MX/mx2.example.net"]);
    const next = await checked({ templateId: "tpl-1", records: mx.slice(1) }, inputs);
    expect(Object.keys(next.records as object)).toEqual(["@/MX/mx2.example.net"]);
  });

  it("the safety threshold can be lifted for one run with DOMAINAPI_SAFETY_THRESHOLD=off, named in the refusal", async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({
      name: `h${i}`,
      type: "A",
      content: `192.0.2.${i}`,
    }));
    const olds = await checked({ templateId: "tpl-1", records: twelve });
    const refused = await records.check(olds, { templateId: "tpl-1", records: twelve.slice(0, 2) });
    expect(refused.failures?.[0]?.reason).toMatch(/DOMAINAPI_SAFETY_THRESHOLD=off/);
    process.env.DOMAINAPI_SAFETY_THRESHOLD = "off";
    try {
      const allowed = await records.check(olds, { templateId: "tpl-1", records: twelve.slice(0, 2) });
      expect(allowed.failures ?? []).toEqual([]);
    } finally {
      delete process.env.DOMAINAPI_SAFETY_THRESHOLD;
    }
  });

  it("without purge, an add of unknown outcome is never sent again, and the state keeps saying so", async () => {
    const inputs = await checked({ templateId: "web", records: web, purge: false });
    const created = await records.create(inputs);
    const next = await checked(
      { templateId: "web", purge: false, records: [...web, { name: "b", type: "A", content: "192.0.2.9" }] },
      inputs,
    );
    // The first PATCH verifies the held records (no add beside them); the second adds "b" and its
    // connection drops after the sandbox applied it.
    sandbox.addFault({ method: "PATCH", nth: 2, drop: "after" });
    const err = await failureOf(() => records.update(created.id, created.outs as Props, next));
    expect(err.message).toMatch(/not added again automatically/);
    const partial = err.properties as Props;
    expect(partial.untrackedAdds).toBe(true);
    expect(partial.untrackedRecords).toEqual(["b A 192.0.2.9"]);
    sandbox.clearFaults();
    sandbox.clearRequests();
    // The next up does not add "b" a second time (it exists, unknown to the state).
    const after = await records.update(created.id, partial, next);
    expect(sandbox.requests.filter((r) => (r.body as { add?: unknown[] } | undefined)?.add)).toEqual([]);
    expect(heldIn("web").filter((r) => r === "b A 192.0.2.9")).toHaveLength(1);
    expect((after.outs as Props).untrackedRecords).toEqual(["b A 192.0.2.9"]);
  });
});

describe("refresh", () => {
  it("sends nothing and keeps the state while verification is off (the default)", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    sandbox.clearRequests();
    const read = await records.read("tpl-1", created.outs as Props);
    expect(read.props).toEqual(created.outs);
    expect(sandbox.requests).toEqual([]);
  });

  it("with verifyOnRefresh, drops the records that vanished from outputs and inputs", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: web });
    const created = await records.create(inputs);
    const www = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.name === "www");
    sandbox.deleteRecord("tpl-1", www?.record_id as string);
    process.env.DOMAINAPI_VERIFY_ON_REFRESH = "true";
    try {
      sandbox.clearRequests();
      const read = await records.read("tpl-1", created.outs as Props);
      expect(Object.keys((read.props as Props).records as object).sort()).toEqual(["@/A", "@/MX"]);
      expect(Object.keys((read.inputs as Props).records as object).sort()).toEqual(["@/A", "@/MX"]);
      expect(idsOf(read.props as Props)).toEqual(
        idsOf({
          ids: Object.fromEntries(
            (sandbox.templateRecords("tpl-1") ?? []).map((r) => [r.record_id, r.record_id]),
          ),
        }),
      );
      for (const r of sandbox.requests) expect(Object.keys(r.body as object)).toEqual(["update"]);
    } finally {
      delete process.env.DOMAINAPI_VERIFY_ON_REFRESH;
    }
  });
});
