/**
 * The first answer of a listing describes it (provider/contacts/paging.ts): `total_pages` must be
 * what `total_results` and `per_page` make, even when the page itself holds what they put on it.
 */
import { expect, test } from "vitest";
import { layoutOf } from "../../../provider/contacts/paging";

test("total_pages that the totals do not make is refused though page 1 holds the right count", () => {
  expect(
    layoutOf({ asked: 1, currentPage: 1, perPage: 20, totalPages: 5, totalResults: 137, count: 20 }),
  ).toEqual({
    disagreement: {
      kind: "inconsistent",
      message: "the answer to page 1 says total_pages 5, but total_results 137 at per_page 20 make 7",
    },
  });
  expect(
    layoutOf({ asked: 1, currentPage: 1, perPage: 20, totalPages: 7, totalResults: 137, count: 20 }),
  ).toEqual({ layout: { perPage: 20, totalResults: 137, totalPages: 7 } });
});
