/**
 * schema.json (what the plugin serves and the SDKs are generated from) and the zod schemas (what
 * check() and getContacts validate with) describe the same inputs: the same names, the same record
 * types, the same settings, and every property documented so that the SDKs carry the docs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { BUILDERS } from "../../provider/checks/builders";
import { ContactSchema, RECORD_TYPES } from "../../provider/client/wire";
import { type GetContactsArgs, parseContactsArgs } from "../../provider/contacts/query";
import { validateRecords } from "../../provider/dns/validate";
import type { DnsRecordArgs, DnsTemplateRecordsArgs } from "../../provider/dynamic/recordsResource";
import type { DomainRestoreArgs } from "../../provider/dynamic/restoreResource";
import { configureFrom } from "../../provider/host/session";
import { SETTING_NAMES, TOKENS } from "../../provider/manifest";
import { FUNCTIONS } from "../../provider/operations";
import schema from "../../provider/plugin/schema.json";
import * as records from "../../provider/records/provider";
import * as restore from "../../provider/restore/provider";
import type { ConfigKey } from "../../provider/settings/config";

// check() fails on malformed settings first, as `up` would: give it well-formed ones (it sends nothing).
beforeAll(() => configureFrom({ apiKey: "schema-test-key", baseUrl: "http://127.0.0.1:9" }, "provider"));

interface Property {
  type?: string;
  $ref?: string;
  description?: string;
  secret?: boolean;
  items?: Property;
}
interface ObjectSpec {
  properties: Record<string, Property>;
  required?: string[];
}

const types = schema.types as Record<string, ObjectSpec>;
const resources = schema.resources as Record<
  string,
  { inputProperties: Record<string, Property> } & ObjectSpec
>;
const contactsFn = schema.functions["domainapi:index:getContacts"] as {
  inputs: ObjectSpec;
  outputs: ObjectSpec;
};

const sorted = (xs: Iterable<string>) => [...xs].sort();

// Type-level halves: the program-facing TypeScript types name exactly these keys.
const RECORD_KEYS: Record<keyof DnsRecordArgs, true> = {
  name: true,
  type: true,
  content: true,
  priority: true,
  weight: true,
  port: true,
};
const TEMPLATE_KEYS: Record<keyof DnsTemplateRecordsArgs, true> = {
  templateId: true,
  records: true,
  purge: true,
  safetyThreshold: true,
  liftedChecks: true,
};
const RESTORE_KEYS: Record<keyof DomainRestoreArgs, true> = { domain: true, triggers: true };
const CONTACT_ARG_KEYS: Record<keyof GetContactsArgs, true> = {
  handle: true,
  companyName: true,
  name: true,
  address1: true,
  address2: true,
  postalCode: true,
  city: true,
  state: true,
  country: true,
  phone: true,
  email: true,
  status: true,
  connections: true,
  dateCreated: true,
  dateLastUpdated: true,
  autoDelete: true,
  reference: true,
  sort: true,
  page: true,
  perPage: true,
  limit: true,
  concurrency: true,
};

/** A value of a schema property's type that the zod schema takes. */
function sample(name: string, p: Property): unknown {
  const samples: Record<string, unknown> = {
    country: "NL",
    status: ["ok"],
    connections: ">5",
    dateCreated: "2024-01-01T00:00:00Z",
    dateLastUpdated: "<2024-01-01T00:00:00Z",
    sort: "-connections,name",
    phone: "+31.201234567",
    email: "%@example.com",
  };
  if (name in samples) return samples[name];
  return p.type === "integer" ? 2 : p.type === "boolean" ? true : "x";
}

