/**
 * What the contact fields say of themselves: their descriptions become the documentation of the
 * contacts lookup in the plugin's schema and in every generated SDK, so a user reads them.
 */
import { describe, expect, test } from "vitest";
import { ContactFieldsSchema } from "../../../provider/client/wire";

describe("the contact fields' descriptions", () => {
  test("status lists the spec's statuses, comma-separated, as one sentence", () => {
    expect(ContactFieldsSchema.shape.status.description).toBe(
      "Statuses: ok, pending_update, pending_validation.",
    );
  });
});
