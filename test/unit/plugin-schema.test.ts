/**
 * schema.json (what the plugin serves and the SDKs are generated from) and the zod schemas (what
 * check(), getContacts and the builders validate with) describe the same inputs: the same names,
 * the same record types, the same settings, and every property documented so that the SDKs carry
 * the docs. The functions' specs are generated from their zod schemas: these tests hold what
 * the SDKs get (names, types, requiredness, listed values and ranges) to what the code takes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { BUILDERS } from "../../provider/checks/builders";
import { CONTACT_STATUSES, ContactSchema, RECORD_TYPES } from "../../provider/client/wire";
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
import { FUNCTION_SPECS, TYPES } from "../../provider/schema/spec";
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
  verifyDomain: true,
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
      "unknown input; DnsTemplateRecords takes templateId, records, purge, safetyThreshold, liftedChecks and verifyDomain",
    );
    const res = resources["domainapi:index:DomainRestore"];
    expect(sorted(Object.keys(res?.inputProperties ?? {}))).toEqual(sorted(Object.keys(RESTORE_KEYS)));
    const d = await restore.check({}, { domain: "shop.example", colour: "blue" });
    expect(d.failures?.[0]?.reason).toBe("unknown input; DomainRestore takes domain and triggers");
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

  it("provider inputs and config: the settings config.ts reads, plus verifyOnRefresh and dnsServers; the key secret", () => {
    // Every ConfigKey, listed so that the compiler checks the list is complete and nothing else.
    const keys = { apiKey: 1, baseUrl: 1, timeoutMs: 1, maxRetries: 1 } satisfies Record<ConfigKey, 1>;
    const settings = [...Object.keys(keys), "verifyOnRefresh", "dnsServers"];
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

// Read from the generator (schema-generated.test.ts holds schema.json to it), so that a change of
// the zod schemas or of the conversion fails here before any `npm run schema`.
describe("getContacts' function spec is generated from its zod schemas", () => {
  const fn = FUNCTION_SPECS[TOKENS.contacts] as {
    description: string;
    inputs: ObjectSpec;
    outputs: ObjectSpec;
  };
  const inputs = fn.inputs.properties;
  const parses = (name: string, value: unknown) => () =>
    parseContactsArgs({ [name]: value } as GetContactsArgs);

  it("takes every argument of getContacts, none required, each in the type the SDKs have carried", () => {
    expect(fn.description).toMatch(/^Lists the contacts that match the filters/);
    expect(sorted(Object.keys(inputs))).toEqual(sorted(Object.keys(CONTACT_ARG_KEYS)));
    expect(fn.inputs.required).toBeUndefined();
    const typeOf = (p: Property) => (p.type === "array" ? `${p.items?.type}[]` : p.type);
    // A change here changes every SDK's signature: a union that takes text (a Date or a datetime,
    // a count or a comparison, a list or a comma-separated sort) stays text.
    expect(Object.fromEntries(Object.entries(inputs).map(([name, p]) => [name, typeOf(p)]))).toEqual({
      ...Object.fromEntries(Object.keys(CONTACT_ARG_KEYS).map((name) => [name, "string"])),
      status: "string[]",
      autoDelete: "boolean",
      page: "integer",
      perPage: "integer",
      limit: "integer",
      concurrency: "integer",
    });
  });

  it("a value of each argument's schema type, as an SDK sends it, is taken; another type is refused, named", () => {
    const texts: Record<string, string> = {
      country: "nl",
      connections: ">=5",
      dateCreated: "2024-01-31T00:00:00Z",
      dateLastUpdated: "<2024-01-31T00:00:00Z",
      sort: "-connections,name",
      email: "%@example.com",
    };
    for (const [name, p] of Object.entries(inputs)) {
      const value =
        p.type === "array"
          ? ["ok"]
          : p.type === "integer"
            ? 2
            : p.type === "boolean"
              ? true
              : (texts[name] ?? "x");
      expect(parses(name, value), `${name} takes ${JSON.stringify(value)}`).not.toThrow();
      const other = p.type === "string" ? { text: "x" } : p.type === "array" ? 7 : "text";
      expect(parses(name, other), `${name} refuses ${JSON.stringify(other)}`).toThrow(
        new RegExp(`^getContacts: ${name}: `),
      );
    }
  });

  it("documents every argument and field; the statuses listed and the ranges stated are the ones taken", () => {
    for (const [name, p] of Object.entries({ ...inputs, ...fn.outputs.properties }))
      expect(p.description, name).toMatch(/\w/);
    const status = inputs.status as Property;
    expect(listedValues(status)).toEqual([...CONTACT_STATUSES]);
    for (const value of CONTACT_STATUSES) expect(parses("status", [value])).not.toThrow();
    expect(parses("status", ["archived"])).toThrow(/^getContacts: status\[0\]: unknown status/);
    const integers = Object.entries(inputs).filter(([, p]) => p.type === "integer");
    expect(integers.map(([name]) => name)).toEqual(["page", "perPage", "limit", "concurrency"]);
    for (const [name, p] of integers) {
      const [, from, to, atLeast] =
        /(?:From (\d+) to (\d+)|At least (\d+))\.$/.exec(p.description ?? "") ?? [];
      const min = from ?? atLeast;
      expect(min, `${name} states the least value it takes`).toBeDefined();
      expect(parses(name, Number(min)), name).not.toThrow();
      expect(parses(name, Number(min) - 1), name).toThrow(new RegExp(`^getContacts: ${name}: `));
      if (to === undefined) expect(parses(name, 1e9), `${name} has no greatest value`).not.toThrow();
      else {
        expect(parses(name, Number(to)), name).not.toThrow();
        expect(parses(name, Number(to) + 1), name).toThrow(new RegExp(`^getContacts: ${name}: `));
      }
      expect(parses(name, 1.5), `${name} is whole`).toThrow(/whole number/);
    }
  });

  it("returns Contact objects (only the handle sure to be there) and the counts, all required", () => {
    const outputs = fn.outputs;
    expect(outputs.properties.contacts).toMatchObject({
      type: "array",
      items: { $ref: "#/types/domainapi:index:Contact" },
    });
    for (const count of ["total", "pages", "perPage"])
      expect(outputs.properties[count]?.type, count).toBe("integer");
    expect(sorted(Object.keys(outputs.properties))).toEqual(["contacts", "pages", "perPage", "total"]);
    expect(sorted(outputs.required ?? [])).toEqual(["contacts", "pages", "perPage", "total"]);
    const contact = TYPES["domainapi:index:Contact"] as ObjectSpec;
    expect(contact.required).toEqual(["handle"]);
    expect(contact.properties.connections?.type).toBe("integer");
    expect(contact.properties.autoDelete?.type).toBe("boolean");
    expect(contact.properties.status).toMatchObject({ type: "array", items: { type: "string" } });
  });
});
