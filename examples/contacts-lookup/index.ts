/**
 * A contact lookup feeding a resource: the handles of the account's most-connected active contacts
 * in one country, published as TXT records (`_contacts`) in a DNS template that other records
 * share. When the contacts change, the next `pulumi up` updates exactly those TXT records.
 */
import * as pulumi from "@pulumi/pulumi";
import * as domainapi from "pulumi-domainapi";

const config = new pulumi.Config();
const country = config.get("country") ?? "NL";
const howMany = config.getNumber("howMany") ?? 3;

// The API filters (country, status, a comparison on connections) and sorts; getContactsOutput
// reads every page it needs and stops at `limit`.
const found = domainapi.getContactsOutput({
  country,
  status: ["ok"],
  connections: ">0",
  sort: ["-connections", "handle"],
  limit: howMany,
});

const published = new domainapi.DnsTemplateRecords("contacts", {
  templateId: config.get("templateId") ?? "tpl-2",
  // Only these records: the template's other records stay as they are.
  purge: false,
  records: found.contacts.apply((contacts) =>
    contacts.map((c) => ({ name: "_contacts", type: "TXT" as const, content: `handle=${c.handle}` })),
  ),
});

export const matching = found.total;
export const handles = found.contacts.apply((contacts) => contacts.map((c) => c.handle));
export const recordIds = published.recordIds;
