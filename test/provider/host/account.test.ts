/**
 * A resource belongs to the API it was made on (docs/design.md, "Accounts"): the dynamic resources
 * keep the base address in their outputs, and a configured one that differs is refused before
 * anything is sent, naming both addresses and the way to move; with
 * DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1 the records are written to the new API as a create would.
 * Driven at the provider-method level against two real sandboxes, counting their requests.
 */
import * as pulumi from "@pulumi/pulumi";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigError } from "../../../provider/errors";
import { ACCEPT_BASE_URL_CHANGE_ENV } from "../../../provider/host/account";
import * as records from "../../../provider/records/provider";
import * as restore from "../../../provider/restore/provider";
import { configureFor, PROVIDER } from "../helpers";

const KEY = "account-move-key-3c1d";
type Props = Record<string, unknown>;
let one: Sandbox;
let two: Sandbox;

beforeAll(async () => {
  [one, two] = await Promise.all([startSandbox({ apiKey: KEY }), startSandbox({ apiKey: KEY })]);
});
afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});
beforeEach(() => {
  one.reset();
  two.reset();
  delete process.env[ACCEPT_BASE_URL_CHANGE_ENV];
});
afterEach(() => {
  delete process.env[ACCEPT_BASE_URL_CHANGE_ENV];
  vi.restoreAllMocks();
});

const on = (sandbox: Sandbox) => configureFor(records, sandbox, KEY, { maxRetries: 0, timeoutMs: 2000 });
const records2 = [
  { name: "www", type: "A", content: "192.0.2.1" },
  { name: "@", type: "TXT", content: "v=spf1 -all" },
];

async function made(): Promise<{ inputs: Props; outs: Props }> {
  on(one);
  const checked = await records.check({}, { __provider: PROVIDER, templateId: "web", records: records2 });
  const inputs = { ...(checked.inputs as Props), __provider: PROVIDER };
  const created = await records.create(inputs);
  return { inputs, outs: { ...(created.outs as Props), __provider: PROVIDER } };
}

