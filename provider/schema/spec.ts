/**
 * The schema of what the plugin offers beyond the manifest's tokens and settings: its types, each
 * resource's inputs and outputs, each function's arguments and results, as Pulumi's package schema
 * spells them (https://www.pulumi.com/docs/iac/extending-pulumi/schema/). document.ts joins
 * them with the manifest into schema.json (`npm run schema`); the SDKs are generated from that, and
 * a test keeps them in step with the zod schemas that check() and the functions validate with.
 */
import { BUILDERS } from "../checks/builders";
import { RULE_NAMES, RULES } from "../checks/rules";
import { ContactFieldsSchema } from "../client/wire";
import { ContactsArgsSchema } from "../contacts/query";
import { ContactsResultSchema } from "../contacts/result";
import { TOKENS } from "../manifest";
import { functionSpecFromZod, objectSpecFromZod } from "./fromZod";
import type { FunctionSpec, ObjectSpec, ResourceSpec } from "./types";

/** The rules a resource may lift: the errors (a warning needs no lifting). */
const LIFTABLE = RULE_NAMES.filter((rule) => RULES[rule].severity === "error").join(", ");

/** The package's description, for the registry and the SDKs' package files. */
export const PACKAGE_INFO = {
  displayName: "Domain API",
  description:
    "DNS template records, domain restores and contact lookups of a registrar's Domain Management API.",
  keywords: ["pulumi", "dns", "registrar", "domain", "category/network", "kind/native"],
  homepage: "https://www.npmjs.com/package/pulumi-domainapi",
  license: "Apache-2.0",
  publisher: "pulumi-domainapi",
  repository: "https://www.npmjs.com/package/pulumi-domainapi",
} as const;

/** The description of the provider resource (its inputs are the manifest's settings). */
export const PROVIDER_DESCRIPTION =
  "The provider of the Domain API. Several providers in one program, each with its own key and base address, reach each its own account or environment.";

/** The object types, by token. */
export const TYPES: Readonly<Record<string, ObjectSpec>> = {
  "domainapi:index:DnsRecord": {
    type: "object",
    description: "One DNS record of a template.",
    properties: {
      name: {
        type: "string",
        description: "Host name relative to the domain: `@` for the apex, `www`, `*.dev`, `_sip._tcp`.",
      },
      type: {
        type: "string",
        description:
          "Record type (case-insensitive): A, AAAA, CNAME, MX, SRV, TXT, NS, CAA, TLSA, URLFWD, URLFWD301, URLCLO.",
      },
      content: {
        type: "string",
        description:
          "Content; may contain `{domainname}`, replaced by the domain where the template is applied.",
      },
      priority: { type: "integer", description: "MX and SRV only (required there): 0-65535." },
      weight: { type: "integer", description: "SRV only (required there): 0-65535." },
      port: { type: "integer", description: "SRV only (required there): 0-65535." },
    },
    required: ["name", "type", "content"],
  },
  "domainapi:index:SafetyThreshold": {
    type: "object",
    description:
      "Guard against mass changes: when the template holds at least `minExistingRecords` records and an update would change or delete more than `maxChangePercent` of them, preview and up stop before any request.",
    properties: {
      minExistingRecords: {
        type: "integer",
        description: "Below this many existing records the threshold does not apply. Default 10.",
      },
      maxChangePercent: {
        type: "number",
        description:
          "Largest share of existing records an update may change or delete, in percent. Default 30.",
      },
    },
  },
  "domainapi:index:Contact": {
    type: "object",
    description: "A contact. Fields the API left out are absent.",
    ...objectSpecFromZod("domainapi:index:Contact", ContactFieldsSchema, "output", {}),
  },
};

const VERIFY_DOMAIN =
  "A domain that uses this template (a witness): `pulumi refresh` then reads the records it publishes from its " +
  "authoritative servers (the provider setting `dnsServers`, by default its NS) and sends nothing to the API: a " +
  "record changed outside Pulumi shows changed, a vanished one gone, and with `purge` a record published at a " +
  "declared name that is not declared as an extra, so the next `up` sets the template back.";

