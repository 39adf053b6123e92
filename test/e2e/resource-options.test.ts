/**
 * What Pulumi's resource options do to DnsTemplateRecords under the real engine, against the
 * sandbox: the claims of the README's "Using it in a program" (renames and `aliases`,
 * `retainOnDelete`, `protect`, `ignoreChanges`, `deleteBeforeReplace`, several resources on one
 * template, contacts as secrets) and the one-run override of the safety threshold.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Sandbox } from "domainapi-sandbox";
import { describe, expect, it } from "vitest";
import { domainapi, requireFromWork, type TestStack, useSandbox, useStack, useStacks } from "./harness";
import { API_KEY, type DesiredRecord, mutating, recordsStack } from "./records-helpers";

const records: DesiredRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "CNAME", content: "{domainname}." },
];

function held(sandbox: Sandbox, templateId: string): string[] {
  return (sandbox.templateRecords(templateId) ?? []).map((r) => `${r.name} ${r.type} ${r.content}`).sort();
}

function ids(sandbox: Sandbox, templateId: string): string[] {
  return (sandbox.templateRecords(templateId) ?? []).map((r) => r.record_id).sort();
}

/** One DnsTemplateRecords whose name, records and options the test changes between runs. */
interface Declared {
  name: string;
  templateId: string;
  records: DesiredRecord[];
  purge?: boolean;
  opts: pulumi.CustomResourceOptions;
}

function programOf(declared: () => Declared[]) {
  return async () => {
    const { DnsTemplateRecords } = domainapi();
    const out: Record<string, unknown> = {};
    let previous: pulumi.Resource | undefined;
    for (const d of declared()) {
      // Created in the order declared, so that "the second one" means the same in every run.
      const r: pulumi.Resource = new DnsTemplateRecords(
        d.name,
        {
          templateId: d.templateId,
          records: d.records as never,
          ...(d.purge === undefined ? {} : { purge: d.purge }),
        },
        { ...d.opts, ...(previous ? { dependsOn: previous } : {}) },
      );
      previous = r;
      out[d.name] = (r as InstanceType<typeof DnsTemplateRecords>).recordIds;
    }
    return out;
  };
}

