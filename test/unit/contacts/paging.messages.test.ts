/**
 * What getContacts tells a user whose listing cannot be trusted (provider/contacts/paging.ts):
 * each disagreement's kind and its words, naming the page and the API's own fields.
 */
import { describe, expect, test } from "vitest";
import {
  checkAnswer,
  contactsOnPage,
  type Layout,
  layoutOf,
  type PageAnswer,
  pagesAfterFirst,
} from "../../../provider/contacts/paging";

const LAYOUT: Layout = { perPage: 20, totalResults: 137, totalPages: 7 };
const page = (asked: number, over: Partial<PageAnswer> = {}): PageAnswer => ({
  asked,
  currentPage: asked,
  perPage: 20,
  totalPages: 7,
  totalResults: 137,
  count: contactsOnPage(LAYOUT, asked),
  ...over,
});

describe("the first answer", () => {
  test("describes the listing when it agrees with itself", () => {
    expect(layoutOf(page(1))).toEqual({ layout: LAYOUT });
  });

  test("an empty listing may say no page or one, not two", () => {
    const empty = { asked: 1, currentPage: 1, perPage: 20, totalResults: 0, count: 0 };
    expect(layoutOf({ ...empty, totalPages: 0 })).toEqual({
      layout: { perPage: 20, totalResults: 0, totalPages: 0 },
    });
    expect(layoutOf({ ...empty, totalPages: 1 })).toEqual({
      layout: { perPage: 20, totalResults: 0, totalPages: 1 },
    });
    expect(layoutOf({ ...empty, totalPages: 2 })).toEqual({
      disagreement: {
        kind: "inconsistent",
        message: "the answer to page 1 says total_pages 2, but total_results 0 at per_page 20 make 0",
      },
    });
  });

  test("a page number that is not the one asked for", () => {
    expect(layoutOf(page(1, { currentPage: 2 }))).toEqual({
      disagreement: {
        kind: "inconsistent",
        message: "the answer to page 1 says it is page 2 (current_page/page)",
      },
    });
  });

  test("total_pages that the total and the page size do not make", () => {
    expect(layoutOf(page(1, { totalPages: 8 }))).toEqual({
      disagreement: {
        kind: "inconsistent",
        message: "the answer to page 1 says total_pages 8, but total_results 137 at per_page 20 make 7",
      },
    });
  });

  test("a count that the layout does not put on the page", () => {
    expect(layoutOf(page(1, { count: 19 }))).toEqual({
      disagreement: {
        kind: "inconsistent",
        message: "page 1 holds 19 contacts, but 137 results at 20 per page (per_page) put 20 on it",
      },
    });
  });
});

describe("a later answer", () => {
  test("a moved total is a change of the contacts", () => {
    expect(checkAnswer(LAYOUT, page(3, { totalResults: 138 }))).toEqual({
      kind: "changed",
      message: "page 3 says total_results 138, page 1 said 137",
    });
  });

  test("another page size or number of pages contradicts page 1", () => {
    const said = "page 1 said 20 and 7";
    expect(checkAnswer(LAYOUT, page(3, { perPage: 25 }))).toEqual({
      kind: "inconsistent",
      message: `page 3 says per_page 25 and total_pages 7, ${said}`,
    });
    expect(checkAnswer(LAYOUT, page(3, { totalPages: 6 }))).toEqual({
      kind: "inconsistent",
      message: `page 3 says per_page 20 and total_pages 6, ${said}`,
    });
  });

  test("the last page short of its rest", () => {
    expect(checkAnswer(LAYOUT, page(7, { count: 16 }))).toEqual({
      kind: "inconsistent",
      message: "page 7 holds 16 contacts, but 137 results at 20 per page (per_page) put 17 on it",
    });
    expect(checkAnswer(LAYOUT, page(7))).toBeUndefined();
  });
});

describe("the pages to fetch", () => {
  test("every page for the whole listing, only those a limit needs", () => {
    expect(pagesAfterFirst(LAYOUT)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(pagesAfterFirst(LAYOUT, 45)).toEqual([2, 3]);
    expect(pagesAfterFirst(LAYOUT, 40)).toEqual([2]);
    expect(pagesAfterFirst(LAYOUT, 20)).toEqual([]);
    expect(pagesAfterFirst({ perPage: 20, totalResults: 0, totalPages: 0 })).toEqual([]);
  });

  test("never past the pages the API says it has", () => {
    expect(pagesAfterFirst({ perPage: 20, totalResults: 137, totalPages: 3 })).toEqual([2, 3]);
  });
});
