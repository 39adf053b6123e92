/**
 * The personalities the conformance suite runs the provider against: the sandbox's default
 * and, one at a time, each other answer the spec allows (see sandbox/README.md, "Personalities").
 */
import type { SandboxOptions } from "domainapi-sandbox";

/** A named set of sandbox options; `words` says whether an error body can carry the API's words. */
export interface PersonalityCase {
  name: string;
  options: Partial<SandboxOptions>;
  /** False where no answer carries the API's words (no error body, or a body cut in half). */
  words: boolean;
}

/** Every personality, each on its own, the default first. */
export const PERSONALITIES: PersonalityCase[] = [
  { name: "default", options: {}, words: true },
  { name: "perPageCap 25", options: { perPageCap: 25 }, words: true },
  { name: "nullStrings", options: { nullStrings: true }, words: true },
  {
    name: "current_page, connections as strings",
    options: { paginationField: "current_page", connectionsAsString: true },
    words: true,
  },
  { name: "errorBody message", options: { errorBody: "message" }, words: true },
  { name: "errorBody errors", options: { errorBody: "errors" }, words: true },
  { name: "errorBody problem", options: { errorBody: "problem" }, words: true },
  { name: "errorBody html", options: { errorBody: "html" }, words: true },
  { name: "errorBody empty", options: { errorBody: "empty" }, words: false },
  { name: "numericIds", options: { numericIds: true }, words: true },
  // By default a URL forward brings an A and an AAAA record (the spec); here it is one record, one id.
  { name: "one id per URL forward", options: { urlForwardCreatesRecords: false }, words: true },
  { name: "idOrderSeed 2", options: { idOrderSeed: 2 }, words: true },
  // A rate limit the cases run into, so that Retry-After is read in each form.
  {
    name: "retryAfter fraction",
    options: { retryAfter: "fraction", rateLimit: { perSecond: 20, burst: 2 } },
    words: true,
  },
  {
    name: "retryAfter date",
    options: { retryAfter: "date", rateLimit: { perSecond: 4, burst: 3 } },
    words: true,
  },
  { name: "cutBodies 1", options: { cutBodies: 1 }, words: false },
  { name: "ignoreRange", options: { ignoreRange: true }, words: true },
  { name: "keepAliveIdleMs 100", options: { keepAliveIdleMs: 100 }, words: true },
  { name: "patchApply itemwise", options: { patchApply: "itemwise" }, words: true },
];
