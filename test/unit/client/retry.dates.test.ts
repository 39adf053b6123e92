/**
 * Retry-After as an HTTP-date (RFC 9110 §5.6.7, §10.2.3): every day and month of each of the three
 * forms a server may send is read as the time it names, and what is not exactly one of them
 * (lower case, a one-digit day, a missing second, text around it) is no date at all, so the client
 * falls back to its backoff rather than trusting a lenient parser.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseRetryAfter } from "../../../provider/client/retry";

const NOW = Date.parse("2027-01-01T00:00:00Z");
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const two = (n: number) => String(n).padStart(2, "0");
const time = (d: Date) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;

/** The three forms of one instant, as RFC 9110 §5.6.7 writes them. */
function forms(at: number): { imf: string; rfc850: string; asctime: string } {
  const d = new Date(at);
  const day = d.getUTCDay();
  const month = MONTHS[d.getUTCMonth()];
  return {
    imf: `${DAYS[day]}, ${two(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${time(d)} GMT`,
    rfc850: `${LONG_DAYS[day]}, ${two(d.getUTCDate())}-${month}-${two(d.getUTCFullYear() % 100)} ${time(d)} GMT`,
    asctime: `${DAYS[day]} ${month} ${String(d.getUTCDate()).padStart(2, " ")} ${time(d)} ${d.getUTCFullYear()}`,
  };
}

describe("an HTTP-date is the time it names", () => {
  test("every day of the week and every month, in each form (one-digit days padded as each form pads them)", () => {
    // The first ten days of each month of 2027: every weekday, every month, one- and two-digit days.
    for (let month = 0; month < 12; month += 1) {
      for (let date = 1; date <= 10; date += 1) {
        const at = Date.UTC(2027, month, date, 13, 7, 9);
        const { imf, rfc850, asctime } = forms(at);
        expect(imf).toBe(new Date(at).toUTCString());
        for (const text of [imf, rfc850, asctime])
          expect([text, parseRetryAfter(text, NOW)]).toEqual([text, at - NOW]);
      }
    }
  });

  test("any instant to come, in any form", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 * 365 * 86_400 }), (seconds) => {
        const at = NOW + seconds * 1000;
        for (const text of Object.values(forms(at))) expect(parseRetryAfter(text, NOW)).toBe(at - NOW);
      }),
    );
  });
});

describe("what is not exactly an HTTP-date is no wait", () => {
  test.each([
    ["lower-case day", "sun, 03 Jan 2027 13:07:09 GMT"],
    ["lower-case month", "Sun, 03 jan 2027 13:07:09 GMT"],
    ["another zone", "Sun, 03 Jan 2027 13:07:09 UTC"],
    ["lower-case zone", "Sun, 03 Jan 2027 13:07:09 gmt"],
    ["a one-digit day in IMF", "Sun, 3 Jan 2027 13:07:09 GMT"],
    ["no seconds", "Sun, 03 Jan 2027 13:07 GMT"],
    ["a day that is no day", "Sux, 03 Jan 2027 13:07:09 GMT"],
    ["a month that is no month", "Sun, 03 Jax 2027 13:07:09 GMT"],
    ["text before", "x Sun, 03 Jan 2027 13:07:09 GMT"],
    ["text after", "Sun, 03 Jan 2027 13:07:09 GMT x"],
    ["RFC 850 with a short day", "Sun, 03-Jan-27 13:07:09 GMT"],
    ["RFC 850 with text after", "Sunday, 03-Jan-27 13:07:09 GMT junk"],
    ["RFC 850 with text before", "x Sunday, 03-Jan-27 13:07:09 GMT"],
    ["IMF with an offset after GMT", "Sun, 03 Jan 2027 13:07:09 GMT+0100"],
    ["RFC 850 with an offset after GMT", "Sunday, 03-Jan-27 13:07:09 GMT+0100"],
    ["asctime with a zone offset", "Sun Jan  3 13:07:09 2027 +0100"],
    ["RFC 850 with a four-digit year", "Sunday, 03-Jan-2027 13:07:09 GMT"],
    ["asctime with a one-character day", "Sun Jan 3 13:07:09 2027"],
    ["asctime with a zone", "Sun Jan  3 13:07:09 2027 GMT"],
    ["asctime with text before", "on Sun Jan  3 13:07:09 2027"],
    ["asctime with a long day", "Sunday Jan  3 13:07:09 2027"],
    ["delta-seconds with a sign", "+5"],
    ["delta-seconds with text after", "5 s"],
  ])("%s: %j", (_, text) => {
    expect(parseRetryAfter(text, NOW)).toBeUndefined();
  });

  test("only the first of several Retry-After values counts", () => {
    expect(parseRetryAfter(["soon", "5"], NOW)).toBeUndefined();
    expect(parseRetryAfter([], NOW)).toBeUndefined();
  });
});
