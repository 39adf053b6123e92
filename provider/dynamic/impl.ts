/**
 * What the serialized shims (`dynamic/records.ts`, `dynamic/restore.ts`) load at run time, by
 * package name (`require("pulumi-domainapi/impl")`): each resource's entry of the operations table,
 * cut to the methods a dynamic provider has, so that `pulumi-domainapi/impl` is no back door to the
 * modules' other exports. Nothing here is ever serialized into the state.
 */
import { watchEngine } from "../host/lifeline";
import { attachPluginToEngine, delivered } from "../log";
import { TOKENS } from "../manifest";
import { RESOURCES, type ResourceOperations } from "../operations";

// Loaded first thing in the engine's plugin process: connect its logging to the engine.
attachPluginToEngine();
watchDynamicHost();

/**
 * In the engine's dynamic-provider process (its script and the engine's address are its arguments),
 * exits when the engine is gone, as the plugin does: Pulumi's host would go on serving, and its
 * parent is a shell that outlives the engine, so only the engine's address tells. The run loop also
 * checks before each request.
 */
function watchDynamicHost(argv: readonly string[] = process.argv): void {
  // Stryker disable next-line StringLiteral: any default text is neither the host's script nor a host:port
  const [, script = "", engine = ""] = argv;
  if (!/dynamic-provider/.test(script) || !/^[\w.[\]:-]+:\d+$/.test(engine)) return;
  watchEngine(engine, () => process.exit(1));
}

/** The methods of `pulumi.dynamic.ResourceProvider` that the operations table serves. */
const DYNAMIC_METHODS = ["configure", "check", "diff", "create", "update", "delete", "read"] as const;

type DynamicMethods<T extends ResourceOperations> = Pick<
  T,
  Extract<keyof T, (typeof DYNAMIC_METHODS)[number]>
>;

/** The dynamic provider's methods of one resource (`imported` stays out: the dynamic host cannot import). */
function dynamicMethods<T extends ResourceOperations>(operations: T): DynamicMethods<T> {
  const methods = DYNAMIC_METHODS.filter((name) => operations[name as keyof T] !== undefined).map(
    (name) => [name, answeringAfterLogs(operations[name as keyof T] as Method)] as const,
  );
  return Object.fromEntries(methods) as DynamicMethods<T>;
}

type Method = (...args: never[]) => unknown;

/** `method`, answering only once what it logged has reached the engine (log.ts, `delivered`). */
function answeringAfterLogs(method: Method): Method {
  return async (...args) => {
    try {
      return await method(...args);
    } finally {
      await delivered();
    }
  };
}

/** DnsTemplateRecords' provider methods, as the shim calls them. */
export const records = dynamicMethods(RESOURCES[TOKENS.records]);

/** DomainRestore's provider methods, as the shim calls them. */
export const restore = dynamicMethods(RESOURCES[TOKENS.restore]);