/** The resources, by the manifest's tokens. */
export const RESOURCE_SPECS: Readonly<Record<string, ResourceSpec>> = {
  [TOKENS.records]: {
    description:
      "The DNS records of one DNS template. Updates are minimal PATCH requests that keep the ids of unchanged records, verified so that records removed outside Pulumi are found and restored.",
    inputProperties: {
      templateId: {
        type: "string",
        description:
          "The DNS template whose records this resource manages. A new value replaces the resource.",
        replaceOnChanges: true,
      },
      records: {
        type: "array",
        items: { $ref: "#/types/domainapi:index:DnsRecord" },
        description: "The records. Order does not matter: they are kept in a canonical order.",
      },
      purge: {
        type: "boolean",
        description:
          "`true` (default): the resource owns the whole template; create replaces every record with one PUT. `false`: it adds and removes only its own records, so other records of the template survive.",
      },
      safetyThreshold: {
        $ref: "#/types/domainapi:index:SafetyThreshold",
        description:
          "Guard against mass changes. Default `{ minExistingRecords: 10, maxChangePercent: 30 }`.",
      },
      liftedChecks: {
        type: "array",
        items: { type: "string" },
        description: `Error rules of the template checks this resource lifts for itself, e.g. \`["spf-lookup-limit"]\`: ${LIFTABLE}. A lifted finding is still shown, as a warning that names the lift.`,
      },
      verifyDomain: {
        type: "string",
        description: VERIFY_DOMAIN,
      },
    },
    requiredInputs: ["templateId", "records"],
    properties: {
      templateId: { type: "string", description: "The DNS template whose records this resource manages." },
      records: {
        type: "object",
        additionalProperties: { $ref: "#/types/domainapi:index:DnsRecord" },
        description:
          "The records held, by a key that stays the same for as long as the record lives (`name/type`, or longer where that is taken).",
      },
      ids: {
        type: "object",
        additionalProperties: { type: "string" },
        description: "The API's record id of each held record, by the same key as `records`.",
      },
      purge: { type: "boolean", description: "Whether the resource owns the whole template." },
      safetyThreshold: {
        $ref: "#/types/domainapi:index:SafetyThreshold",
        description: "The safety threshold in force.",
      },
      lastPlan: { type: "string", description: "Readable summary of the last create or update." },
      untrackedAdds: {
        type: "boolean",
        description: "Set when an add may have reached the API without its id being learnt.",
      },
      untrackedRecords: {
        type: "array",
        items: { type: "string" },
        description: "The records whose adds are of unknown outcome, as they read in messages.",
      },
      baseUrl: {
        type: "string",
        description:
          "The API the resource was made on (without `/v2`); a preview against another one is refused.",
      },
      verifyDomain: { type: "string", description: "The witness domain a refresh reads." },
    },
    required: ["templateId", "records", "ids", "purge", "lastPlan"],
  },
  [TOKENS.restore]: {
    description:
      "Takes a domain out of quarantine (`POST /v2/domains/{domain}/restore`). A restore cannot be undone: deleting the resource makes no request. A new domain or new triggers restore again.",
    inputProperties: {
      domain: {
        type: "string",
        description:
          "The domain to restore, e.g. `shop.example`; internationalized names are sent in their xn-- form.",
        replaceOnChanges: true,
      },
      triggers: {
        type: "array",
        items: { $ref: "pulumi.json#/Any" },
        description: "Any values; a change restores again.",
        replaceOnChanges: true,
      },
    },
    requiredInputs: ["domain"],
    properties: {
      domain: { type: "string", description: "The restored domain, in the form the API takes." },
      triggers: {
        type: "array",
        items: { $ref: "pulumi.json#/Any" },
        description: "The triggers of the last restore.",
      },
      restoredAt: {
        type: "string",
        description: "When the restore was confirmed (UTC, `YYYY-MM-DDThh:mm:ssZ`).",
      },
      unconfirmed: {
        type: "boolean",
        description: "Set when the restore's answer was lost; the next `pulumi up` confirms it.",
      },
      baseUrl: {
        type: "string",
        description:
          "The API the resource was made on (without `/v2`); a preview against another one is refused.",
      },
    },
    required: ["domain"],
  },
};

/** What each record builder does, for its function's docs (its arguments and result are its zod schemas'). */
const BUILDER_DESCRIPTIONS: Readonly<Record<keyof typeof BUILDERS, string>> = {
  [TOKENS.spf]:
    "Builds an SPF record (RFC 7208) from typed parts, with the DNS lookups it costs itself; a record over 10 lookups is refused. Sends nothing.",
  [TOKENS.dmarc]: "Builds a DMARC record (RFC 7489) at `_dmarc` from a typed policy and tags. Sends nothing.",
  [TOKENS.caa]: "Builds a CAA record (RFC 8659) from a registry tag and its value. Sends nothing.",
};

/** The builders' function specs, generated from their zod schemas (never written out by hand). */
const BUILDER_SPECS: Readonly<Record<string, FunctionSpec>> = Object.fromEntries(
  Object.entries(BUILDERS).map(([token, builder]) => [
    token,
    functionSpecFromZod(token, BUILDER_DESCRIPTIONS[token as keyof typeof BUILDERS], builder, {
      "domainapi:index:DnsRecord": TYPES["domainapi:index:DnsRecord"] as ObjectSpec,
    }),
  ]),
);

/** The functions, by the manifest's tokens, generated from their zod schemas (none written out by hand). */
export const FUNCTION_SPECS: Readonly<Record<string, FunctionSpec>> = {
  [TOKENS.contacts]: functionSpecFromZod(
    TOKENS.contacts,
    "Lists the contacts that match the filters, every page of them (or one page). Filters are passed through verbatim: `%` is the API's wildcard.",
    { args: ContactsArgsSchema, result: ContactsResultSchema },
    { "domainapi:index:Contact": TYPES["domainapi:index:Contact"] as ObjectSpec },
  ),
  ...BUILDER_SPECS,
};

/** What each SDK generator needs to know. */
export const LANGUAGE = {
  go: {
    importBasePath: "github.com/pulumi-domainapi/sdk/go/domainapi",
    generateResourceContainerTypes: true,
    respectSchemaVersion: true,
  },
  python: { packageName: "pulumi_domainapi", pyproject: { enabled: true }, respectSchemaVersion: true },
  csharp: { rootNamespace: "DomainApi", packageReferences: { Pulumi: "3.*" } },
  nodejs: { packageName: "@pulumi-domainapi/sdk", dependencies: { "@pulumi/pulumi": "^3.139.0" } },
} as const;
