/**
 * Quickstart: the records of two DNS templates, a domain taken out of quarantine, and a contact
 * lookup. Point it at the offline sandbox (`npm run demo` does) or at the API of your account.
 */
import * as pulumi from "@pulumi/pulumi";
import * as domainapi from "pulumi-domainapi";

const config = new pulumi.Config();

// The whole "web" template: with purge (the default) this resource owns every record in it. Its
// records can also come from stack config (`webRecords`, a JSON list): `npm run demo` changes them so.
const web = new domainapi.DnsTemplateRecords("web", {
  templateId: config.get("webTemplateId") ?? "web",
  records: config.getObject<domainapi.DnsRecordArgs[]>("webRecords") ?? [
    { name: "@", type: "A", content: "192.0.2.10" },
    { name: "@", type: "AAAA", content: "2001:db8::10" },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "@", type: "TXT", content: "v=spf1 include:_spf.mail.example.net ~all" },
  ],
});

const mail = new domainapi.DnsTemplateRecords("mail", {
  templateId: config.get("mailTemplateId") ?? "mail",
  records: [
    { name: "@", type: "MX", content: "mx1.mail.example.net", priority: 10 },
    { name: "@", type: "MX", content: "mx2.mail.example.net", priority: 20 },
    {
      name: "_submission._tcp",
      type: "SRV",
      content: "smtp.mail.example.net",
      priority: 0,
      weight: 5,
      port: 587,
    },
    { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  ],
});

// Restoring is a one-off action: removing this resource later does not quarantine the domain again.
const restored = new domainapi.DomainRestore("restore", { domain: config.get("domain") ?? "shop.example" });

// Contacts are read on every preview and update; the API filters and sorts them.
const country = config.get("contactCountry") ?? "NL";
const contacts = domainapi.getContactsOutput({
  country,
  status: ["ok"],
  sort: ["-connections", "handle"],
  limit: 3,
});

/** The records of each template, each with the id the API gave it. */
export const templates = { web: web.records, mail: mail.records };
/** What the last `pulumi up` did to each template. */
export const plans = { web: web.lastPlan, mail: mail.lastPlan };
export const restoredDomain = restored.domain;
export const restoredAt = restored.restoredAt;
export const contactCountry = country;
/** How many active contacts of that country the account has. */
export const contactsFound = contacts.total;
/** The three with the most domain connections. */
export const topContacts = contacts.contacts.apply((found) =>
  found.map((c) => ({ handle: c.handle, name: c.name, connections: c.connections })),
);
