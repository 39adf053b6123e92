/**
 * Where connections live: the undici agents (keep-alive pools) shared by the transports of one
 * base URL, and the bounded cache that keeps a client per distinct settings only while it is used
 * (docs/design.md, "Clients").
 *
 * A long-lived process (an Automation API host that serves many accounts) must not grow with the
 * number of settings it has ever seen: the cache drops the least recently used client beyond its
 * bound, and a dropped client lets go of its agent, which is closed (its idle sockets at once, a
 * request under way when it ends) once no transport uses it.
 *
 * undici is loaded when the first agent is made, not with this module: the engine's plugin process
 * loads the providers for every operation, and a preview (check and diff only) sends nothing;
 * loading undici costs about 4 MiB of memory and 109 modules there.
 */
import type * as Undici from "undici";
import type { EnvHttpProxyAgent } from "undici";

const CONNECTIONS_PER_BASE_URL = 8;
/** The limit on making a connection; reported as a connection that was never made. */
const CONNECT_TIMEOUT_MS = 10_000;

let undiciModule: typeof Undici | undefined;

/** undici, loaded at first use (see the module's comment). */
function undici(): typeof Undici {
  undiciModule ??= require("undici") as typeof Undici;
  return undiciModule;
}

interface SharedAgent {
  agent: EnvHttpProxyAgent;
  users: number;
}

/**
 * One keep-alive pool per base URL and proxy setting, shared by every transport in the process
 * that holds it. The proxy variables are part of the key because the agent reads them when it is
 * made (NO_PROXY it reads at each request).
 *
 * Bound: an agent lives only while a transport holds it (its last user closes and removes it), and
 * transports live in clients that `getClient`'s least-recently-used cache bounds.
 */
const agents = new Map<string, SharedAgent>();

/** A held agent and the key to give it back with. */
export interface AgentLease {
  readonly key: string;
  readonly agent: EnvHttpProxyAgent;
}

function agentKey(baseUrl: string): string {
  const env = process.env;
  return JSON.stringify([
    baseUrl,
    env.http_proxy ?? env.HTTP_PROXY ?? "",
    env.https_proxy ?? env.HTTPS_PROXY ?? "",
  ]);
}

/**
 * Takes the shared agent of a base URL (made, and undici loaded, on first use), so that every
 * transport of one API shares its keep-alive connections. Give it back with {@link releaseAgent}.
 * Proxies: undici's EnvHttpProxyAgent honours `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` as curl
 * does; an `https:` base URL goes through a CONNECT tunnel.
 */
export function acquireAgent(baseUrl: string): AgentLease {
  const key = agentKey(baseUrl);
  let shared = agents.get(key);
  if (shared === undefined) {
    shared = {
      agent: new (undici().EnvHttpProxyAgent)({
        connections: CONNECTIONS_PER_BASE_URL,
        keepAliveTimeout: 4_000,
        keepAliveMaxTimeout: 60_000,
        // Stryker disable next-line ObjectLiteral: undici's own default connect timeout is this same 10 s; stated so that it stays ours
        connect: { timeout: CONNECT_TIMEOUT_MS },
      }),
      users: 0,
    };
    agents.set(key, shared);
  }
  shared.users += 1;
  return { key, agent: shared.agent };
}

/**
 * Gives back an agent taken with {@link acquireAgent}; its last user closes it (idle sockets at
 * once, requests under way when they end), so that nothing stays open for a base URL no one uses.
 */
export async function releaseAgent(lease: AgentLease): Promise<void> {
  const shared = agents.get(lease.key);
  if (shared === undefined || shared.agent !== lease.agent) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  agents.delete(lease.key);
  await shared.agent.close();
}

/** How many agents are open in this process: what a long-lived host's connections grow with. */
export function openAgentCount(): number {
  return agents.size;
}

/**
 * A map that keeps at most `capacity` entries, dropping the least recently used: the bound that
 * keeps a process serving many accounts from keeping a client (and its sockets) per account.
 *
 * @example
 * const cache = new LruCache<string, Client>(32, (client) => client.release());
 * const client = cache.get(key, () => new Client(config));
 */
export class LruCache<K, V> {
  readonly #capacity: number;
  readonly #onDrop: (value: V) => void;
  /** Oldest use first: a Map iterates in insertion order, and each use re-inserts. */
  readonly #entries = new Map<K, V>();

  constructor(capacity: number, onDrop: (value: V) => void) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`LruCache: capacity must be a positive integer, got ${capacity}`);
    }
    this.#capacity = capacity;
    this.#onDrop = onDrop;
  }

  /** The value of `key`, made by `make` when absent; either way it becomes the most recently used. */
  get(key: K, make: () => V): V {
    let value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
    } else {
      value = make();
    }
    this.#entries.set(key, value);
    while (this.#entries.size > this.#capacity) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [K, V];
      this.#entries.delete(oldestKey);
      this.#onDrop(oldest);
    }
    return value;
  }

  /** How many entries are kept. */
  get size(): number {
    return this.#entries.size;
  }
}
