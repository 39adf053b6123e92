/**
 * The DomainRestore provider methods driven directly (as the engine's plugin would) against a real
 * sandbox: what check accepts, the one POST that create sends and what it answers, diff, and a
 * delete that sends nothing.
 */

import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { domainRestoreProvider } from "../../provider/dynamic";
import { DomainApiError, DomainNotInAccountError } from "../../provider/errors";
import { PartialFailure } from "../../provider/host/partialFailure";
import * as restore from "../../provider/restore/provider";
import { configureFor, PROVIDER } from "./helpers";

const API_KEY = "restore-test-key-3f9a";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
type Props = Record<string, unknown>;

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY });
  // Retries are allowed, so a POST that is not resent is not resent by choice.
  configureFor(restore, sandbox, API_KEY, { maxRetries: 3, timeoutMs: 2000 });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.reset();
});

/** check, expecting success; the engine adds `__provider` back to the inputs, so this does too. */
async function checked(news: Props): Promise<Props> {
  const result = await restore.check({}, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

async function failureOf(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

function posts() {
  return sandbox.requests.filter((r) => r.method === "POST");
}

describe("check", () => {
  it("lower-cases the domain, passes triggers through, and makes no request", async () => {
    const result = await restore.check(
      {},
      { __provider: PROVIDER, domain: "Shop.EXAMPLE", triggers: ["v1", 2] },
    );
    expect(result.failures ?? []).toEqual([]);
    expect(result.inputs).toEqual({ domain: "shop.example", triggers: ["v1", 2] });
    expect(sandbox.requests).toEqual([]);
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ["empty", "", /expected a domain name/],
    ["missing", undefined, /expected a domain name/],
    ["not a string", 42, /expected a domain name/],
    ["no TLD", "localhost", /no top-level domain/],
    ["a trailing dot", "shop.example.", /drop the trailing dot: "shop\.example"/],
    ["a scheme", "https://shop.example", /without scheme/],
    ["a path", "shop.example/restore", /without scheme or path/],
    ["a space inside", "shop example.com", /label "shop example" is not valid/],
    ["leading white space", " shop.example", /white space/],
    ["a label of 64 characters", `${"a".repeat(64)}.example`, /label "a{64}" is not valid/],
    ["an underscore", "shop_x.example", /label "shop_x" is not valid/],
    ["a punctuation mark", "ex!mple.com", /label "ex!mple" is not valid/],
    ["a leading hyphen", "-shop.example", /label "-shop" is not valid/],
    ["an empty label", "shop..example", /label "" is not valid/],
    ["a Unicode label that has no xn-- form", "bü!cher.example", /label "bü!cher" is not valid.*xn--/],
    ["more than 253 characters", `${"abcdefghi.".repeat(26)}example`, /253/],
  ];
  it.each(malformed)("refuses a domain with %s, naming the property", async (_what, domain, reason) => {
    const result = await restore.check({}, { __provider: PROVIDER, domain });
    expect(result.failures).toHaveLength(1);
    expect(result.failures?.[0]?.property).toBe("domain");
    expect(result.failures?.[0]?.reason).toMatch(reason);
    expect(sandbox.requests).toEqual([]);
  });

  it("accepts a label of 63 characters and an IDN in its xn-- form", async () => {
    expect(await checked({ domain: `${"a".repeat(63)}.example` })).toMatchObject({
      domain: `${"a".repeat(63)}.example`,
    });
    expect(await checked({ domain: "XN--Bcher-KVA.example" })).toMatchObject({
      domain: "xn--bcher-kva.example",
    });
  });

  it("takes an internationalized name in Unicode and passes on its xn-- form", async () => {
    expect(await checked({ domain: "bücher.example" })).toMatchObject({ domain: "xn--bcher-kva.example" });
    expect(await checked({ domain: "Bücher.Example" })).toMatchObject({ domain: "xn--bcher-kva.example" });
    expect(await checked({ domain: "shop.münchen" })).toMatchObject({ domain: "shop.xn--mnchen-3ya" });
    expect(sandbox.requests).toEqual([]);
  });

  // Node's url.domainToASCII reads its input as a URL host: it cuts at "?", "#" and "\", drops tabs
  // and line breaks and decodes "%", so each of these would be restored as "xn--bcher-kva.example".
  const notADomain = (domain: string, what: string, effect: string) =>
    `"${domain}" is not a domain name: ${what} has no place in one (Node's url.domainToASCII would ${effect}, ` +
    'and another domain would be restored); use letters, digits and inner hyphens, or an internationalized name such as "bücher.example"';
  it.each([
    ["bücher.example?x", '"?"', "cut the name there"],
    ["bücher.example#x", '"#"', "cut the name there"],
    ["bücher.example\\x", '"\\"', "cut the name there"],
    ["bü%63her.example", '"%"', "decode it"],
    ["bücher.ex\tample", "a tab", "drop it"],
    ["bücher.ex\nample", "a line break", "drop it"],
    ["bücher.ex\rample", "a line break", "drop it"],
  ])("refuses %j, which the mapping would turn into another domain", async (domain, what, effect) => {
    const result = await restore.check({}, { __provider: PROVIDER, domain });
    expect(result.failures).toEqual([{ property: "domain", reason: notADomain(domain, what, effect) }]);
    expect(sandbox.requests).toEqual([]);
  });

  it("refuses those characters in an ASCII name by its label, and a path outside ASCII as a path", async () => {
    const reasons = async (domain: string) =>
      (await restore.check({}, { __provider: PROVIDER, domain })).failures?.map((f) => f.reason);
    expect(await reasons("shop.example?x")).toEqual([
      'label "example?x" is not valid: use letters, digits and inner hyphens (an internationalized name such as "bücher.example" is sent in its xn-- form)',
    ]);
    expect(await reasons("bücher.example/x")).toEqual(["give the bare domain name, without scheme or path"]);
  });

  it("imports by an id in Unicode as its xn-- form, and keeps one the mapping would change for check to refuse", async () => {
    expect(restore.imported("Bücher.Example")).toEqual({
      props: { domain: "xn--bcher-kva.example" },
      inputs: { domain: "xn--bcher-kva.example" },
    });
    const kept = restore.imported("bücher.example?x");
    expect(kept).toEqual({ props: { domain: "bücher.example?x" }, inputs: { domain: "bücher.example?x" } });
    const result = await restore.check({}, { __provider: PROVIDER, ...kept.inputs });
    expect(result.failures).toEqual([
      { property: "domain", reason: notADomain("bücher.example?x", '"?"', "cut the name there") },
    ]);
  });

  it("refuses unknown inputs, naming each", async () => {
    const result = await restore.check(
      {},
      { __provider: PROVIDER, domain: "shop.example", colour: "blue", force: 1 },
    );
    const byProperty = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(["colour", "force"]);
    expect(byProperty.colour).toMatch(/unknown input; DomainRestore takes domain and triggers/);
  });

  it("reports every problem at once", async () => {
    const result = await restore.check({}, { __provider: PROVIDER, domain: "localhost", colour: "blue" });
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual(["colour", "domain"]);
  });

  it("lets a domain unknown during preview through", async () => {
    const result = await restore.check({}, { __provider: PROVIDER, domain: UNKNOWN });
    expect(result.failures ?? []).toEqual([]);
  });
});

describe("create", () => {
  it("restores a quarantined domain with one POST: id is the domain, outputs domain and restoredAt", async () => {
    expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
    const inputs = await checked({ domain: "Shop.Example" });
    const before = Math.floor(Date.now() / 1000) * 1000;
    const created = await restore.create(inputs);
    const after = Date.now();

    expect(created.id).toBe("shop.example");
    expect(created.outs).toEqual({
      domain: "shop.example",
      restoredAt: expect.stringMatching(DATETIME),
      baseUrl: sandbox.url,
    });
    const restoredAt = Date.parse((created.outs as Props).restoredAt as string);
    expect(restoredAt).toBeGreaterThanOrEqual(before);
    expect(restoredAt).toBeLessThanOrEqual(after);
    expect(sandbox.domainStatus("shop.example")).toBe("active");
    expect(sandbox.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "POST /v2/domains/shop.example/restore 204",
    ]);
    expect(sandbox.requests[0]?.query).toBe("");
    expect(sandbox.requests[0]?.body).toBeUndefined();
  });

  it("keeps the triggers in the outputs", async () => {
    const created = await restore.create(await checked({ domain: "old.example", triggers: ["ticket-42"] }));
    expect(created.outs).toMatchObject({ domain: "old.example", triggers: ["ticket-42"] });
    expect(sandbox.domainStatus("old.example")).toBe("active");
  });

  it("restores an IDN by its xn-- form, percent-encoded into the path", async () => {
    sandbox.setDomain("xn--bcher-kva.example", "quarantined");
    const created = await restore.create(await checked({ domain: "XN--BCHER-KVA.EXAMPLE" }));
    expect(created.id).toBe("xn--bcher-kva.example");
    expect(posts().map((r) => r.path)).toEqual([
      `/v2/domains/${encodeURIComponent("xn--bcher-kva.example")}/restore`,
    ]);
    expect(sandbox.domainStatus("xn--bcher-kva.example")).toBe("active");
  });

  it("restores a name given in Unicode by its xn-- form; the domain output is the xn-- form", async () => {
    sandbox.setDomain("xn--bcher-kva.example", "quarantined");
    const created = await restore.create(await checked({ domain: "Bücher.example" }));
    expect(created.id).toBe("xn--bcher-kva.example");
    expect(created.outs).toMatchObject({ domain: "xn--bcher-kva.example" });
    expect(posts().map((r) => r.path)).toEqual(["/v2/domains/xn--bcher-kva.example/restore"]);
    expect(sandbox.domainStatus("xn--bcher-kva.example")).toBe("active");
  });

  it("percent-encodes the domain, so no character of it can leave the path segment", async () => {
    // check would refuse these names; create must still not let them change the request.
    const err = await failureOf(() => restore.create({ domain: "odd?x=1#y.example" }));
    expect(posts().map((r) => `${r.path} ${r.query}`)).toEqual([
      "/v2/domains/odd%3Fx%3D1%23y.example/restore ",
    ]);
    expect(err.message).toMatch(/not in this account/);
    sandbox.clearRequests();
    await failureOf(() => restore.create({ domain: "a/b.example" }));
    expect(posts().map((r) => r.path)).toEqual(["/v2/domains/a%2Fb.example/restore"]);
  });

  it("passes on the API's message and status when the domain is not in quarantine (409)", async () => {
    const err = await failureOf(async () => restore.create(await checked({ domain: "live.example" })));
    expect(err).toBeInstanceOf(DomainApiError);
    expect((err as DomainApiError).status).toBe(409);
    expect(err.message).toMatch(/409/);
    expect(err.message).toContain(
      "domain live.example is not in quarantine (it is active); nothing to restore",
    );
    expect(posts()).toHaveLength(1);
    expect(sandbox.domainStatus("live.example")).toBe("active");
  });

  it("says the domain is not in this account when the API answers 404, beside the API's own words", async () => {
    const err = await failureOf(async () => restore.create(await checked({ domain: "nowhere.example" })));
    expect(err).toBeInstanceOf(DomainNotInAccountError);
    const typed = err as DomainNotInAccountError;
    expect(typed.code).toBe("DOMAINAPI_DOMAIN_NOT_IN_ACCOUNT");
    expect(typed.status).toBe(404);
    expect(typed.domain).toBe("nowhere.example");
    expect((typed.cause as DomainApiError).status).toBe(404);
    expect(err.message).toMatch(
      /Domain "nowhere\.example" is not in this account \(POST \S+ returned 404 Not Found/,
    );
    expect(typed.apiMessage).toBeTruthy();
    expect(err.message).toContain(JSON.stringify(typed.apiMessage));
    expect(err.message).toMatch(/API key/);
    expect(posts().map((r) => r.status)).toEqual([404]);
  });

  it("a 404 with a body the diagnosis did not foresee keeps the API's words in the message", async () => {
    sandbox.addFault({
      method: "POST",
      respond: { status: 404, body: '{"message":"API v2 is not enabled for reseller account"}' },
    });
    const err = await failureOf(async () => restore.create(await checked({ domain: "shop.example" })));
    expect(err).toBeInstanceOf(DomainNotInAccountError);
    expect(err.message).toContain('"API v2 is not enabled for reseller account"');
    expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
  });

  it("when the connection drops after the restore was applied: unknown, recorded as unconfirmed, confirmed by the next up", async () => {
    sandbox.addFault({ method: "POST", drop: "after" });
    const inputs = await checked({ domain: "shop.example", triggers: ["t1"] });
    const err = (await failureOf(async () => restore.create(inputs))) as Error & {
      id?: string;
      properties?: Props;
    };
    expect(err.message).toMatch(/outcome is unknown/);
    expect(err.message).toMatch(/may or may not have happened; it was not sent twice/);
    expect(err.message).toMatch(/pulumi up/);
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.dropped).toBe("after");
    expect(sandbox.domainStatus("shop.example")).toBe("active");
    // A partial failure: the engine records the resource, unconfirmed, with its provider and triggers.
    expect(err.id).toBe("shop.example");
    expect(err.properties).toEqual({
      domain: "shop.example",
      triggers: ["t1"],
      unconfirmed: true,
      __provider: PROVIDER,
    });
    expect((await restore.diff("shop.example", err.properties as Props, inputs)).changes).toBe(false);

    // The next up (an update, as the engine does for a resource with an initialization error)
    // asks again; the API's refusal because the domain is active is the confirmation.
    sandbox.clearRequests();
    const confirmed = await restore.update("shop.example", err.properties as Props, inputs);
    expect(posts().map((r) => r.status)).toEqual([409]);
    expect(confirmed.outs).toMatchObject({ domain: "shop.example", triggers: ["t1"] });
    expect(String((confirmed.outs as Props).restoredAt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((confirmed.outs as Props).unconfirmed).toBeUndefined();
  });

  it("when the connection drops before the restore was applied: unknown to us, and the next up restores", async () => {
    sandbox.addFault({ method: "POST", drop: "before" });
    const inputs = await checked({ domain: "shop.example" });
    const err = (await failureOf(async () => restore.create(inputs))) as Error & { properties?: Props };
    expect(err.message).toMatch(/may or may not have happened; it was not sent twice/);
    expect(posts()).toHaveLength(1);
    expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
    sandbox.clearRequests();
    const restored = await restore.update("shop.example", err.properties as Props, inputs);
    expect(posts().map((r) => r.status)).toEqual([204]);
    expect(sandbox.domainStatus("shop.example")).toBe("active");
    expect((restored.outs as Props).restoredAt).toBeDefined();
  });

  async function unconfirmed(domain: string): Promise<{ olds: Props; inputs: Props }> {
    const inputs = await checked({ domain });
    return { olds: { domain, unconfirmed: true, __provider: PROVIDER }, inputs };
  }

  it.each([
    [409, "Conflict"],
    [422, "Unprocessable Entity"],
    [400, "Bad Request"],
  ])("the confirming repeat settles on a %i refusal, quoting the API's words", async (status) => {
    const { olds, inputs } = await unconfirmed("live.example");
    const words = `Domain is not in quarantine (status ${status})`;
    sandbox.addFault({ method: "POST", respond: { status, body: JSON.stringify({ message: words }) } });
    // Without an engine, the SDK writes warnings to the console: read them there.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const confirmed = await restore.update("live.example", olds, inputs);
      expect(confirmed.outs).toMatchObject({
        domain: "live.example",
        restoredAt: expect.stringMatching(DATETIME),
      });
      expect((confirmed.outs as Props).unconfirmed).toBeUndefined();
      const warnings = warn.mock.calls.map((args) => String(args[0])).join("\n");
      expect(warnings).toContain(`refused a second restore with ${status}`);
      expect(warnings).toContain(JSON.stringify(words));
    } finally {
      warn.mockRestore();
    }
    expect(posts().map((r) => r.status)).toEqual([status]);
  });

  it.each([
    [401, "Authentication failed"],
    [403, "Authentication failed"],
  ])(
    "the confirming repeat does not settle on a %i: the error is passed on and the state stays unconfirmed",
    async (status, says) => {
      const { olds, inputs } = await unconfirmed("live.example");
      sandbox.addFault({ method: "POST", respond: { status } });
      const err = await failureOf(() => restore.update("live.example", olds, inputs));
      expect((err as DomainApiError).status).toBe(status);
      expect(err.message).toContain(says);
    },
  );

  // A 408 (the API gave up waiting for the request) and a 429 (the API pacing us) are refusals that
  // say nothing about the domain: neither may be taken for "no longer in quarantine". The domain is
  // still quarantined here, so a confirmation would record a restore that never happened.
  it.each([
    [408, {}, /POST \/v2\/domains\/shop\.example\/restore returned 408/],
    [429, { retryAfter: "3600" }, /asked to wait 3600 s/],
  ])(
    "a %i on the confirming repeat is no confirmation: the error is passed on, the state stays unconfirmed, and the next up asks again",
    async (status, extra, says) => {
      const { olds, inputs } = await unconfirmed("shop.example");
      const stored = structuredClone(olds);
      const words = `request not handled (status ${status})`;
      sandbox.addFault({
        method: "POST",
        respond: { status, body: JSON.stringify({ message: words }), ...extra },
      });
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      let err: Error;
      try {
        err = await failureOf(() => restore.update("shop.example", olds, inputs));
        expect(warn.mock.calls.map((args) => String(args[0])).join("\n")).not.toMatch(
          /refused a second restore/,
        );
      } finally {
        warn.mockRestore();
      }
      // What it says: the API's status and words, and that the request was sent once, unapplied.
      expect(err).toBeInstanceOf(DomainApiError);
      const typed = err as DomainApiError;
      expect(typed.status).toBe(status);
      expect(typed.outcome).toBe("not-applied");
      expect(typed.apiMessage).toBe(words);
      expect(err.message).toMatch(says);
      expect(err.message).toContain(`: ${words}.`);
      expect(err.message).not.toMatch(/Recorded as restored/);
      // What the state says: an error without id and properties is no partial failure, so the
      // engine keeps the stored state as it was: unconfirmed, no restoredAt.
      expect(err).not.toBeInstanceOf(PartialFailure);
      expect(err).not.toHaveProperty("properties");
      expect(olds).toEqual(stored);
      expect(olds).toMatchObject({ unconfirmed: true });
      expect(olds).not.toHaveProperty("restoredAt");
      expect(posts().map((r) => r.status)).toEqual([status]);
      expect(sandbox.domainStatus("shop.example")).toBe("quarantined");

      // The next up, from that state, asks again; this time the API restores the domain.
      sandbox.clearRequests();
      const restored = await restore.update("shop.example", olds, inputs);
      expect(posts().map((r) => r.status)).toEqual([204]);
      expect(sandbox.domainStatus("shop.example")).toBe("active");
      expect(restored.outs).toEqual({
        domain: "shop.example",
        restoredAt: expect.stringMatching(DATETIME),
        baseUrl: sandbox.url,
      });
    },
  );

  it("the confirming repeat of a domain the account does not hold fails as not in this account", async () => {
    const { olds, inputs } = await unconfirmed("nowhere.example");
    const err = await failureOf(() => restore.update("nowhere.example", olds, inputs));
    expect(err).toBeInstanceOf(DomainNotInAccountError);
  });

  it("update of a confirmed restore makes no request", async () => {
    const inputs = await checked({ domain: "shop.example" });
    const created = await restore.create(inputs);
    sandbox.clearRequests();
    const same = await restore.update(
      "shop.example",
      { ...(created.outs as Props), __provider: PROVIDER },
      inputs,
    );
    expect(posts()).toEqual([]);
    expect(same.outs).toEqual(created.outs);
  });
});

describe("diff", () => {
  async function outsFor(news: Props): Promise<Props> {
    const created = await restore.create(await checked(news));
    return { ...(created.outs as Props), __provider: PROVIDER };
  }

  it("the same domain and triggers: no changes", async () => {
    const olds = await outsFor({ domain: "shop.example", triggers: ["v1"] });
    const result = await restore.diff(
      "shop.example",
      olds,
      await checked({ domain: "SHOP.example", triggers: ["v1"] }),
    );
    expect(result.changes).toBe(false);
    expect(result.replaces).toEqual([]);
  });

  it("no triggers before or after: no changes", async () => {
    const olds = await outsFor({ domain: "shop.example" });
    expect(
      (await restore.diff("shop.example", olds, await checked({ domain: "shop.example" }))).changes,
    ).toBe(false);
  });

  it("a new domain replaces", async () => {
    const olds = await outsFor({ domain: "shop.example" });
    const result = await restore.diff("shop.example", olds, await checked({ domain: "old.example" }));
    expect(result).toMatchObject({ changes: true, replaces: ["domain"] });
  });

  it("new, added or removed triggers replace", async () => {
    const olds = await outsFor({ domain: "shop.example", triggers: ["v1"] });
    const changed = await restore.diff(
      "shop.example",
      olds,
      await checked({ domain: "shop.example", triggers: ["v2"] }),
    );
    expect(changed).toMatchObject({ changes: true, replaces: ["triggers"] });
    const removed = await restore.diff("shop.example", olds, await checked({ domain: "shop.example" }));
    expect(removed).toMatchObject({ changes: true, replaces: ["triggers"] });

    const bare = { domain: "shop.example", restoredAt: "2026-01-01T00:00:00Z", __provider: PROVIDER };
    const added = await restore.diff(
      "shop.example",
      bare,
      await checked({ domain: "shop.example", triggers: [1] }),
    );
    expect(added).toMatchObject({ changes: true, replaces: ["triggers"] });
  });

  it("makes no request", async () => {
    const olds = { domain: "shop.example", restoredAt: "2026-01-01T00:00:00Z", __provider: PROVIDER };
    await restore.diff("shop.example", olds, await checked({ domain: "old.example" }));
    expect(sandbox.requests).toEqual([]);
  });
});

describe("delete and refresh", () => {
  it("delete makes no request and leaves the domain as it is", async () => {
    const created = await restore.create(await checked({ domain: "shop.example" }));
    sandbox.clearRequests();
    await expect(restore.delete(created.id, created.outs as Props)).resolves.toBeUndefined();
    expect(sandbox.requests).toEqual([]);
    expect(sandbox.domainStatus("shop.example")).toBe("active");
  });

  it("refresh keeps the state as it is: there is no read, so the engine's dynamic host returns the state unchanged", async () => {
    // The spec has no GET for a domain. A dynamic provider without `read` is answered by the
    // Pulumi SDK's host with the stored state itself; a read of our own could only repeat that.
    expect("read" in restore).toBe(false);
    expect(domainRestoreProvider.read).toBeUndefined();
    const host = await import("node:fs").then((fs) =>
      fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8"),
    );
    expect(host).toMatch(/if \(provider\.read\)[\s\S]*?else \{[\s\S]*?return back the input state/);
  });
});
