/**
 * The operations behind each token of the manifest: the one table the plugin and the dynamic shims
 * (through dynamic/impl.ts) dispatch through. A resource's methods take the engine's property bags in plain
 * values and answer `pulumi.dynamic.*Result`, whichever host calls them; a function is its token's
 * invoke over plain arguments. Adding a resource or function is one entry here and one in the
 * manifest (and its schema in scripts/gen-schema.ts reads both).
 */
import type * as pulumi from "@pulumi/pulumi";
import { BUILDERS, BuilderArgumentError } from "./checks/builders";
import { getContacts } from "./contacts/getContacts";
import { type GetContactsArgs, InvalidArgumentError } from "./contacts/query";
import { warnIfKeyInPlainFiles } from "./host/keyInState";
import { client, configureFrom, settingsText } from "./host/session";
import { type ResourceToken, TOKENS } from "./manifest";
import * as records from "./records/provider";
import * as restore from "./restore/provider";
import type { SettingsSource } from "./settings/config";

type Props = Record<string, unknown>;

/** One resource's provider methods, as both hosts call them. */
export interface ResourceOperations {
  /**
   * The dynamic host's `configure()`: the stack config. The plugin configures once per provider
   * from its inputs instead ({@link configureProvider}).
   */
  configure(req: pulumi.dynamic.ConfigureRequest): void;
  /** `urn` is given by the plugin (its Check carries one), never by the dynamic host. */
  check(olds: Props, news: Props, urn?: string): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Props): Promise<pulumi.dynamic.CreateResult>;
  update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
  /** Absent: the API cannot show the resource, so a refresh keeps the state as it is. */
  read?(id: string, props: Props): Promise<pulumi.dynamic.ReadResult>;
  /** The state `pulumi import` starts from, known from the id alone. */
  imported(id: string): { props: Props; inputs: Props };
}

/** The resources' operations by type token. */
export const RESOURCES = {
  [TOKENS.records]: records,
  [TOKENS.restore]: restore,
} as const satisfies Readonly<Record<ResourceToken, ResourceOperations>>;

/** What an invoke answers: its outputs, or the arguments it refused (named, with the fix). */
export type InvokeResult =
  | { outputs: Props; failures?: undefined }
  | { outputs?: undefined; failures: { property: string; reason: string }[] };

/** One function: its invoke over plain arguments, with the session's client. */
export interface FunctionOperations {
  invoke(args: Props): Promise<InvokeResult>;
}

/**
 * A record builder as a function: its result, or the argument it refused (named, with the fix) as
 * a failure. It sends nothing, so it needs no client.
 */
function builderFunction(build: (args: never) => object): FunctionOperations {
  return {
    async invoke(args) {
      try {
        // Sound for any value: the builder parses its arguments with its own zod schema.
        return { outputs: { ...build(args as never) } };
      } catch (err) {
        if (!(err instanceof BuilderArgumentError)) throw err;
        return { failures: [{ property: err.argument, reason: err.reason }] };
      }
    },
  };
}

/** The functions' operations by token. */
export const FUNCTIONS: Readonly<Record<string, FunctionOperations>> = {
  [TOKENS.contacts]: {
    async invoke(args) {
      try {
        return { outputs: { ...(await getContacts(args as GetContactsArgs, { client: client() })) } };
      } catch (err) {
        if (!(err instanceof InvalidArgumentError)) throw err;
        return { failures: err.problems.map((p) => ({ property: p.argument, reason: p.reason })) };
      }
    },
  },
  ...Object.fromEntries(
    Object.entries(BUILDERS).map(([token, builder]) => [token, builderFunction(builder.build)]),
  ),
};

/**
 * The operations of a resource, by its URN (`urn:pulumi:stack::project::parent$type::name`), or
 * an error naming the types served.
 */
export function resourceOperations(urn: string): ResourceOperations {
  // split gives at least one piece, so pop() always has one to give.
  const type = (urn.split("::")[2] ?? "").split("$").pop()!;
  // Own entries only: `constructor` or `toString` is no resource type.
  const ops = Object.hasOwn(RESOURCES, type)
    ? (RESOURCES as Record<string, ResourceOperations>)[type]
    : undefined;
  if (ops === undefined)
    throw new Error(
      `unknown resource type ${type}: the domainapi plugin serves ${Object.keys(RESOURCES).join(", ")}`,
    );
  return ops;
}

/** The operations of a function, by its token, or an error naming the functions served. */
export function functionOperations(token: string): FunctionOperations {
  const fn = Object.hasOwn(FUNCTIONS, token) ? FUNCTIONS[token] : undefined;
  if (fn === undefined)
    throw new Error(
      `unknown function ${token}: the domainapi plugin serves ${Object.keys(FUNCTIONS).join(", ")}`,
    );
  return fn;
}

/**
 * Configures the session every operation shares from a provider's settings (an explicit provider's
 * inputs, or the stack config of a default one), and says which of them are not read.
 */
export function configureProvider(settings: Props, from: SettingsSource, providerUrn?: string): void {
  configureFrom(settings, from, providerUrn);
  warnIfKeyInPlainFiles(settingsText(settings).apiKey, providerUrn, from === "provider");
  records.warnOfVerifySetting();
}