describe("schema.json agrees with the zod schemas", () => {
  it("DnsRecord: the same fields, each taken by the record validation; an unknown field is refused", () => {
    const record = types["domainapi:index:DnsRecord"] as ObjectSpec;
    expect(sorted(Object.keys(record.properties))).toEqual(sorted(Object.keys(RECORD_KEYS)));
    const srv = {
      name: "_sip._tcp",
      type: "SRV",
      content: "sip.example.net",
      priority: 1,
      weight: 2,
      port: 5060,
    };
    expect(validateRecords([srv]).issues).toEqual([]);
    expect(sorted(Object.keys(srv))).toEqual(sorted(Object.keys(record.properties)));
    expect(validateRecords([{ ...srv, ttl: 60 }]).issues.map((i) => i.property)).toEqual(["records[0].ttl"]);
    expect(sorted(record.required ?? [])).toEqual(["content", "name", "type"]);
  });

  it("the record type's description lists exactly the record types the validation takes", () => {
    const described = (types["domainapi:index:DnsRecord"] as ObjectSpec).properties.type?.description ?? "";
    const listed = described.match(/\b[A-Z][A-Z0-9]*\b(?=[,.])/g) ?? [];
    expect(sorted(new Set(listed))).toEqual(sorted(RECORD_TYPES));
  });

  it("DnsTemplateRecords and DomainRestore: the inputs check() takes, and no other", async () => {
    const tpl = resources["domainapi:index:DnsTemplateRecords"];
    expect(sorted(Object.keys(tpl?.inputProperties ?? {}))).toEqual(sorted(Object.keys(TEMPLATE_KEYS)));
    const r = await records.check({}, { templateId: "t", records: [], colour: "blue" });
    expect(r.failures?.[0]?.reason).toBe(
      "unknown input; DnsTemplateRecords takes templateId, records, purge, safetyThreshold and liftedChecks",
    );
    const res = resources["domainapi:index:DomainRestore"];
    expect(sorted(Object.keys(res?.inputProperties ?? {}))).toEqual(sorted(Object.keys(RESTORE_KEYS)));
    const d = await restore.check({}, { domain: "shop.example", colour: "blue" });
    expect(d.failures?.[0]?.reason).toBe("unknown input; DomainRestore takes domain and triggers");
  });

  it("getContacts: every argument of the schema is taken by the zod schema with a value of its schema type", () => {
    const inputs = contactsFn.inputs.properties;
    expect(sorted(Object.keys(inputs))).toEqual(sorted(Object.keys(CONTACT_ARG_KEYS)));
    for (const [name, p] of Object.entries(inputs)) {
      expect(() => parseContactsArgs({ [name]: sample(name, p) } as GetContactsArgs), name).not.toThrow();
    }
    expect(() => parseContactsArgs({ colour: "blue" } as GetContactsArgs)).toThrow(/colour/);
  });

  it("Contact: the fields the wire schema exposes", () => {
    const wire = {
      handle: "h",
      company_name: "c",
      name: "n",
      address_1: "a",
      address_2: "b",
      postal_code: "p",
      city: "c",
      state: "s",
      country: "NL",
      phone: "+31.2",
      email: "e",
      status: ["ok"],
      connections: 1,
      date_created: "d",
      date_last_updated: "d",
      auto_delete: false,
      reference: "r",
    };
    const contact = types["domainapi:index:Contact"] as ObjectSpec;
    expect(sorted(Object.keys(contact.properties))).toEqual(sorted(Object.keys(ContactSchema.parse(wire))));
  });

  it("provider inputs and config: the settings config.ts reads, plus verifyOnRefresh; the key secret", () => {
    // Every ConfigKey, listed so that the compiler checks the list is complete and nothing else.
    const keys = { apiKey: 1, baseUrl: 1, timeoutMs: 1, maxRetries: 1 } satisfies Record<ConfigKey, 1>;
    const settings = [...Object.keys(keys), "verifyOnRefresh"];
    expect(sorted(Object.keys(schema.provider.inputProperties))).toEqual(sorted(settings));
    expect(sorted(Object.keys(schema.config.variables))).toEqual(sorted(settings));
    expect(sorted(SETTING_NAMES)).toEqual(sorted(settings));
    expect(schema.provider.inputProperties.apiKey.secret).toBe(true);
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(records.VERIFY_ON_REFRESH_ENV).toBe("DOMAINAPI_VERIFY_ON_REFRESH");
  });

  it("every property, type, resource and function is documented", () => {
    const missing: string[] = [];
    const walk = (where: string, props: Record<string, Property>) => {
      for (const [k, p] of Object.entries(props)) if (!p.description) missing.push(`${where}.${k}`);
    };
    for (const [t, spec] of Object.entries(types)) walk(t, spec.properties);
    for (const [t, spec] of Object.entries(resources)) {
      walk(`${t} inputs`, spec.inputProperties);
      walk(`${t} outputs`, spec.properties);
    }
    for (const [token, fn] of Object.entries(
      schema.functions as Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>,
    )) {
      walk(`${token} inputs`, fn.inputs.properties);
      walk(`${token} outputs`, fn.outputs.properties);
    }
    walk("provider", schema.provider.inputProperties);
    walk("config", schema.config.variables);
    expect(missing).toEqual([]);
  });
});