describe("resource options on DnsTemplateRecords", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const stacks = useStacks();

  async function stackOf(declared: () => Declared[]): Promise<TestStack> {
    const s = await recordsStack(sandbox, programOf(declared));
    stacks.push(s);
    return s;
  }

  it("aliases: a renamed resource with an alias keeps its records and ids; without one, a rename is a replace", async () => {
    let current: Declared = { name: "web", templateId: "tpl-1", records, opts: {} };
    const s = await stackOf(() => [current]);
    await s.up();
    const before = ids(sandbox, "tpl-1");

    current = { ...current, name: "site", opts: { aliases: [{ name: "web" }] } };
    sandbox.clearRequests();
    expect((await s.preview()).changeSummary).toEqual({ same: 2 });
    expect((await s.up()).summary.resourceChanges).toEqual({ same: 2 });
    expect(mutating(sandbox)).toEqual([]);
    expect(ids(sandbox, "tpl-1")).toEqual(before);

    current = { ...current, name: "records", opts: {} };
    sandbox.clearRequests();
    expect((await s.preview()).changeSummary).toEqual({ create: 1, delete: 1, same: 1 });
    const up = await s.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, delete: 1, same: 1 });
    // The new resource's create rewrites the template (new ids); the old one's delete then finds
    // its ids gone, which is done.
    const [create, ...deletes] = mutating(sandbox);
    expect(create?.method).toBe("PUT");
    for (const d of deletes) expect(Object.keys(d.body as object)).toEqual(["del"]);
  });

  it("retainOnDelete: a resource removed from the program leaves its records in the template", async () => {
    let declared: Declared[] = [
      { name: "kept", templateId: "tpl-2", records, opts: { retainOnDelete: true } },
    ];
    const s = await stackOf(() => declared);
    await s.up();
    declared = [];
    sandbox.clearRequests();
    expect((await s.up()).summary.resourceChanges).toEqual({ delete: 1, same: 1 });
    expect(mutating(sandbox)).toEqual([]);
    expect(held(sandbox, "tpl-2")).toEqual(["@ A 192.0.2.10", "www CNAME {domainname}."]);
    expect(await s.resources("pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords")).toEqual([]);
  });

  it("ignoreChanges on records: a changed record list is not sent; protect: destroy refuses", async () => {
    let current: Declared = {
      name: "guarded",
      templateId: "tpl-3",
      records,
      opts: { protect: true, ignoreChanges: ["records"] },
    };
    const s = await stackOf(() => [current]);
    await s.up();
    current = { ...current, records: [{ name: "@", type: "A", content: "192.0.2.99" }] };
    sandbox.clearRequests();
    expect((await s.up()).summary.resourceChanges).toEqual({ same: 2 });
    await expect(s.destroy()).rejects.toThrow(/protected/);
    expect(mutating(sandbox)).toEqual([]);
    expect(held(sandbox, "tpl-3")).toEqual(["@ A 192.0.2.10", "www CNAME {domainname}."]);
    // Unprotected (an update of the state only), it can go.
    current = { ...current, opts: { ignoreChanges: ["records"] } };
    await s.up();
    expect(mutating(sandbox)).toEqual([]);
    await s.destroy();
    expect(held(sandbox, "tpl-3")).toEqual([]);
  });

  it("deleteBeforeReplace: a new templateId empties the old template before filling the new one", async () => {
    let current: Declared = { name: "moving", templateId: "tpl-4", records, opts: {} };
    const s = await stackOf(() => [current]);
    await s.up();
    const order = () => mutating(sandbox).map((r) => `${r.method} ${r.path.split("/")[4]}`);

    current = { ...current, templateId: "tpl-5" };
    sandbox.clearRequests();
    expect((await s.up()).summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    expect(order()).toEqual(["PUT tpl-5", "PATCH tpl-4"]);

    current = { ...current, templateId: "tpl-4", opts: { deleteBeforeReplace: true } };
    sandbox.clearRequests();
    expect((await s.up()).summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    expect(order()).toEqual(["PATCH tpl-5", "PUT tpl-4"]);
    expect(held(sandbox, "tpl-5")).toEqual([]);
    expect(held(sandbox, "tpl-4")).toEqual(["@ A 192.0.2.10", "www CNAME {domainname}."]);
  });

  it("several resources on one template: purge: false on each shares it; one purge: true beside them is refused, naming both", async () => {
    const a: Declared = {
      name: "a",
      templateId: "web",
      records: [records[0] as DesiredRecord],
      purge: false,
      opts: {},
    };
    const b: Declared = {
      name: "b",
      templateId: "web",
      records: [records[1] as DesiredRecord],
      purge: false,
      opts: {},
    };
    let declared = [a, b];
    const s = await stackOf(() => declared);
    await s.up();
    expect(held(sandbox, "web")).toEqual(["@ A 192.0.2.10", "www CNAME {domainname}."]);

    const owner: Declared = {
      name: "owner",
      templateId: "web",
      records: [{ name: "@", type: "TXT", content: "v=spf1 -all" }],
      opts: {},
    };
    declared = [a, b, owner];
    sandbox.clearRequests();
    const refused = await s.up().then(
      () => "",
      (err: unknown) => String(err),
    );
    // Its create would replace the template with one PUT, erasing the records of a and b.
    expect(refused).toMatch(
      /DnsTemplateRecords "(a|b|owner)" and "(a|b|owner)" both manage template "web", and "owner" has purge: true/,
    );
    expect(mutating(sandbox)).toEqual([]);
    expect(held(sandbox, "web")).toEqual(["@ A 192.0.2.10", "www CNAME {domainname}."]);
  });

  it("DOMAINAPI_SAFETY_THRESHOLD=off lets one run change more than the threshold allows", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({
      name: `h${i}`,
      type: "A",
      content: `192.0.2.${i + 1}`,
    }));
    let current: Declared = { name: "big", templateId: "mail", records: ten, opts: {} };
    const s = await stackOf(() => [current]);
    await s.up();
    current = {
      ...current,
      records: ten.map((r, i) => (i < 4 ? { ...r, content: `198.51.100.${i + 1}` } : r)),
    };
    sandbox.clearRequests();
    await expect(s.up()).rejects.toThrow(/DOMAINAPI_SAFETY_THRESHOLD=off/);
    expect(mutating(sandbox)).toEqual([]);

    s.stack.workspace.envVars.DOMAINAPI_SAFETY_THRESHOLD = "off";
    try {
      expect((await s.up()).summary.resourceChanges).toEqual({ same: 1, update: 1 });
    } finally {
      delete s.stack.workspace.envVars.DOMAINAPI_SAFETY_THRESHOLD;
    }
    expect(held(sandbox, "mail").filter((r) => r.includes("198.51.100."))).toHaveLength(4);
  });
});

describe("contacts in a program", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });

  const s = useStack(async () => {
    const { DnsTemplateRecords, getContactsOutput } = domainapi();
    // The SDK copy the package uses (the program's own), as in a user's program.
    const pulumiSdk = requireFromWork<typeof pulumi>("@pulumi/pulumi");
    return recordsStack(sandbox, async () => {
      const nl = getContactsOutput({ country: "NL", sort: "handle", limit: 1 });
      const first = nl.contacts.apply((cs) => cs[0]);
      const email = first.apply((c) => c?.email ?? "");
      const handle = first.apply((c) => c?.handle ?? "");
      const fed = new DnsTemplateRecords("fed", {
        templateId: "tpl-1",
        records: [{ name: "_contact", type: "TXT", content: pulumiSdk.interpolate`handle=${handle}` }],
      });
      return { plainEmail: email, secretEmail: pulumiSdk.secret(email), handle, recordIds: fed.recordIds };
    });
  });

  it("are stored in plain text when exported as they are, and encrypted when wrapped in pulumi.secret", async () => {
    const up = await s.up();
    const email = up.outputs.plainEmail?.value as string;
    expect(email).toContain("@");
    expect(up.outputs.secretEmail?.secret).toBe(true);
    const exported = await s.exportText();
    // The plain output holds the address; the secret one only ciphertext.
    expect(exported.split(email).length - 1).toBe(1);
  });

  it("a lookup whose answer changes changes the resource it feeds", async () => {
    const before = (await s.stack.outputs()).handle?.value as string;
    expect(sandbox.removeContacts([before])).toBe(1);
    const up = await s.up();
    expect(up.summary.resourceChanges).toEqual({ same: 1, update: 1 });
    const after = up.outputs.handle?.value as string;
    expect(after).not.toBe(before);
    expect((sandbox.templateRecords("tpl-1") ?? []).map((r) => r.content)).toEqual([`handle=${after}`]);
  });
});
