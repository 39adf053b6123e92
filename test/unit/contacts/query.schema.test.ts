/**
 * getContacts as the SDKs document it: the function spec made from its argument and result
 * schemas (provider/contacts/query.ts, provider/contacts/result.ts) is the one the committed
 * schema.json ships, so every argument's and result field's type and description that a Python, Go
 * or .NET user reads is the one the code checks and returns.
 */
import { describe, expect, it } from "vitest";
import { ContactsArgsSchema } from "../../../provider/contacts/query";
import { ContactsResultSchema } from "../../../provider/contacts/result";
import { TOKENS } from "../../../provider/manifest";
import committed from "../../../provider/plugin/schema.json";
import { functionSpecFromZod } from "../../../provider/schema/fromZod";
import { TYPES } from "../../../provider/schema/spec";

type Properties = Record<string, { type?: string; description?: string; items?: unknown }>;
const shipped = committed.functions[TOKENS.contacts] as {
  description: string;
  inputs: { properties: Properties; required?: string[] };
  outputs: { properties: Properties; required?: string[] };
};
const made = functionSpecFromZod(
  TOKENS.contacts,
  shipped.description,
  { args: ContactsArgsSchema, result: ContactsResultSchema },
  { "domainapi:index:Contact": TYPES["domainapi:index:Contact"] as never },
);

describe("getContacts in schema.json", () => {
  it("takes the arguments the code checks, each with the type and description shipped", () => {
    expect(made.inputs).toEqual(shipped.inputs);
    expect(shipped.inputs.required).toBeUndefined();
    expect(shipped.inputs.properties.perPage?.description).toMatch(/From 1 to 100\.$/);
  });

  it("returns the fields the code returns, all of them always there", () => {
    expect(made.outputs).toEqual(shipped.outputs);
    expect(shipped.outputs.required?.sort()).toEqual(["contacts", "pages", "perPage", "total"]);
    expect(shipped.outputs.properties.total?.type).toBe("integer");
  });
});
