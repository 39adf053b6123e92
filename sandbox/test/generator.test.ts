import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDatetime, generateContacts, mulberry32 } from "../src/contactGenerator";
import { searchMatcher } from "../src/contactQuery";
import { WireContactSchema } from "../src/contactSchema";
import { formatRetryAfter } from "../src/personality";
import { TokenBucket } from "../src/rateLimit";

describe("formatDatetime", () => {
  it("agrees with Date#toISOString (whole seconds) for every instant from 1970 to 2200", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), (epochMs) => {
        const expected = new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace(".000Z", "Z");
        expect(formatDatetime(epochMs)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("generateContacts", () => {
  it("makes contacts that pass the sandbox's own contact schema", () => {
    for (const contact of generateContacts(500, 7))
      expect(WireContactSchema.safeParse(contact).success).toBe(true);
  });

  it("is a prefix-stable sequence: the first n of a larger set equal a set of n", () => {
    expect(generateContacts(200, 3).slice(0, 50)).toEqual(generateContacts(50, 3));
  });

  it("uses mulberry32, which repeats per seed and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    for (let i = 0; i < 1000; i += 1) {
      const value = a();
      expect(value).toBe(b());
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });
});

describe("searchMatcher", () => {
  it("without % matches exactly what equals the value ignoring case", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme-ascii" }),
        fc.string({ unit: "grapheme-ascii" }),
        (value, candidate) => {
          fc.pre(!value.includes("%"));
          expect(searchMatcher(value)(candidate)).toBe(value.toLowerCase() === candidate.toLowerCase());
        },
      ),
    );
  });

  it("with % around a literal matches exactly the strings that contain it, ignoring case", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme-ascii" }),
        fc.string({ unit: "grapheme-ascii" }),
        (needle, haystack) => {
          fc.pre(!needle.includes("%"));
          expect(searchMatcher(`%${needle}%`)(haystack)).toBe(
            haystack.toLowerCase().includes(needle.toLowerCase()),
          );
        },
      ),
    );
  });
});

describe("TokenBucket", () => {
  // The bucket says the exact wait; Retry-After rounds it up to whole seconds by default.
  const header = (wait: number | undefined) =>
    wait === undefined ? undefined : formatRetryAfter(wait, "seconds");

  it("holds burst tokens and refills perSecond", () => {
    const bucket = new TokenBucket({ perSecond: 4, burst: 2 }, 0);
    expect(bucket.take(0)).toBeUndefined();
    expect(bucket.take(0)).toBeUndefined();
    const empty = bucket.take(0);
    expect(empty).toBeCloseTo(0.25, 9);
    expect(header(empty)).toBe("1");
    const almost = bucket.take(249);
    expect(almost).toBeCloseTo(0.001, 9);
    expect(header(almost)).toBe("1");
    expect(bucket.take(260)).toBeUndefined();
    expect(bucket.take(10_000)).toBeUndefined();
    expect(bucket.take(10_000)).toBeUndefined();
    expect(header(bucket.take(10_000))).toBe("1");
  });

  it("asks for several seconds when tokens come slower than one a second", () => {
    const bucket = new TokenBucket({ perSecond: 0.25, burst: 1 }, 0);
    expect(bucket.take(0)).toBeUndefined();
    expect(bucket.take(0)).toBeCloseTo(4, 9);
    expect(header(bucket.take(0))).toBe("4");
    expect(bucket.take(2000)).toBeCloseTo(2, 9);
    expect(header(bucket.take(2000))).toBe("2");
  });
});
