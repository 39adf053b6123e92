/**
 * A process that serves many accounts one after another (an Automation API host, a long-lived
 * provider process) must not grow with the number of accounts it has served (docs/design.md,
 * "Clients"). Measured where users enter, each account with a key of its own: getContacts() with
 * the key from the environment and from the stack config, the dynamic provider's DnsTemplateRecords
 * operations, and the plugin's Configure of an explicit provider followed by a create. The heap
 * after 2,000 accounts stays within 25 MB of the heap after 200.
 */
import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as pulumi from "@pulumi/pulumi";
import { ResourceProviderClient, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { getContacts } from "../../provider/contacts/getContacts";
import { records } from "../../provider/dynamic/impl";
import { secret } from "../../provider/host/secretValues";
import { TOKENS } from "../../provider/manifest";
import { resourceProviderServer } from "../../provider/plugin/server";
import { type Front, heapAfterGc, startFront } from "./accounts";

const SANDBOX_KEY = "memory-entries-sandbox-key";
const FIRST = 200;
const LAST = Number(process.env.MEM_LAST ?? 2_000);
const BOUND_MB = 25;

let sandbox: Sandbox;
let front: Front;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: SANDBOX_KEY, contacts: 3 });
  front = await startFront(sandbox.url, SANDBOX_KEY);
});
afterAll(async () => {
  await front?.close();
  await sandbox?.close();
});

/** A key as an account's would look: 40 random hex digits, different for every account. */
function keyOf(): string {
  return randomBytes(20).toString("hex");
}

/** The account's base URL: one registrar API, as an Automation API host serving its customers sees it. */
function baseUrl(): string {
  return `${front.url}/acct-1`;
}

/**
 * Runs `serve` for accounts 1..LAST, one after another, and returns the heap growth in MB between
 * account FIRST and account LAST (after full collections).
 */
async function growthOver(serve: (n: number, key: string) => Promise<void>): Promise<number> {
  // Without an engine, the provider's lines go to the console, which the test runner keeps: quiet
  // it, so that what is measured is the provider's heap, not the runner's buffer.
  const quiet = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation(() => undefined),
  );
  try {
    let after200 = 0;
    for (let n = 1; n <= LAST; n++) {
      await serve(n, keyOf());
      if (n % 200 === 0) sandbox.clearRequests();
      if (n === FIRST) after200 = heapAfterGc();
    }
    return (heapAfterGc() - after200) / 2 ** 20;
  } finally {
    for (const spy of quiet) spy.mockRestore();
  }
}

const TIMEOUT = { timeout: 300_000 };

describe(`${LAST} accounts one after another keep the heap within ${BOUND_MB} MB of where it was after ${FIRST}`, () => {
  test("getContacts() with the key from the environment", TIMEOUT, async () => {
    const saved = { ...process.env };
    try {
      const growth = await growthOver(async (_n, key) => {
        process.env.DOMAINAPI_API_KEY = key;
        process.env.DOMAINAPI_BASE_URL = baseUrl();
        const result = await getContacts({ perPage: 2, limit: 2 });
        expect(result.contacts).toHaveLength(2);
      });
      expect(growth).toBeLessThan(BOUND_MB);
    } finally {
      process.env = saved;
    }
  });

  test("getContacts() with the key from the stack config", TIMEOUT, async () => {
    delete process.env.DOMAINAPI_API_KEY;
    delete process.env.DOMAINAPI_BASE_URL;
    try {
      const growth = await growthOver(async (_n, key) => {
        pulumi.runtime.setConfig("domainapi:apiKey", key);
        pulumi.runtime.setConfig("domainapi:baseUrl", baseUrl());
        const result = await getContacts({ perPage: 2, limit: 2 });
        expect(result.contacts).toHaveLength(2);
      });
      expect(growth).toBeLessThan(BOUND_MB);
    } finally {
      pulumi.runtime.setAllConfig({});
    }
  });

  test(
    "DnsTemplateRecords through the dynamic provider: configure, check, create, delete",
    TIMEOUT,
    async () => {
      const growth = await growthOver(async (_n, key) => {
        const config: Record<string, string> = {
          "domainapi:apiKey": key,
          "domainapi:baseUrl": baseUrl(),
          "domainapi:maxRetries": "0",
        };
        records.configure({
          config: { get: (k: string) => config[k], require: (k: string) => config[k] ?? "" },
        });
        const news = { templateId: "web", records: [{ name: "@", type: "A", content: "192.0.2.10" }] };
        const checked = await records.check({}, news);
        expect(checked.failures ?? []).toEqual([]);
        const made = await records.create(checked.inputs ?? {});
        expect(made.outs?.templateId).toBe("web");
        await records.delete(made.id, made.outs ?? {});
      });
      expect(growth).toBeLessThan(BOUND_MB);
    },
  );

  describe("the plugin", () => {
    let server: grpc.Server;
    let client: ResourceProviderClient;
    beforeAll(async () => {
      server = new grpc.Server();
      server.addService(
        ResourceProviderService,
        resourceProviderServer("9.8.7", "{}", () => undefined),
      );
      const port = await new Promise<number>((resolve, reject) =>
        server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) =>
          e ? reject(e) : resolve(p),
        ),
      );
      client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    });
    afterAll(() => {
      client?.close();
      server?.forceShutdown();
    });

    function rpc<Req, Res>(method: "configure" | "check" | "create" | "delete", request: Req): Promise<Res> {
      const fn = (
        client as unknown as Record<
          string,
          (r: Req, cb: (e: grpc.ServiceError | null, v: Res) => void) => void
        >
      )[method] as (r: Req, cb: (e: grpc.ServiceError | null, v: Res) => void) => void;
      return new Promise((resolve, reject) =>
        fn.call(client, request, (e, v) => (e ? reject(e) : resolve(v))),
      );
    }
    const struct = (props: Record<string, unknown>) => Struct.fromJavaScript(props as never);

    test("Configure of an explicit provider per account, then a create", TIMEOUT, async () => {
      const growth = await growthOver(async (n, key) => {
        const providerUrn = `urn:pulumi:dev::p::pulumi:providers:domainapi::acct${n}`;
        const recordsUrn = `urn:pulumi:dev::p::${TOKENS.records}::web${n}`;
        await rpc(
          "configure",
          new pb.ConfigureRequest()
            .setArgs(struct({ apiKey: secret(key), baseUrl: baseUrl(), maxRetries: 0 }))
            .setUrn(providerUrn),
        );
        // purge: false: the resources of one process claim their templates for the deployment, and
        // two with purge on one template are refused (the accounts here share the sandbox's), as are
        // two declaring one record.
        const news = {
          templateId: "web",
          purge: false,
          records: [{ name: "@", type: "AAAA", content: `2001:db8::${n.toString(16)}` }],
        };
        const checked = await rpc<pb.CheckRequest, pb.CheckResponse>(
          "check",
          new pb.CheckRequest().setUrn(recordsUrn).setOlds(struct({})).setNews(struct(news)),
        );
        expect(checked.getFailuresList().map((f) => f.getReason())).toEqual([]);
        const created = await rpc<pb.CreateRequest, pb.CreateResponse>(
          "create",
          new pb.CreateRequest().setUrn(recordsUrn).setProperties(checked.getInputs()),
        );
        expect(created.getId()).not.toBe("");
        await rpc(
          "delete",
          new pb.DeleteRequest()
            .setUrn(recordsUrn)
            .setId(created.getId())
            .setProperties(created.getProperties()),
        );
      });
      expect(growth).toBeLessThan(BOUND_MB);
    });
  });
});
