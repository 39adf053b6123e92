/**
 * The records of one DNS template. `pulumi up` makes the template hold exactly these records;
 * `pulumi preview` shows, record by record, what it would change first.
 *
 * The name of a record is relative to the domain the template is applied to ("@" for the domain
 * itself, "www" for its www); `{domainname}` in a content stands for that domain.
 */
import * as pulumi from "@pulumi/pulumi";
import * as domainapi from "pulumi-domainapi";

const config = new pulumi.Config();

const records = new domainapi.DnsTemplateRecords("records", {
  templateId: config.get("templateId") ?? "web",
  records: [
    { name: "@", type: "A", content: "192.0.2.10" },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
    { name: "@", type: "TXT", content: "v=spf1 mx -all" },
  ],
});

/** The records as the template holds them, each with the id the API gave it. */
export const templateRecords = records.records;
/** What the last `pulumi up` did. */
export const lastPlan = records.lastPlan;