describe("DnsTemplateRecords made on one API", () => {
  it("keeps that base address in its outputs", async () => {
    const { outs } = await made();
    expect(outs.baseUrl).toBe(one.url);
  });

  it("refuses a preview and an update against another API, naming both and the way to move; sends nothing", async () => {
    const { inputs, outs } = await made();
    on(two);
    one.clearRequests();
    const refusal = await records.diff("web", outs, inputs).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(ConfigError);
    const message = (refusal as Error).message;
    expect(message).toContain(`made on ${one.url}`);
    expect(message).toContain(`is now ${two.url}`);
    expect(message).toContain(`${ACCEPT_BASE_URL_CHANGE_ENV}=1`);
    await expect(records.update("web", outs, inputs)).rejects.toBeInstanceOf(ConfigError);
    await expect(records.delete("web", outs)).rejects.toBeInstanceOf(ConfigError);
    expect(one.requests).toEqual([]);
    expect(two.requests).toEqual([]);
  });

  it("moves with the variable set for the run: written to the new API as a create, the old one untouched, a warning", async () => {
    const { inputs, outs } = await made();
    const oldIds = one.templateRecords("web")?.map((r) => r.record_id);
    on(two);
    one.clearRequests();
    process.env[ACCEPT_BASE_URL_CHANGE_ENV] = "1";
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    expect((await records.diff("web", outs, inputs)).changes).toBe(true);
    const updated = await records.update("web", outs, inputs);
    expect(updated.outs?.baseUrl).toBe(two.url);
    expect(
      two
        .templateRecords("web")
        ?.map((r) => r.content)
        .sort(),
    ).toEqual(["192.0.2.1", "v=spf1 -all"]);
    expect(two.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(one.requests).toEqual([]);
    expect(one.templateRecords("web")?.map((r) => r.record_id)).toEqual(oldIds);
    expect(warn.mock.calls.map((c) => String(c[0])).join("\n")).toMatch(
      new RegExp(`moves from ${one.url} to ${two.url}.*stays on ${one.url}`),
    );
    // And from then on it belongs to the new API: no refusal, nothing to do.
    delete process.env[ACCEPT_BASE_URL_CHANGE_ENV];
    expect((await records.diff("web", { ...updated.outs, __provider: PROVIDER }, inputs)).changes).toBe(
      false,
    );
  });

  it("old outputs without a base address keep working on the configured API", async () => {
    const { inputs, outs } = await made();
    const { baseUrl: _, ...legacy } = outs;
    expect((await records.diff("web", legacy, inputs)).changes).toBe(false);
    const updated = await records.update("web", legacy, inputs);
    expect(updated.outs?.baseUrl).toBe(one.url);
  });
});

describe("DomainRestore made on one API", () => {
  it("keeps the base address, and a preview against another API is refused", async () => {
    configureFor(restore, one, KEY, { maxRetries: 0, timeoutMs: 2000 });
    const inputs = { __provider: PROVIDER, domain: "shop.example" };
    const created = await restore.create(inputs);
    expect(created.outs?.baseUrl).toBe(one.url);
    configureFor(restore, two, KEY, { maxRetries: 0, timeoutMs: 2000 });
    await expect(restore.diff("shop.example", created.outs as Props, inputs)).rejects.toThrow(
      `made on ${one.url}`,
    );
    process.env[ACCEPT_BASE_URL_CHANGE_ENV] = "1";
    vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    expect((await restore.diff("shop.example", created.outs as Props, inputs)).replaces).toEqual(["domain"]);
  });
});

describe("the variable and the words of a move", () => {
  // The variable's name as docs/design.md ("Accounts") and the refusal give it to users.
  const VARIABLE = "DOMAINAPI_ACCEPT_BASE_URL_CHANGE";

  async function moved(value: string | undefined): Promise<"moved" | "refused"> {
    const { inputs, outs } = await made();
    on(two);
    if (value === undefined) delete process.env[VARIABLE];
    else process.env[VARIABLE] = value;
    vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    return records.diff("web", outs, inputs).then(
      () => "moved",
      (e: unknown) => {
        expect(e).toBeInstanceOf(ConfigError);
        return "refused";
      },
    );
  }

  it("is DOMAINAPI_ACCEPT_BASE_URL_CHANGE", () => {
    expect(ACCEPT_BASE_URL_CHANGE_ENV).toBe(VARIABLE);
  });

  it.each(["1", "true", "yes", " TRUE ", "Yes", "\t1\n"])("accepts the move when it is %j", async (value) => {
    expect(await moved(value)).toBe("moved");
  });

  it.each([undefined, "", "0", "false", "no", "2", "on", "y"])(
    "refuses the move when it is %j",
    async (value) => {
      expect(await moved(value)).toBe("refused");
    },
  );

  it("the refusal names both addresses, the setting, how to stay and how to move", async () => {
    const { inputs, outs } = await made();
    on(two);
    const refusal = await records.diff("web", outs, inputs).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refusal?.message).toBe(
      "pulumi-domainapi is not configured correctly:\n" +
        `  - DnsTemplateRecords (template "web") was made on ${one.url}, but the configured base address ` +
        `(domainapi:baseUrl or DOMAINAPI_BASE_URL) is now ${two.url}: the API at ${two.url} never held it, so nothing ` +
        `is planned or sent. To stay, set the base address back to ${one.url}. To move, run the next \`pulumi up\` ` +
        `once with DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1: it is written to ${two.url} as a create would, and every ` +
        `record it holds stays on ${one.url} (remove it there by hand). Several accounts in one program: use ` +
        "explicit providers of the provider plugin, whose new baseUrl replaces their resources.",
    );
  });

  it("an accepted update warns that it is written as a create, and what stays behind", async () => {
    const { inputs, outs } = await made();
    on(two);
    process.env[VARIABLE] = "1";
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    await records.update("web", outs, inputs);
    expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
      `DnsTemplateRecords (template "web") moves from ${one.url} to ${two.url} (DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1): ` +
        `it is written to ${two.url} as a create would; every record it holds stays on ${one.url}, whose key is ` +
        "not at hand: remove it there by hand.",
    );
  });

  it("an accepted delete removes it from the stack, sends nothing to either API, and says so", async () => {
    const { outs } = await made();
    on(two);
    one.clearRequests();
    process.env[VARIABLE] = "1";
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    await records.delete("web", outs);
    expect(one.requests).toEqual([]);
    expect(two.requests).toEqual([]);
    expect(one.templateRecords("web")).toHaveLength(2);
    expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
      `DnsTemplateRecords (template "web") moves from ${one.url} to ${two.url} (DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1): ` +
        `it is removed from the stack and nothing is sent to ${two.url}; every record it holds stays on ${one.url}, ` +
        "whose key is not at hand: remove it there by hand.",
    );
  });
});

describe("DomainRestore moved with the variable set", () => {
  it("warns that it is restored on the new API as a create would, and that its restore stays on the old one", async () => {
    configureFor(restore, one, KEY, { maxRetries: 0, timeoutMs: 2000 });
    const inputs = { __provider: PROVIDER, domain: "shop.example" };
    const created = await restore.create(inputs);
    configureFor(restore, two, KEY, { maxRetries: 0, timeoutMs: 2000 });
    process.env.DOMAINAPI_ACCEPT_BASE_URL_CHANGE = "1";
    const warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
    await restore.diff("shop.example", created.outs as Props, inputs);
    expect(warn.mock.calls.map((c) => String(c[0]))).toContain(
      `DomainRestore (domain "shop.example") moves from ${one.url} to ${two.url} (DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1): ` +
        `it is written to ${two.url} as a create would; its restore stays on ${one.url}, whose key is not at hand: ` +
        "remove it there by hand.",
    );
  });
});
