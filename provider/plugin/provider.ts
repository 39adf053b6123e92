/**
 * The plugin's resource provider: each gRPC-facing method maps onto the same operation the dynamic
 * provider runs (records/provider.ts, restore/provider.ts, contacts/getContacts.ts), which take the
 * engine's property bags and answer `pulumi.dynamic.*Result`. What the plugin adds is only what
 * differs from the dynamic host: secrets arrive wrapped (unwrapped here, and outputs that carry a
 * secret's text are marked secret again), the resource is picked by its type token, and an import
 * reads a resource from its id alone.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { getContacts } from "../contacts/getContacts";
import { InvalidArgumentError } from "../contacts/query";
import { withoutProvider } from "../engine";
import { PartialFailure } from "../partialFailure";
import * as records from "../records/provider";
import { encodeOutputs } from "../records/state";
import * as restore from "../restore/provider";
import { client } from "../session";
import { ownerFailure } from "./owners";
import { markSecrets, unwrapSecrets } from "./secrets";

type Props = Record<string, unknown>;

/** The type tokens the plugin serves (schema.json names the same). */
export const TOKENS = {
  records: "domainapi:index:DnsTemplateRecords",
  restore: "domainapi:index:DomainRestore",
  contacts: "domainapi:index:getContacts",
} as const;

/** The operations of one resource type: the dynamic provider's module. */
interface Operations {
  check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
  read?(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
}

const OPERATIONS: Readonly<Record<string, Operations>> = {
  [TOKENS.records]: records,
  [TOKENS.restore]: restore,
};

/** The resource type of a URN: `urn:pulumi:stack::project::parent$type::name` -> `type`. */
export function typeOfUrn(urn: string): string {
  return (urn.split("::")[2] ?? "").split("$").pop() ?? "";
}

function operationsOf(urn: string): Operations {
  const type = typeOfUrn(urn);
  const ops = OPERATIONS[type];
  if (ops === undefined)
    throw new Error(
      `unknown resource type ${type}: the domainapi plugin serves ${Object.keys(OPERATIONS).join(", ")}`,
    );
  return ops;
}

/** A value as a protobuf Struct can hold it: no `undefined` (an absent field stays absent). */
function structSafe(props: Props): Props {
  return JSON.parse(JSON.stringify(props)) as Props;
}

/**
 * A failure part-way as the SDK's host sends it to the engine (the resource recorded with the state
 * reached so far): the dynamic host's `__provider` left out (the plugin has none; an `undefined`
 * would make the host's own conversion throw and the state reached would be lost), absent fields
 * dropped, and secrets marked as in any output.
 */
export function pluginFailure(err: unknown, secretTexts: readonly string[]): unknown {
  if (!(err instanceof PartialFailure)) return err;
  return Object.assign(new Error(err.message, { cause: err.cause }), {
    id: err.id,
    properties: markSecrets(structSafe(withoutProvider(err.properties)), secretTexts),
    reasons: err.reasons,
  });
}

/** The secrets' texts of the inputs, and the inputs in plain values. */
function plain(props: unknown): { value: Props; secretTexts: string[] } {
  const { value, secretTexts } = unwrapSecrets((props ?? {}) as Props);
  return { value, secretTexts };
}

/**
 * What an import (a read with no state) can know from the id alone. The API has no GET for a
 * template's records, so an imported DnsTemplateRecords holds none: with `purge` (an id without
 * `/`, the template id itself) the next `up` rewrites the template with one PUT of the declared
 * records; without (`<templateId>/<suffix>`), it adds them.
 */
export function importedState(type: string, id: string): { id: string; props: Props; inputs: Props } {
  if (type === TOKENS.restore) {
    const domain = restore.asciiDomain(id);
    return { id, props: { domain }, inputs: { domain } };
  }
  if (type === TOKENS.records) {
    const slash = id.indexOf("/");
    const settings = {
      templateId: slash < 0 ? id : id.slice(0, slash),
      purge: slash < 0,
      safetyThreshold: false as const,
    };
    const outs = encodeOutputs(
      settings,
      [],
      "imported: the API cannot list a template's records, so none are held",
    );
    const { ids: _ids, lastPlan: _lastPlan, ...inputs } = outs;
    return { id, props: { ...outs }, inputs: { ...inputs } };
  }
  throw new Error(`unknown resource type ${type}`);
}

/**
 * The plugin's `Provider` (the Pulumi SDK's provider interface).
 *
 * @param version the package version the plugin reports
 * @param schema the schema text the plugin serves
 */
export function domainApiProvider(version: string, schema: string): provider.Provider {
  return {
    version,
    schema,
    async check(urn, olds, news) {
      const n = plain(news);
      const checked = await operationsOf(urn).check(plain(olds).value, n.value);
      const refusal = typeOfUrn(urn) === TOKENS.records ? ownerFailure(urn, checked) : undefined;
      const result = refusal ? { inputs: n.value, failures: [refusal] } : checked;
      return {
        ...result,
        inputs: markSecrets(structSafe((result.inputs ?? n.value) as Props), n.secretTexts),
      };
    },
    async diff(id, urn, olds, news) {
      return operationsOf(urn).diff(id, plain(olds).value, plain(news).value);
    },
    async create(urn, inputs) {
      const i = plain(inputs);
      try {
        const result = await operationsOf(urn).create(i.value);
        return { id: result.id, outs: markSecrets(structSafe((result.outs ?? {}) as Props), i.secretTexts) };
      } catch (err) {
        throw pluginFailure(err, i.secretTexts);
      }
    },
    async update(id, urn, olds, news) {
      const n = plain(news);
      const o = plain(olds);
      const secretTexts = [...o.secretTexts, ...n.secretTexts];
      try {
        const result = await operationsOf(urn).update(id, o.value, n.value);
        return { outs: markSecrets(structSafe((result.outs ?? {}) as Props), secretTexts) };
      } catch (err) {
        throw pluginFailure(err, secretTexts);
      }
    },
    async delete(id, urn, props) {
      await operationsOf(urn).delete(id, plain(props).value);
    },
    async read(id, urn, props) {
      const p = plain(props);
      const ops = operationsOf(urn);
      // DomainRestore has no read: the API cannot show a domain, so the state stays as it is.
      const result = ops.read ? await ops.read(id, p.value) : { id, props: p.value };
      return {
        id: result.id ?? id,
        props: markSecrets(structSafe((result.props ?? {}) as Props), p.secretTexts),
        inputs:
          result.inputs === undefined
            ? undefined
            : markSecrets(structSafe(result.inputs as Props), p.secretTexts),
      };
    },
    async invoke(token, inputs) {
      if (token !== TOKENS.contacts)
        throw new Error(`unknown function ${token}: the domainapi plugin serves ${TOKENS.contacts}`);
      const args = plain(inputs);
      try {
        const outputs = await getContacts(args.value, { client: client() });
        return { outputs: markSecrets(structSafe({ ...outputs }), args.secretTexts) };
      } catch (err) {
        if (!(err instanceof InvalidArgumentError)) throw err;
        return { failures: [{ property: err.argument, reason: err.reason }] };
      }
    },
  };
}
