/**
 * What the transport says about itself: the User-Agent it sends, and where its debug lines and
 * its waits go when the caller names no sink of its own.
 */
import { STATUS_CODES } from "node:http";
import { hasEngine, toEngine } from "../log";

let cachedVersion: string | undefined;

/**
 * The User-Agent of every request, `pulumi-domainapi/<version>`, so that the API's operators can
 * tell this provider's traffic (and its version) from others'. The version is read through the
 * package's own name (Node resolves a package's name from inside it, through the `./package.json`
 * entry of its exports), so it is the version of the copy that runs, from `dist/` or from source.
 */
export function userAgent(): string {
  cachedVersion ??= (require("pulumi-domainapi/package.json") as { version: string }).version;
  return `pulumi-domainapi/${cachedVersion}`;
}

/**
 * The default debug sink, one line per attempt: `pulumi.log.debug` when an engine listens
 * (through ../log, which loads the SDK only then, so that plain scripts do not pay for it, and
 * never fails a request over a message). Without an engine the SDK would drop the line: set
 * DOMAINAPI_DEBUG=1 to see it on stderr as `[domainapi] GET /v2/… -> 200 …`.
 */
export function defaultLog(message: string): void {
  if (process.env.DOMAINAPI_DEBUG) process.stderr.write(`[domainapi] ${message}\n`);
  toEngine("debug", `domainapi: ${message}`);
}

/**
 * The default sink of waits (a 429 or 503 waited out): `pulumi.log.info` under an engine, so that
 * `pulumi up` says why a long run is quiet; stderr without one (stdout may be a program's output).
 */
export function defaultInfo(message: string): void {
  if (hasEngine()) toEngine("info", `domainapi: ${message}`);
  else process.stderr.write(`[domainapi] ${message}\n`);
}

/**
 * The debug line of one attempt, `GET /v2/contacts -> 503 in 12 ms (attempt 1); retrying in 300 ms`:
 * what `pulumi up --debug` shows of every request, so a slow or failing run can be read afterwards.
 */
export function attemptLine(
  method: string,
  path: string,
  outcome: string,
  ms: number,
  attempt: number,
  retryInMs?: number,
): string {
  const retry = retryInMs === undefined ? "" : `; retrying in ${retryInMs} ms`;
  return `${method} ${path} -> ${outcome} in ${ms} ms (attempt ${attempt})${retry}`;
}

/**
 * The info line of a wait the API asked for with a 429 or 503 (or a gateway's 502/504): a long run
 * against a rate-limited API then says why it is quiet.
 */
export function waitLine(
  method: string,
  path: string,
  status: number,
  nextAttempt: number,
  delayMs: number,
): string {
  const seconds = delayMs < 10_000 ? (delayMs / 1000).toFixed(1) : String(Math.round(delayMs / 1000));
  const statusText = STATUS_CODES[status] ?? "";
  return (
    `${method} ${path} was answered ${status}${statusText ? ` ${statusText}` : ""}; ` +
    `waiting ${seconds} s before sending it again (attempt ${nextAttempt})`
  );
}
