/**
 * Paging by the answer (docs/design.md, "Reading responses"): which pages of a contacts listing
 * exist, how many contacts each must hold, and whether an answer agrees with the listing the first
 * answer described. The API may serve fewer contacts per page than asked (its maximum is not
 * shown), so the pagination object of the answer decides, never the request.
 *
 * This module knows neither HTTP nor Pulumi: it reads numbers and says what disagrees.
 */

/** The shape of a listing, as the first answer describes it. */
export interface Layout {
  /** Contacts per page the API serves (its `per_page`), whatever was asked. */
  readonly perPage: number;
  /** Contacts matching the filters (`total_results`). */
  readonly totalResults: number;
  /** Pages at that size (`total_pages`). */
  readonly totalPages: number;
}

/** One answer, reduced to what paging needs. */
export interface PageAnswer {
  /** The page number the request asked for. */
  readonly asked: number;
  /** The page number the answer says it is (`current_page`, or `page` as the samples name it). */
  readonly currentPage: number;
  readonly perPage: number;
  readonly totalPages: number;
  readonly totalResults: number;
  /** How many contacts the answer holds. */
  readonly count: number;
}

/**
 * Why a listing cannot be trusted: `changed` when the matching contacts changed while being listed
 * (the total moved, or a contact came twice), which a fresh listing may cure; `inconsistent` when
 * the API's answers contradict themselves or the request, which asking again will not cure.
 */
export type Disagreement = { readonly kind: "changed" | "inconsistent"; readonly message: string };

/** Number of pages `totalResults` contacts fill at `perPage` each. */
export function pageCount(totalResults: number, perPage: number): number {
  return Math.ceil(totalResults / perPage);
}

/**
 * How many contacts page `page` (from 1) must hold in `layout`: `perPage` before the last page,
 * the rest on the last, none past it.
 *
 * @example
 * contactsOnPage({ perPage: 20, totalResults: 137, totalPages: 7 }, 7); // 17
 */
export function contactsOnPage(layout: Layout, page: number): number {
  return Math.max(0, Math.min(layout.perPage, layout.totalResults - (page - 1) * layout.perPage));
}

/**
 * The pages to fetch after page 1 so that the listing holds every contact, or the first `limit`:
 * `[2, ..., n]`, in the API's page size.
 *
 * @example
 * pagesAfterFirst({ perPage: 20, totalResults: 137, totalPages: 7 }, 45); // [2, 3]
 */
export function pagesAfterFirst(layout: Layout, limit = Number.POSITIVE_INFINITY): number[] {
  const wanted = Math.min(layout.totalPages, pageCount(Math.min(limit, layout.totalResults), layout.perPage));
  return Array.from({ length: Math.max(0, wanted - 1) }, (_, i) => i + 2);
}

function pageOf(answer: PageAnswer): Disagreement | undefined {
  if (answer.currentPage === answer.asked) return undefined;
  return {
    kind: "inconsistent",
    message: `the answer to page ${answer.asked} says it is page ${answer.currentPage} (current_page/page)`,
  };
}

function countOf(layout: Layout, answer: PageAnswer): Disagreement | undefined {
  const expected = contactsOnPage(layout, answer.asked);
  if (answer.count === expected) return undefined;
  return {
    kind: "inconsistent",
    message:
      `page ${answer.asked} holds ${answer.count} contacts, but ${layout.totalResults} results at ` +
      `${layout.perPage} per page (per_page) put ${expected} on it`,
  };
}

/**
 * The layout an answer describes, or what in it disagrees: its page number with the page asked
 * for, `total_pages` with `total_results` and `per_page`, its number of contacts with all three.
 * An empty listing may say 0 or 1 pages.
 *
 * @example
 * layoutOf({ asked: 1, currentPage: 1, perPage: 20, totalPages: 7, totalResults: 137, count: 20 });
 * // { layout: { perPage: 20, totalResults: 137, totalPages: 7 } }
 */
export function layoutOf(answer: PageAnswer): { layout: Layout } | { disagreement: Disagreement } {
  const layout: Layout = {
    perPage: answer.perPage,
    totalResults: answer.totalResults,
    totalPages: answer.totalPages,
  };
  const pages = pageCount(answer.totalResults, answer.perPage);
  const pagesAgree = answer.totalPages === pages || (answer.totalResults === 0 && answer.totalPages <= 1);
  const disagreement =
    pageOf(answer) ??
    (pagesAgree
      ? undefined
      : {
          kind: "inconsistent" as const,
          message:
            `the answer to page ${answer.asked} says total_pages ${answer.totalPages}, but ` +
            `total_results ${answer.totalResults} at per_page ${answer.perPage} make ${pages}`,
        }) ??
    countOf(layout, answer);
  return disagreement === undefined ? { layout } : { disagreement };
}

/**
 * Whether a later answer belongs to the listing `layout` describes: the same `total_results`
 * (else the contacts `changed` meanwhile), the same `per_page` and `total_pages`, the page asked
 * for, and as many contacts as that page must hold.
 *
 * @example
 * checkAnswer(layout, { asked: 3, currentPage: 3, perPage: 20, totalPages: 7, totalResults: 138, count: 20 });
 * // { kind: "changed", message: "page 3 says total_results 138, page 1 said 137" }
 */
export function checkAnswer(layout: Layout, answer: PageAnswer): Disagreement | undefined {
  if (answer.totalResults !== layout.totalResults) {
    return {
      kind: "changed",
      message: `page ${answer.asked} says total_results ${answer.totalResults}, page 1 said ${layout.totalResults}`,
    };
  }
  if (answer.perPage !== layout.perPage || answer.totalPages !== layout.totalPages) {
    return {
      kind: "inconsistent",
      message:
        `page ${answer.asked} says per_page ${answer.perPage} and total_pages ${answer.totalPages}, ` +
        `page 1 said ${layout.perPage} and ${layout.totalPages}`,
    };
  }
  return pageOf(answer) ?? countOf(layout, answer);
}

/**
 * The first key that comes twice in the pages, in order: a contact served twice means the list
 * shifted between pages (one contact added and another removed keeps the total).
 *
 * @example
 * firstRepeat([["A", "B"], ["B", "C"]]); // "B"
 */
export function firstRepeat(pages: ReadonlyArray<ReadonlyArray<string>>): string | undefined {
  const seen = new Set<string>();
  for (const page of pages) {
    for (const key of page) {
      if (seen.has(key)) return key;
      seen.add(key);
    }
  }
  return undefined;
}
