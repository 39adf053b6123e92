/**
 * What `getContacts` returns, as a zod schema: the plugin's function spec
 * (`domainapi:index:getContacts`) is generated from it, and getContacts' `GetContactsResult` is
 * held to its output type, so the SDKs describe the result the code returns.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { z } from "zod";
import { ContactFieldsSchema } from "../client/wire";

/** The result of `getContacts`: the contacts and the counts of the listing they came from. */
export const ContactsResultSchema = z.strictObject({
  contacts: z
    .array(ContactFieldsSchema)
    .describe("The contacts, in the API's order, each once, at most `limit` of them."),
  total: z.number().int().describe("Number of contacts matching the filters."),
  pages: z.number().int().describe("Number of pages at the page size the API used."),
  perPage: z.number().int().describe("Contacts per page the API served."),
});
