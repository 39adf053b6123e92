/**
 * Record ids sent as numbers: read only while a number holds every digit (2^53 - 1 at most); a
 * larger one has lost digits on the way, and reading it would name another record.
 */
import { expect, test } from "vitest";
import { describeIssues, RecordIdsResponseSchema } from "../../../provider/client/wire";

test("2^53 - 1 reads as its digits; 2^53 and above are refused, naming the element", () => {
  expect(RecordIdsResponseSchema.parse({ record_id: [2 ** 53 - 1] })).toEqual({
    record_id: ["9007199254740991"],
  });
  for (const id of [2 ** 53, 2 ** 64]) {
    const result = RecordIdsResponseSchema.safeParse({ record_id: ["7", id] });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(describeIssues(result.error)).toBe("record_id[1]: expected string (or a whole number)");
  }
});
