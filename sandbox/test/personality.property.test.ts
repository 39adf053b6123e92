/**
 * Properties of the personality building blocks over large input spaces: byte ranges, Retry-After
 * forms, error shapes and capped pages.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateContacts } from "../src/contactGenerator";
import { listContacts } from "../src/contacts";
import { shapeError } from "../src/errorBodies";
import { applyRange, encodeReply } from "../src/http";
import { ERROR_SHAPES, formatRetryAfter } from "../src/personality";

describe("applyRange", () => {
  const payloads = fc.string({ minLength: 1, maxLength: 300 }).map((text) => ({ text }));

  it("serves exactly the bytes asked for, and says which in Content-Range", () => {
    fc.assert(
      fc.property(payloads, fc.nat(400), fc.nat(400), (body, a, b) => {
        const whole = encodeReply({ status: 200, body });
        const size = whole.payload!.length;
        const [first, last] = a <= b ? [a, b] : [b, a];
        const ranged = applyRange(whole, `bytes=${first}-${last}`);
        if (first >= size) {
          expect(ranged.status).toBe(416);
          expect(ranged.headers["Content-Range"]).toBe(`bytes */${size}`);
          expect(ranged.payload).toBeUndefined();
          return;
        }
        const end = Math.min(last, size - 1);
        expect(ranged.status).toBe(206);
        expect(ranged.payload!.equals(whole.payload!.subarray(first, end + 1))).toBe(true);
        expect(ranged.headers["Content-Range"]).toBe(`bytes ${first}-${end}/${size}`);
        expect(ranged.headers["Content-Length"]).toBe(end - first + 1);
      }),
    );
  });

  it("a suffix range serves the last bytes; anything but a 200 with a body is left alone", () => {
    fc.assert(
      fc.property(payloads, fc.integer({ min: 1, max: 400 }), (body, n) => {
        const whole = encodeReply({ status: 200, body });
        const tail = applyRange(whole, `bytes=-${n}`);
        expect(tail.payload!.equals(whole.payload!.subarray(Math.max(0, whole.payload!.length - n)))).toBe(
          true,
        );
        const error = encodeReply({ status: 404, error: { code: "not_found", message: "x" } });
        expect(applyRange(error, `bytes=0-${n}`)).toBe(error);
        expect(applyRange(whole, `bytes=0-1,3-${n}`)).toBe(whole);
      }),
    );
  });
});

describe("formatRetryAfter", () => {
  const waits = fc.double({ min: 0.0001, max: 3600, noNaN: true });

  it("never tells a client to come back before the wait is over", () => {
    fc.assert(
      fc.property(waits, fc.integer({ min: 0, max: 4_000_000_000_000 }), (wait, now) => {
        const seconds = formatRetryAfter(wait, "seconds", now);
        expect(seconds).toMatch(/^[1-9]\d*$/);
        expect(Number(seconds)).toBeGreaterThanOrEqual(wait);
        const fraction = formatRetryAfter(wait, "fraction", now);
        expect(fraction).toMatch(/^\d+\.\d$/);
        // Rounded up to a tenth: never less than the wait, never a tenth more.
        expect(Number(fraction) + 1e-9).toBeGreaterThanOrEqual(wait);
        expect(Number(fraction)).toBeLessThanOrEqual(Math.max(0.1, wait + 0.1) + 1e-9);
        const date = formatRetryAfter(wait, "date", now);
        expect(new Date(date).toUTCString()).toBe(date);
        // A client reading the date against a clock up to a second behind still waits long enough.
        expect(Date.parse(date) - now).toBeGreaterThanOrEqual(wait * 1000 + 1000 - 1);
      }),
    );
  });
});

describe("shapeError", () => {
  it("keeps the API's words in every shape but empty", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.integer({ min: 400, max: 599 }), (message, status) => {
        for (const shape of ERROR_SHAPES) {
          const shaped = shapeError(status, { code: "c", message }, shape);
          if (shape === "empty") {
            expect(shaped).toEqual({ raw: "" });
            continue;
          }
          if ("body" in shaped) {
            expect(JSON.stringify(shaped.body)).toContain(JSON.stringify(message).slice(1, -1));
          } else if (shape === "problem") {
            expect(JSON.parse(shaped.raw).detail).toBe(message);
          } else {
            const paragraph = /<p>([\s\S]*)<\/p>/.exec(shaped.raw)![1]!;
            const unescaped = paragraph.replace(/&#(\d+);/g, (_m, code: string) =>
              String.fromCharCode(Number(code)),
            );
            expect(unescaped).toBe(message);
            expect(paragraph).not.toMatch(/[<>"']/);
          }
        }
      }),
    );
  });
});

describe("perPageCap", () => {
  const contacts = generateContacts(400, 5);

  it("paging by what the answer says yields every contact once, whatever the cap and the ask", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 1000 }),
        (count, cap, asked) => {
          const stored = contacts.slice(0, count);
          const format = { paginationField: "page" as const, connectionsAsString: false, perPageCap: cap };
          const first = listContacts(stored, `per_page=${asked}`, format);
          expect(first.pagination.per_page).toBe(Math.min(asked, cap));
          const seen = first.data.map((c) => c.handle);
          for (let page = 2; page <= first.pagination.total_pages; page += 1) {
            const next = listContacts(stored, `per_page=${asked}&page=${page}`, format);
            expect(next.pagination.per_page).toBe(first.pagination.per_page);
            seen.push(...next.data.map((c) => c.handle));
          }
          expect(seen).toEqual(stored.map((c) => c.handle));
        },
      ),
      { numRuns: 200 },
    );
  });
});
