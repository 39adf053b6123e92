/**
 * The fault matrix's vocabulary, shared by the reliability suites: the six faults, the sandbox rules
 * that inject each one into a chosen request, and what the resulting error must say.
 *
 * Every stack of the matrix runs with `domainapi:maxRetries` 1 and `domainapi:timeoutMs` 1500, so a
 * fault that persists over both attempts of a request fails the operation (and the suites can check
 * that the next `pulumi up` finishes the job), while a single 429 with Retry-After is absorbed.
 */

import type { FaultRule, Sandbox } from "domainapi-sandbox";
import { expect } from "vitest";
import { createTestStack, type TestStack } from "./harness";
import { API_KEY } from "./records-helpers";

/** Resends allowed per request in the matrix: two attempts in all. */
export const MAX_RETRIES = 1;
/**
 * Per-attempt timeout of the matrix's stacks. undici keeps a timeout of up to 1 s on a native
 * timer and a longer one on its own ~1 s clock (1.5 s would fire after 1.5 to 2.5 s): at 1 s every
 * timed-out attempt takes 1 s, and each "timeout" case waits no longer than it must.
 */
export const TIMEOUT_MS = 1000;
/** How long a "timeout" fault holds a request: well past the timeout (a precise timer, above). */
export const HANG_MS = 2500;

/** The faults of the matrix. */
export const FAULTS = ["429 Retry-After", "503", "500", "drop before", "drop after", "timeout"] as const;
/** One fault of the matrix. */
export type Fault = (typeof FAULTS)[number];

/** Which requests a fault targets: a method and a pathname pattern (RegExp source). */
export interface Target {
  method: string;
  path: string;
}

/**
 * The sandbox rules that inject `fault` into the `nth` request matching `target` (counted from
 * now). A 429 with `Retry-After: 1` fires once, so a retry absorbs it; a 500 fires once, because it
 * is never retried; every other fault fires on `span` matching requests in a row starting at the
 * nth, by default every attempt the client may make, so the operation fails.
 */
export function faultRules(fault: Fault, target: Target, nth: number, span = MAX_RETRIES + 1): FaultRule[] {
  const at = (k: number): FaultRule => ({ method: target.method, path: target.path, nth: k });
  const range = (effect: Partial<FaultRule>): FaultRule[] =>
    Array.from({ length: span }, (_, i) => ({ ...at(nth + i), ...effect }));
  switch (fault) {
    case "429 Retry-After":
      return [{ ...at(nth), respond: { status: 429, retryAfter: "1" } }];
    case "500":
      return [{ ...at(nth), respond: { status: 500 } }];
    case "503":
      return range({ respond: { status: 503 } });
    case "drop before":
      return range({ drop: "before" });
    case "drop after":
      return range({ drop: "after" });
    case "timeout":
      return range({ latencyMs: HANG_MS });
  }
}

/** Adds the rules of {@link faultRules} to the sandbox. */
export function inject(sandbox: Sandbox, fault: Fault, target: Target, nth: number, span?: number): void {
  for (const rule of faultRules(fault, target, nth, span)) sandbox.addFault(rule);
}

/** Whether the client is expected to absorb the fault (the operation succeeds the first time). */
export function absorbed(fault: Fault): boolean {
  return fault === "429 Retry-After";
}

/** How the request that meets the fault is treated by the client. */
export type RequestKind =
  /** Safe to resend (PUT, PATCH without adds): retried, and repeated by the next operation. */
  | "replayable"
  /** Never resent once it may have reached the API (PATCH with an add, the restore POST). */
  | "once"
  /** A read (the contacts listing). */
  | "read";

/**
 * What the error of a failed operation must say: the status for 503/500; for a lost connection or
 * a timeout, what happened and, where the outcome is unknowable, that it is and what to do. It must
 * never hold the API key.
 */
export function expectFailureExplained(message: string, fault: Fault, kind: RequestKind): void {
  // Every error of the matrix is also a secrets check.
  expect(message).not.toContain(API_KEY);
  switch (fault) {
    case "429 Retry-After":
      throw new Error("a single 429 with Retry-After must be absorbed, not fail the operation");
    case "503":
      expect(message).toMatch(/returned 503 Service Unavailable/);
      return;
    case "500":
      expect(message).toMatch(/returned 500 Internal Server Error/);
      return;
    case "drop before":
    case "drop after":
    case "timeout":
      expect(message).toMatch(
        fault === "timeout" ? new RegExp(`got no response within ${TIMEOUT_MS} ms`) : /lost the connection/,
      );
      if (kind === "once") {
        expect(message).toMatch(/outcome is unknown/);
        expect(message).toMatch(/pulumi up` again/);
      } else if (kind === "replayable") {
        expect(message).toMatch(/safe to repeat: run the operation again/);
      } else {
        expect(message).toMatch(/Nothing was changed/);
      }
      return;
  }
}

/** The text of a rejected engine operation (the CLI's output is part of the error). */
export async function failureOf(operation: Promise<unknown>): Promise<string> {
  return operation.then(
    () => {
      throw new Error("the operation succeeded, but the fault should have made it fail");
    },
    (err: unknown) => String(err),
  );
}

/**
 * Waits until the sandbox has finished every request it received: a request held by a "timeout"
 * fault is still applied once its delay ends, after the client gave up, and the next operation must
 * not race it.
 */
export async function settled(sandbox: Sandbox, limitMs = HANG_MS * 4): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (sandbox.requests.some((r) => r.status === 0 && r.dropped === undefined)) {
    if (Date.now() > deadline) throw new Error("the sandbox still holds requests");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A stack for the matrix: key as a secret, few retries, short timeout. */
export function matrixStack(
  sandbox: Sandbox,
  program: () => Promise<Record<string, unknown>>,
): Promise<TestStack> {
  return createTestStack({
    program,
    config: {
      "domainapi:baseUrl": sandbox.url,
      "domainapi:apiKey": { value: API_KEY, secret: true },
      "domainapi:maxRetries": String(MAX_RETRIES),
      "domainapi:timeoutMs": String(TIMEOUT_MS),
    },
  });
}
