/**
 * A resource belongs to the API it was made on (docs/design.md, "Accounts"). The dynamic resources
 * keep that base address in their outputs (`baseUrl`); a configured one that differs would plan
 * against an account that never held the records, so it is refused before anything is sent,
 * naming both addresses and the way forward, unless the move is accepted for one run with
 * `DOMAINAPI_ACCEPT_BASE_URL_CHANGE=1`. Outputs written before addresses were kept carry none and
 * are taken as made on the configured API.
 */
import { ConfigError } from "../errors";
import * as log from "../log";
import { configuredBaseUrl } from "./session";

type Props = Record<string, unknown>;

/** The environment variable that accepts, for one run, a move of resources to another base address. */
export const ACCEPT_BASE_URL_CHANGE_ENV = "DOMAINAPI_ACCEPT_BASE_URL_CHANGE";

/** What a resource's outputs keep of where it was made: the configured base address, when known. */
export function madeOn(): { baseUrl?: string } {
  const baseUrl = configuredBaseUrl();
  // Stryker disable next-line ConditionalExpression: an undefined output is dropped when the SDK serializes outputs, so the state is the same
  return baseUrl === undefined ? {} : { baseUrl };
}

/** A move from the API a resource was made on to the configured one, accepted for this run. */
export interface AccountMove {
  from: string;
  to: string;
}

function accepted(): boolean {
  // Stryker disable next-line StringLiteral: unset must read as a value that is not accepted; any such stand-in refuses alike
  const value = (process.env[ACCEPT_BASE_URL_CHANGE_ENV] ?? "").trim().toLowerCase();
  return value === "1" || value === "true" || value === "yes";
}

/**
 * Whether the resource whose outputs are `olds` is on another API than the configured one:
 * undefined when it is not (or cannot be told); the move when it is and the move is accepted.
 *
 * @param what the resource as messages name it, e.g. `DnsTemplateRecords (template "web")`
 * @param left what a move leaves on the old API, for the warning
 * @param deleting a delete: nothing is sent to either API (the old one's key is not at hand)
 * @throws ConfigError naming both addresses and how to go on, when the move is not accepted
 */
export function accountMove(
  olds: Props,
  what: string,
  left: string,
  deleting = false,
): AccountMove | undefined {
  const from = typeof olds.baseUrl === "string" ? olds.baseUrl : undefined;
  const to = configuredBaseUrl();
  if (from === undefined || to === undefined || from === to) return undefined;
  if (!accepted()) {
    throw new ConfigError([
      `${what} was made on ${from}, but the configured base address (domainapi:baseUrl or DOMAINAPI_BASE_URL) is now ${to}: ` +
        `the API at ${to} never held it, so nothing is planned or sent. To stay, set the base address back to ${from}. ` +
        `To move, run the next \`pulumi up\` once with ${ACCEPT_BASE_URL_CHANGE_ENV}=1: it is written to ${to} as a create ` +
        `would, and ${left} stays on ${from} (remove it there by hand). Several accounts in one program: use explicit ` +
        "providers of the provider plugin, whose new baseUrl replaces their resources.",
    ]);
  }
  const done = deleting
    ? `it is removed from the stack and nothing is sent to ${to}`
    : `it is written to ${to} as a create would`;
  log.warn(
    `${what} moves from ${from} to ${to} (${ACCEPT_BASE_URL_CHANGE_ENV}=1): ${done}; ` +
      `${left} stays on ${from}, whose key is not at hand: remove it there by hand.`,
  );
  return { from, to };
}
