/**
 * A token-bucket rate limit for /v2 routes: `burst` requests at once, refilled at `perSecond`.
 * A request that finds the bucket empty is a 429 with a Retry-After that says when a token is back.
 */
import { z } from "zod";

/** Rate limit settings: `perSecond` tokens refill each second; the bucket holds `burst` (default perSecond, at least 1). */
export const RateLimitSchema = z.strictObject({
  perSecond: z.number().positive(),
  burst: z.number().int().positive().optional(),
});
/** Rate limit settings. */
export type RateLimit = z.infer<typeof RateLimitSchema>;

/** A token bucket; time is passed in so the bucket is easy to reason about. */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private readonly capacity: number;

  /** @param now Current time in milliseconds (e.g. `performance.now()`). */
  constructor(
    readonly limit: RateLimit,
    now: number,
  ) {
    this.capacity = limit.burst ?? Math.max(1, Math.floor(limit.perSecond));
    this.tokens = this.capacity;
    this.updatedAt = now;
  }

  /**
   * Takes a token. Returns undefined when the request may go ahead, else the seconds to wait for
   * the next token (exact; Retry-After rounds it in its own form).
   */
  take(now: number): number | undefined {
    const elapsedSeconds = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedSeconds * this.limit.perSecond);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return (1 - this.tokens) / this.limit.perSecond;
  }
}
