/**
 * The paging arithmetic of getContacts (provider/contacts/paging.ts), by properties: an honest API
 * at any page size yields every contact once and no page too many; any answer that does not fit
 * the listing is caught; whatever the answers, an accepted listing is never short of what it
 * claims.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkAnswer,
  contactsOnPage,
  firstRepeat,
  type Layout,
  layoutOf,
  type PageAnswer,
  pageCount,
  pagesAfterFirst,
} from "../../../provider/contacts/paging";

/** An API serving `total` contacts (named by their index) at `perPage` each. */
function honest(total: number, perPage: number) {
  const items = Array.from({ length: total }, (_, i) => i);
  return (page: number): { answer: PageAnswer; items: number[] } => {
    const served = items.slice((page - 1) * perPage, page * perPage);
    return {
      answer: {
        asked: page,
        currentPage: page,
        perPage,
        totalPages: Math.ceil(total / perPage),
        totalResults: total,
        count: served.length,
      },
      items: served,
    };
  };
}

function layoutOrThrow(answer: PageAnswer): Layout {
  const described = layoutOf(answer);
  if ("disagreement" in described) throw new Error(described.disagreement.message);
  return described.layout;
}

const totals = fc.integer({ min: 0, max: 2000 });
const sizes = fc.integer({ min: 1, max: 120 });
const limits = fc.option(fc.integer({ min: 1, max: 2500 }), { nil: undefined });

describe("an honest API", () => {
  it("at any served page size: every contact once, in order, and only the pages needed", () => {
    fc.assert(
      fc.property(totals, sizes, limits, (total, perPage, limit) => {
        const api = honest(total, perPage);
        const first = api(1);
        const layout = layoutOrThrow(first.answer);
        const rest = pagesAfterFirst(layout, limit);
        const answers = rest.map(api);
        for (const { answer } of answers) expect(checkAnswer(layout, answer)).toBeUndefined();
        const got = [first, ...answers].flatMap((a) => a.items).slice(0, limit);
        const wanted = Math.min(limit ?? total, total);
        expect(got).toEqual(Array.from({ length: wanted }, (_, i) => i));
        // No page too many: the last page fetched holds a contact that is returned.
        const lastFetched = rest.at(-1) ?? 1;
        if (wanted > 0) expect((lastFetched - 1) * perPage).toBeLessThan(wanted);
        expect(rest).toEqual(Array.from({ length: rest.length }, (_, i) => i + 2));
      }),
      { numRuns: 500 },
    );
  });

  it("contactsOnPage adds up to the total over the pages, and is 0 past them", () => {
    fc.assert(
      fc.property(totals, sizes, (total, perPage) => {
        const layout = { perPage, totalResults: total, totalPages: pageCount(total, perPage) };
        const pages = Array.from({ length: layout.totalPages }, (_, i) => contactsOnPage(layout, i + 1));
        expect(pages.reduce((a, b) => a + b, 0)).toBe(total);
        expect(pages.slice(0, -1).every((n) => n === perPage)).toBe(true);
        expect(contactsOnPage(layout, layout.totalPages + 1)).toBe(0);
      }),
    );
  });
});

type Field = "currentPage" | "perPage" | "totalPages" | "totalResults" | "count";

describe("an answer that does not fit", () => {
  it("is caught on every later page, whatever field is off; only a moved total reads as a change", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 2000 }),
        sizes,
        fc.constantFrom<Field>("currentPage", "perPage", "totalPages", "totalResults", "count"),
        fc.integer({ min: 1, max: 50 }),
        fc.boolean(),
        fc.nat(),
        (total, perPage, field, by, up, pick) => {
          fc.pre(total > perPage);
          const api = honest(total, perPage);
          const layout = layoutOrThrow(api(1).answer);
          const page = 2 + (pick % (layout.totalPages - 1));
          const answer = api(page).answer;
          const off = Math.max(0, answer[field] + (up ? by : -by));
          fc.pre(off !== answer[field]);
          const disagreement = checkAnswer(layout, { ...answer, [field]: off });
          expect(disagreement?.kind).toBe(field === "totalResults" ? "changed" : "inconsistent");
          expect(disagreement?.message).toContain(`page ${page}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a first answer is caught when its page number, total_pages or count is off", () => {
    fc.assert(
      fc.property(
        totals,
        sizes,
        fc.constantFrom<Field>("currentPage", "totalPages", "count"),
        fc.integer({ min: 1, max: 50 }),
        (total, perPage, field, by) => {
          const answer = honest(total, perPage)(1).answer;
          const tampered = { ...answer, [field]: answer[field] + by };
          // An empty listing may say one page.
          fc.pre(!(field === "totalPages" && total === 0 && tampered.totalPages === 1));
          expect("disagreement" in layoutOf(tampered)).toBe(true);
        },
      ),
    );
  });

  it("whatever the answers, an accepted listing holds all it claims: never part of it as if all", () => {
    // Answers drawn near an honest one: most numbers as they are, some nudged by -2..2.
    const nudge = fc.oneof(
      { arbitrary: fc.constant(0), weight: 6 },
      { arbitrary: fc.integer({ min: -2, max: 2 }), weight: 1 },
    );
    const nudges = fc.record({
      currentPage: nudge,
      perPage: nudge,
      totalPages: nudge,
      totalResults: nudge,
      count: nudge,
    });
    fc.assert(
      fc.property(
        totals,
        sizes,
        limits,
        fc.array(nudges, { maxLength: 30 }),
        (total, perPage, limit, noise) => {
          const api = honest(total, perPage);
          const answerTo = (page: number): PageAnswer => {
            const answer = api(page).answer;
            const n = noise[page - 1];
            if (n === undefined) return answer;
            return {
              asked: page,
              currentPage: Math.max(1, answer.currentPage + n.currentPage),
              perPage: Math.max(1, answer.perPage + n.perPage),
              totalPages: Math.max(0, answer.totalPages + n.totalPages),
              totalResults: Math.max(0, answer.totalResults + n.totalResults),
              count: Math.max(0, answer.count + n.count),
            };
          };
          const described = layoutOf(answerTo(1));
          if ("disagreement" in described) return;
          const { layout } = described;
          const first = answerTo(1);
          const rest = pagesAfterFirst(layout, limit).map(answerTo);
          if (rest.some((answer) => checkAnswer(layout, answer) !== undefined)) return;
          const held = [first, ...rest].reduce((sum, answer) => sum + answer.count, 0);
          expect(Math.min(held, limit ?? held)).toBe(
            Math.min(layout.totalResults, limit ?? layout.totalResults),
          );
          for (const answer of [first, ...rest]) expect(answer.currentPage).toBe(answer.asked);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("firstRepeat", () => {
  it("finds a key served twice, and only then", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ maxLength: 3 }), { maxLength: 8 }), { maxLength: 6 }),
        (pages) => {
          const all = pages.flat();
          const repeat = firstRepeat(pages);
          if (new Set(all).size === all.length) {
            expect(repeat).toBeUndefined();
          } else {
            expect(repeat).toBeDefined();
            const at = all.indexOf(repeat as string);
            expect(all.indexOf(repeat as string, at + 1)).toBeGreaterThan(at);
            // The first one to come twice: nothing before its second coming came twice.
            const second = all.indexOf(repeat as string, at + 1);
            expect(new Set(all.slice(0, second)).size).toBe(second);
          }
        },
      ),
    );
  });

  it("examples", () => {
    expect(
      firstRepeat([
        ["A", "B"],
        ["B", "C"],
      ]),
    ).toBe("B");
    expect(firstRepeat([["A"], [], ["C"]])).toBeUndefined();
  });
});
