/**
 * The plugin's gRPC service, served in this process as main.ts serves it: Configure of an explicit
 * provider per account, each with a key of its own, then a create and a delete
 * (test/provider/memory-entries.ts).
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderClient, ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as pb from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { secret } from "../../provider/host/secretValues";
import { TOKENS } from "../../provider/manifest";
import { resourceProviderServer } from "../../provider/plugin/server";
import { BOUND_MB, FIRST, growthOver, LAST, TIMEOUT, useAccounts } from "./memory-entries";

const accounts = useAccounts();

describe(`the plugin for ${LAST} accounts keeps the heap within ${BOUND_MB} MB of where it was after ${FIRST}`, () => {
  describe("Configure per explicit provider", () => {
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
      const growth = await growthOver(accounts.sandbox(), async (n, key) => {
        const providerUrn = `urn:pulumi:dev::p::pulumi:providers:domainapi::acct${n}`;
        const recordsUrn = `urn:pulumi:dev::p::${TOKENS.records}::web${n}`;
        await rpc(
          "configure",
          new pb.ConfigureRequest()
            .setArgs(struct({ apiKey: secret(key), baseUrl: accounts.baseUrl(), maxRetries: 0 }))
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
