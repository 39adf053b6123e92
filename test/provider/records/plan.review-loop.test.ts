/**
 * What the reviewer approves is what `up` does: for every mode of a plan, the plan `domainapi-plan`
 * makes of a preview's states and the requests the provider's methods then send for the same states
 * are one and the same (an independent oracle: the sandbox's request log); `up` given the reviewed
 * digests refuses any other plan, recovery included, before sending anything for it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { templatePlans } from "../../../provider/cli/templatePlans";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox } from "../helpers";

type Props = Record<string, unknown>;
const TYPE = "pulumi-nodejs:dynamic/domainapi:DnsTemplateRecords";

const sandbox = useConfiguredSandbox(records);

beforeEach(() => {
  sandbox.reset();
  delete process.env.DOMAINAPI_EXPECT_PLAN;
});
afterEach(() => {
  delete process.env.DOMAINAPI_EXPECT_PLAN;
});

const base = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "www", type: "A", content: "192.0.2.30" },
  { name: "api", type: "A", content: "192.0.2.20" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
];

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

/** The plan `domainapi-plan` shows for one step of a preview with these states. */
function reviewed(op: "create" | "update" | "delete", olds: Props | undefined, news: Props | undefined) {
  const step = {
    op,
    urn: `urn:pulumi:dev::dns::${TYPE}::web`,
    ...(olds ? { oldState: { type: TYPE, inputs: {}, outputs: olds } } : {}),
    ...(news ? { newState: { type: TYPE, inputs: news, outputs: {} } } : {}),
  };
  const [plan, ...rest] = templatePlans({ steps: [step] });
  expect(rest).toEqual([]);
  return plan;
}

/** What the sandbox received that changes records, as method and body. */
function sent() {
  return sandbox.requests.filter((r) => r.method !== "GET").map((r) => ({ method: r.method, body: r.body }));
}

/** The lines of a plan as the Markdown's diff block lists them (corrections and records set aside). */
function lines(plan: ReturnType<typeof reviewed>) {
  return [...(plan?.corrections.map((c) => c.message) ?? []), ...(plan?.setAside ?? [])];
}

async function deployed(templateId: string, purge: boolean): Promise<Props> {
  const inputs = await checked({ templateId, records: base, purge });
  const created = await records.create(inputs);
  sandbox.clearRequests();
  return { ...(created.outs as Props), __provider: PROVIDER };
}

describe("domainapi-plan and up agree on every mode", () => {
  it("a create with purge: one PUT of every record, as the plan says", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: base });
    const plan = reviewed("create", undefined, inputs);
    await records.create(inputs);
    expect(plan?.summary).toMatch(/1 request: a PUT/);
    expect(sent().map((r) => r.method)).toEqual(["PUT"]);
    expect(plan?.corrections.filter((c) => c.kind === "create")).toHaveLength(base.length);
  });

  it("a create without purge: one PATCH per record, as many as the plan counts", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: base, purge: false });
    const plan = reviewed("create", undefined, inputs);
    await records.create(inputs);
    expect(plan?.summary).toMatch(`(${base.length} requests)`);
    expect(sent()).toHaveLength(base.length);
    expect(sent().every((r) => r.method === "PATCH")).toBe(true);
  });

  it("an update: the PATCHes the plan's requests hold, in order", async () => {
    const olds = await deployed("tpl-1", true);
    const news = await checked(
      {
        templateId: "tpl-1",
        records: base.map((r) => (r.name === "api" ? { ...r, content: "192.0.2.21" } : r)),
      },
      olds,
    );
    const plan = reviewed("update", olds, news);
    await records.update("tpl-1", olds, news);
    expect(lines(plan)).toEqual(["~ MODIFY api A content 192.0.2.20 -> 192.0.2.21"]);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.method).toBe("PATCH");
  });

  for (const purge of [false, true]) {
    it(`an earlier add of unknown outcome, purge ${purge}: the plan and up ${purge ? "rewrite with one PUT" : "set it aside and send nothing for it"}`, async () => {
      const olds = await deployed("tpl-2", purge);
      const lost = { name: "shop", type: "CNAME", content: "shops.example.net." };
      const untracked = { ...olds, untrackedAdds: true, untrackedRecords: ["shop CNAME shops.example.net."] };
      const news = await checked({ templateId: "tpl-2", records: [...base, lost], purge }, olds);
      const plan = reviewed("update", untracked, news);
      const result = await records.update("tpl-2", untracked, news);
      if (purge) {
        expect(plan?.reason).toEqual({ kind: "rewritten", why: "unknown-add" });
        expect(sent().map((r) => r.method)).toEqual(["PUT"]);
        expect((sent()[0]!.body as { records: unknown[] }).records).toHaveLength(base.length + 1);
      } else {
        // The program declares the record whose add is of unknown outcome: nothing is sent for it.
        expect(plan?.corrections).toEqual([]);
        expect(plan?.setAside).toEqual(["shop CNAME shops.example.net."]);
        expect(sent()).toEqual([]);
        expect((result.outs as Props).untrackedRecords).toEqual(["shop CNAME shops.example.net."]);
      }
    });
  }

  it("a delete: the PATCH of every held id the plan lists", async () => {
    const olds = await deployed("tpl-3", false);
    const plan = reviewed("delete", olds, undefined);
    await records.delete("tpl-3/x", olds);
    expect(plan?.corrections.map((c) => c.kind)).toEqual(base.map(() => "delete"));
    const dels = (sent()[0]!.body as { del: Array<{ record_id: string }> }).del
      .map((d) => d.record_id)
      .sort();
    expect(dels).toEqual(plan?.corrections.map((c) => c.recordId).sort());
  });

  it("a rename while another record of the type goes: the renamed record keeps its id, as the plan says", async () => {
    const olds = await deployed("tpl-4", true);
    const ids = olds.ids as Record<string, string>;
    // www (192.0.2.30) renamed to web, api (192.0.2.20) deleted.
    const edited = base
      .filter((r) => r.name !== "api")
      .map((r) => (r.name === "www" ? { ...r, name: "web" } : r));
    const news = await checked({ templateId: "tpl-4", records: edited }, olds);
    const plan = reviewed("update", olds, news);
    expect(lines(plan)).toEqual(["- DELETE api A 192.0.2.20", "~ MODIFY www A 192.0.2.30 name www -> web"]);
    const wwwId = Object.entries(ids).find(([key]) => key.startsWith("www/"))?.[1];
    expect(plan?.corrections.find((c) => c.kind === "update")?.recordId).toBe(wwwId);
    await records.update("tpl-4", olds, news);
    const web = sandbox.templateRecords("tpl-4")?.find((r) => r.name === "web");
    expect(web?.record_id).toBe(wwwId);
  });
});