type BuilderToken = keyof typeof BUILDERS;
const BUILDER_TOKENS = Object.keys(BUILDERS) as BuilderToken[];
const functions = schema.functions as Record<
  string,
  { description: string; inputs: ObjectSpec; outputs: ObjectSpec }
>;

/** The values an argument's description lists (`One of "a", "b".`), as the generator writes them. */
function listedValues(p: Property): unknown[] | undefined {
  const listed = /(?:Each o|O)ne of (.*)\.$/.exec(p.description ?? "")?.[1];
  return listed?.split(", ").map((v) => JSON.parse(v.slice(1, -1)));
}

/** A value of a schema property's type (the first listed value of an enum). */
function sampleOf(p: Property): unknown {
  const listed = listedValues(p);
  if (listed) return p.type === "array" ? [listed[0]] : listed[0];
  if (p.type === "array") return [sampleOf(p.items ?? {})];
  return p.type === "integer" ? 1 : p.type === "boolean" ? true : p.type === "number" ? 1.5 : "x";
}

/** A value of another type than the property's. */
function wrongValue(p: Property): unknown {
  if (p.type === "string") return 7;
  if (p.type === "array") return "not a list";
  return "text";
}

describe("schema.json's record builders are their zod schemas", () => {
  it("spf, dmarc and caa: a token of the manifest, an operation and a function of the schema each", () => {
    expect(sorted(BUILDER_TOKENS)).toEqual(sorted([TOKENS.spf, TOKENS.dmarc, TOKENS.caa]));
    for (const token of BUILDER_TOKENS) {
      expect(FUNCTIONS[token], token).toBeDefined();
      expect(functions[token]?.description, token).toMatch(/^Builds an? (SPF|DMARC|CAA) record \(RFC \d+\)/);
    }
  });

  it.each(BUILDER_TOKENS)(
    "%s: the arguments, which are required, and a value of each's type is taken",
    (token) => {
      const args = BUILDERS[token].args as z.ZodObject;
      const inputs = functions[token]?.inputs as ObjectSpec;
      expect(sorted(Object.keys(inputs.properties))).toEqual(sorted(Object.keys(args.shape)));
      const required = Object.keys(args.shape).filter((k) => !args.shape[k]?.safeParse(undefined).success);
      expect(sorted(inputs.required ?? [])).toEqual(sorted(required));
      for (const [name, p] of Object.entries(inputs.properties)) {
        const field = args.shape[name] as z.ZodType;
        expect(
          field.safeParse(sampleOf(p)).success,
          `${token} ${name} takes ${JSON.stringify(sampleOf(p))}`,
        ).toBe(true);
        expect(field.safeParse(wrongValue(p)).success, `${token} ${name} refuses another type`).toBe(false);
        const listed = listedValues(p);
        if (listed) {
          const given = (v: unknown) => (p.type === "array" ? [v] : v);
          for (const v of listed)
            expect(field.safeParse(given(v)).success, `${token} ${name}: ${v}`).toBe(true);
          expect(field.safeParse(given("something-else")).success, `${token} ${name} lists all`).toBe(false);
        }
        if (p.type === "integer")
          expect(field.safeParse(1.5).success, `${token} ${name} is whole`).toBe(false);
      }
    },
  );

  it.each([
    [TOKENS.spf, { mx: true, include: ["_spf.example.net"] }],
    [TOKENS.dmarc, { policy: "reject", rua: ["mailto:d@example.com"] }],
    [TOKENS.caa, { tag: "issue", value: "letsencrypt.org" }],
  ] as const)("%s: the result's fields are the outputs; its record is a DnsRecord", (token, args) => {
    const outputs = functions[token]?.outputs as ObjectSpec;
    const result = BUILDERS[token].result.parse(BUILDERS[token].build(args as never)) as Record<
      string,
      unknown
    >;
    expect(sorted(Object.keys(outputs.properties))).toEqual(sorted(Object.keys(result)));
    expect(sorted(outputs.required ?? [])).toEqual(sorted(Object.keys(result)));
    expect(outputs.properties.record?.$ref).toBe("#/types/domainapi:index:DnsRecord");
    expect(validateRecords([result.record]).issues).toEqual([]);
    for (const [name, p] of Object.entries(outputs.properties)) {
      const value = result[name];
      if (p.type === "integer") expect(Number.isInteger(value), name).toBe(true);
      if (p.type === "array") expect(Array.isArray(value), name).toBe(true);
    }
  });
});
