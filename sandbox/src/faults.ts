/**
 * Fault injection for /v2 routes: answer with a chosen status (optionally with Retry-After),
 * answer with a chosen reply after the change was applied, add latency, or drop the connection
 * before or after applying the change, on the nth or every nth request that matches a method and
 * a path pattern. Lets client tests reproduce retries, timeouts and lost responses on demand.
 */
import { z } from "zod";
import { parseOrThrow } from "./validation";

const positiveInt = z.number().int().positive();
const httpStatus = z.number().int().min(100).max(599);

/**
 * A fault rule. Exactly what it does:
 * - `method` (case-insensitive) and `path` (a RegExp source matched against the pathname) select
 *   the requests it counts; both default to "any".
 * - `nth`: fire only on the nth matching request (1-based, counted from when the rule was added).
 *   `every`: fire on every nth matching request. Neither: fire on each matching request, up to
 *   `times` (default 1). `times` caps the firings in every mode.
 * - Effects: `respond` answers without applying the change; `respondAfterApply` applies it and then
 *   answers with this instead of the real reply; `drop` destroys the socket without an answer,
 *   `"before"` or `"after"` applying the change; `cut` applies the change and sends the real
 *   reply's headers (full Content-Length) and half its body, then destroys the socket; `latencyMs`
 *   delays the request (alone, the request is then handled normally; a large value simulates a hang).
 * - `respond.retryAfter`: a string is sent verbatim (`"2"`, an HTTP date, `"1.5"`); a number of
 *   seconds is written in the sandbox's `retryAfter` form (whole seconds, date or fraction).
 *
 * @example
 * sandbox.addFault({ method: "PATCH", path: "^/v2/dns/templates/[^/]+/records$", respond: { status: 503, retryAfter: "1" } });
 * sandbox.addFault({ method: "PUT", drop: "after", nth: 2 });
 */
export const FaultRuleSchema = z
  .strictObject({
    method: z.string().min(1).optional(),
    path: z
      .string()
      .refine(
        (source) => {
          try {
            new RegExp(source);
            return true;
          } catch {
            return false;
          }
        },
        { error: "must be a valid regular expression source, e.g. ^/v2/contacts$" },
      )
      .optional(),
    nth: positiveInt.optional(),
    every: positiveInt.optional(),
    times: positiveInt.optional(),
    respond: z
      .strictObject({
        status: httpStatus,
        retryAfter: z.union([z.string().min(1), z.number().nonnegative()]).optional(),
        body: z.string().optional(),
        contentType: z.string().min(1).optional(),
      })
      .optional(),
    respondAfterApply: z
      .strictObject({
        status: httpStatus,
        body: z.string().optional(),
        contentType: z.string().min(1).optional(),
      })
      .optional(),
    drop: z.enum(["before", "after"]).optional(),
    cut: z.literal(true, { error: "must be true (cut the reply's body mid-stream)" }).optional(),
    latencyMs: z.number().int().nonnegative().optional(),
  })
  .superRefine((rule, ctx) => {
    const actions = (["respond", "respondAfterApply", "drop", "cut"] as const).filter(
      (key) => rule[key] !== undefined,
    );
    if (actions.length > 1) {
      ctx.addIssue({ code: "custom", path: [actions[1]!], message: `cannot be combined with ${actions[0]}` });
    }
    if (actions.length === 0 && rule.latencyMs === undefined) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: "a fault needs an effect: respond, respondAfterApply, drop, cut or latencyMs",
      });
    }
    if (rule.nth !== undefined && rule.every !== undefined) {
      ctx.addIssue({ code: "custom", path: ["every"], message: "cannot be combined with nth" });
    }
  });
/** A fault rule; see {@link FaultRuleSchema}. */
export type FaultRule = z.infer<typeof FaultRuleSchema>;

/** What the fired faults do to one request. */
export interface FaultEffect {
  /** Total delay of the fired rules. */
  latencyMs: number;
  respond?: NonNullable<FaultRule["respond"]>;
  respondAfterApply?: NonNullable<FaultRule["respondAfterApply"]>;
  drop?: "before" | "after";
  cut?: true;
}

interface ActiveRule {
  rule: FaultRule;
  pattern: RegExp | undefined;
  matched: number;
  fired: number;
}

/** The fault rules of a sandbox, with their counters. */
export class FaultSet {
  private rules: ActiveRule[] = [];

  /**
   * Adds a rule; its counters start at zero now.
   *
   * @throws ApiError 400 naming the field when the rule is malformed.
   */
  add(rule: unknown): void {
    const valid = parseOrThrow(FaultRuleSchema, rule);
    this.rules.push({
      rule: valid,
      pattern: valid.path === undefined ? undefined : new RegExp(valid.path),
      matched: 0,
      fired: 0,
    });
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** The rules, in the order they were added. */
  list(): FaultRule[] {
    return this.rules.map((active) => active.rule);
  }

  /**
   * Counts this request against every matching rule and returns the combined effect of the rules
   * that fire, or undefined when none does. Latencies add up; of the actions (respond,
   * respondAfterApply, drop, cut) the first fired rule's wins.
   */
  match(method: string, pathname: string): FaultEffect | undefined {
    let effect: FaultEffect | undefined;
    for (const active of this.rules) {
      const { rule } = active;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (active.pattern !== undefined && !active.pattern.test(pathname)) continue;
      active.matched += 1;
      if (!fires(active)) continue;
      active.fired += 1;
      effect ??= { latencyMs: 0 };
      effect.latencyMs += rule.latencyMs ?? 0;
      if (
        effect.respond === undefined &&
        effect.respondAfterApply === undefined &&
        effect.drop === undefined &&
        effect.cut === undefined
      ) {
        if (rule.respond !== undefined) effect.respond = rule.respond;
        if (rule.respondAfterApply !== undefined) effect.respondAfterApply = rule.respondAfterApply;
        if (rule.drop !== undefined) effect.drop = rule.drop;
        if (rule.cut !== undefined) effect.cut = rule.cut;
      }
    }
    return effect;
  }
}

function fires(active: ActiveRule): boolean {
  const { rule, matched, fired } = active;
  const cap =
    rule.times ?? (rule.nth === undefined && rule.every === undefined ? 1 : Number.POSITIVE_INFINITY);
  if (fired >= cap) return false;
  if (rule.nth !== undefined) return matched === rule.nth;
  if (rule.every !== undefined) return matched % rule.every === 0;
  return true;
}
