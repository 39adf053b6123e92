/**
 * getContactsOutput and getContacts as a Pulumi program calls them: arguments that are Inputs (a
 * Date among them), the stack config as the source of the key, `pulumi preview` with and without a
 * key, and the warning for a key kept in plain text in the stack config. Against a real sandbox;
 * only the engine's answers (`isDryRun`, the log) are stood in for, as there is no engine here.
 */
import * as pulumi from "@pulumi/pulumi";
import type { LoggedRequest, WireContact } from "domainapi-sandbox";
import { afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { DomainApiClient } from "../../../provider/client/api";
import {
  type GetContactsResult,
  getContacts,
  getContactsOutput,
} from "../../../provider/contacts/getContacts";
import { ConfigError } from "../../../provider/errors";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";

const sandbox = useSandbox({ contacts: 40 });
const ENV = ["DOMAINAPI_API_KEY", "DOMAINAPI_BASE_URL", "DOMAINAPI_TIMEOUT_MS", "DOMAINAPI_MAX_RETRIES"];
const savedEnv = Object.fromEntries(ENV.map((v) => [v, process.env[v]]));
let client: DomainApiClient;
let warn: MockInstance<typeof pulumi.log.warn>;

beforeAll(() => {
  client = new DomainApiClient({ apiKey: API_KEY, baseUrl: sandbox.url, timeoutMs: 5000, maxRetries: 0 });
  return () => client.close();
});
beforeEach(() => {
  for (const v of ENV) delete process.env[v];
  pulumi.runtime.setAllConfig({});
  warn = vi.spyOn(pulumi.log, "warn").mockResolvedValue(undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  pulumi.runtime.setAllConfig({});
  for (const v of ENV) {
    if (savedEnv[v] === undefined) delete process.env[v];
    else process.env[v] = savedEnv[v];
  }
});

function gets(): LoggedRequest[] {
  return sandbox.requests.filter((r) => r.method === "GET" && r.path === "/v2/contacts");
}

function handles(list: ReadonlyArray<{ handle: string }>): string[] {
  return list.map((c) => c.handle);
}

interface OutputParts {
  promise(): Promise<GetContactsResult>;
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
}

/** The output's value; its other promises, which reject with it, are awaited too. */
async function outputValue(out: pulumi.Output<GetContactsResult>): Promise<GetContactsResult> {
  const parts = out as unknown as OutputParts;
  const ignore = () => undefined;
  await Promise.all([parts.isKnown.catch(ignore), parts.isSecret.catch(ignore)]);
  return parts.promise();
}

function isKnown(out: pulumi.Output<GetContactsResult>): Promise<boolean> {
  return (out as unknown as { isKnown: Promise<boolean> }).isKnown;
}

function preview(): void {
  vi.spyOn(pulumi.runtime, "isDryRun").mockReturnValue(true);
}

/** The stack config as `pulumi config set` leaves it; `secret` lists the keys set with --secret. */
function stackConfig(values: Record<string, string>, secret: string[] = []): void {
  pulumi.runtime.setAllConfig(values, secret);
}

describe("getContactsOutput", () => {
  it("resolves Input arguments and sends a Date as the API's datetime, to the second", async () => {
    const source = sandbox.state.contacts[7] as WireContact;
    const at = new Date(Date.parse(source.date_created as string) + 999);
    const expected = sandbox.state.contacts.filter((c) => c.date_created === source.date_created);

    const out = getContactsOutput(
      { dateCreated: at, perPage: pulumi.output(100), sort: Promise.resolve("handle") },
      { client },
    );
    const result = await outputValue(out);

    expect([...handles(result.contacts)].sort()).toEqual(handles(expected).sort());
    expect(handles(result.contacts)).toContain(source.handle);
    expect(gets().map((r) => new URLSearchParams(r.query).get("date_created"))).toEqual([
      source.date_created,
    ]);
    expect(new URLSearchParams(gets()[0]?.query).get("per_page")).toBe("100");
    expect(warn).not.toHaveBeenCalled();
  });

  it("outside a preview, a missing key fails the output rather than leaving it unknown", async () => {
    process.env.DOMAINAPI_BASE_URL = sandbox.url;
    const out = getContactsOutput({ perPage: 5 });
    await expect(outputValue(out)).rejects.toThrow(/domainapi:apiKey.*DOMAINAPI_API_KEY/s);
    expect(warn).not.toHaveBeenCalled();
    expect(sandbox.requests).toEqual([]);
  });

  it("in a preview without a key, warns under its own name and is unknown; nothing is sent", async () => {
    preview();
    stackConfig({ "domainapi:baseUrl": sandbox.url });
    const out = getContactsOutput({ perPage: 5 });
    expect(await isKnown(out)).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^getContactsOutput: domainapi:apiKey is not set.*A preview goes on without it and sends no request/s,
    );
    expect(sandbox.requests).toEqual([]);
  });

  it("in a preview with a key in the stack config, reads the contacts (a read is safe)", async () => {
    preview();
    stackConfig({ "domainapi:apiKey": API_KEY, "domainapi:baseUrl": sandbox.url }, ["domainapi:apiKey"]);
    const out = getContactsOutput({ perPage: 100 });
    expect(await isKnown(out)).toBe(true);
    expect(handles((await outputValue(out)).contacts)).toEqual(handles(sandbox.state.contacts));
    expect(gets()).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it("in a preview, a malformed setting fails as `up` would, before any request", async () => {
    preview();
    stackConfig({ "domainapi:baseUrl": sandbox.url, "domainapi:timeoutMs": "soon" });
    const out = getContactsOutput({ perPage: 5 });
    const error = await outputValue(out).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/domainapi:timeoutMs/);
    expect(warn).not.toHaveBeenCalled();
    expect(sandbox.requests).toEqual([]);
  });

  it("in a preview, a client given is used whatever the stack config holds", async () => {
    preview();
    const out = getContactsOutput({ perPage: 100, limit: 3 }, { client });
    expect(handles((await outputValue(out)).contacts)).toEqual(handles(sandbox.state.contacts.slice(0, 3)));
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("the key from the stack config", () => {
  it("getContacts reads domainapi:apiKey and domainapi:baseUrl from the stack config", async () => {
    stackConfig({ "domainapi:apiKey": API_KEY, "domainapi:baseUrl": sandbox.url }, ["domainapi:apiKey"]);
    const result = await getContacts({ perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(sandbox.state.contacts));
    expect(warn).not.toHaveBeenCalled();
  });

  it("set without --secret: getContacts warns that it is stored in plain text, and still lists", async () => {
    pulumi.runtime.resetOptions("shop", "contacts-plain", -1, "", "", false, "");
    stackConfig({ "domainapi:apiKey": API_KEY, "domainapi:baseUrl": sandbox.url });
    const result = await getContacts({ perPage: 100 });
    expect(handles(result.contacts)).toEqual(handles(sandbox.state.contacts));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^domainapi:apiKey is set in plain text: it is stored unencrypted in Pulumi\.contacts-plain\.yaml/,
    );
  });

  it("with a client given, the stack config's key is not used, so it is not warned about", async () => {
    pulumi.runtime.resetOptions("shop", "contacts-client", -1, "", "", false, "");
    stackConfig({ "domainapi:apiKey": "not-the-key", "domainapi:baseUrl": "http://127.0.0.1:9" });
    const result = await getContacts({ perPage: 100, limit: 2 }, { client });
    expect(handles(result.contacts)).toEqual(handles(sandbox.state.contacts.slice(0, 2)));
    expect(warn).not.toHaveBeenCalled();
  });
});