describe("up applies only the reviewed plan (DOMAINAPI_EXPECT_PLAN)", () => {
  it("carries out the reviewed plan", async () => {
    const olds = await deployed("tpl-5", true);
    const news = await checked({ templateId: "tpl-5", records: base.slice(0, 3) }, olds);
    const plan = reviewed("update", olds, news);
    process.env.DOMAINAPI_EXPECT_PLAN = `tpl-5=${plan?.digest}`;
    await records.update("tpl-5", olds, news);
    expect(sent()).toHaveLength(1);
  });

  it("with a stale digest changes nothing and says which template differs", async () => {
    const olds = await deployed("tpl-5", true);
    const news = await checked({ templateId: "tpl-5", records: base.slice(0, 3) }, olds);
    const stale = reviewed(
      "update",
      olds,
      await checked({ templateId: "tpl-5", records: base.slice(0, 2) }, olds),
    );
    process.env.DOMAINAPI_EXPECT_PLAN = `tpl-5=${stale?.digest}`;
    await expect(records.update("tpl-5", olds, news)).rejects.toThrow(
      new RegExp(
        `refusing to change template "tpl-5": its plan is not the reviewed one .*the reviewed plan was ${stale?.digest}`,
      ),
    );
    expect(sent()).toEqual([]);
  });

  it("refuses a template whose plan nobody reviewed, and a create too", async () => {
    process.env.DOMAINAPI_EXPECT_PLAN = "other=0123456789abcdef0123456789abcdef";
    const inputs = await checked({ templateId: "tpl-6", records: base });
    await expect(records.create(inputs)).rejects.toThrow(/no plan of this template was reviewed/);
    expect(sent()).toEqual([]);
  });

  it("refuses the recovery after a record vanished: it is not the reviewed plan", async () => {
    const olds = await deployed("mail", true);
    const news = await checked({ templateId: "mail", records: base.slice(0, 3) }, olds);
    const plan = reviewed("update", olds, news);
    process.env.DOMAINAPI_EXPECT_PLAN = `mail=${plan?.digest}`;
    const gone = sandbox.templateRecords("mail")?.find((r) => r.name === "www");
    sandbox.deleteRecord("mail", gone!.record_id);
    sandbox.clearRequests();
    const said: string[] = [];
    const spies = (["log", "warn", "error"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((line: unknown) => {
        said.push(String(line));
      }),
    );
    try {
      await expect(records.update("mail", olds, news)).rejects.toThrow(
        /refusing to change template "mail".*the recovery, a plan nobody reviewed, was not sent/,
      );
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // No warning says that the refused rewrite happens.
    expect(said.join("\n")).not.toMatch(/rewritten with one PUT|recovering from/);
    // The reviewed PATCH was sent and refused, and a probe of its own items asked which record is
    // gone; the rewrite that would recover, a plan nobody reviewed, was not sent.
    expect(sent().map((r) => r.method)).not.toContain("PUT");
    expect(sent()[0]?.body).toHaveProperty("del");
  });

  it("`none` (a review in which nothing was to change) refuses any change", async () => {
    const olds = await deployed("tpl-5", true);
    const news = await checked({ templateId: "tpl-5", records: base.slice(0, 3) }, olds);
    process.env.DOMAINAPI_EXPECT_PLAN = "none";
    await expect(records.update("tpl-5", olds, news)).rejects.toThrow(
      /no plan of this template was reviewed/,
    );
    expect(sent()).toEqual([]);
  });

  it("names a malformed expectation and the form expected", async () => {
    process.env.DOMAINAPI_EXPECT_PLAN = "tpl-1";
    const inputs = await checked({ templateId: "tpl-1", records: base });
    await expect(records.create(inputs)).rejects.toThrow(
      /DOMAINAPI_EXPECT_PLAN: "tpl-1" is not a templateId=digest pair/,
    );
    expect(sent()).toEqual([]);
  });
});
