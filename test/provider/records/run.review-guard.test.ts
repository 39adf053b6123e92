/**
 * The reviewed-plan guard fails closed (against the sandbox, through the provider's own methods):
 * `DOMAINAPI_EXPECT_PLAN` set but empty, what a failed `$(domainapi-plan --expect ...)` leaves,
 * refuses every change and sends nothing; and the line a plan comment shows, pasted in front of a
 * command as people paste it, applies every template it names.
 */
import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PreviewStep } from "../../../provider/cli/preview";
import { planComment } from "../../../provider/cli/review";
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
  { name: "api", type: "A", content: "192.0.2.20" },
  { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
];
const changed = base.map((r) => (r.name === "api" ? { ...r, content: "192.0.2.21" } : r));

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

async function deployed(templateId: string): Promise<Props> {
  const created = await records.create(await checked({ templateId, records: base }));
  return { ...(created.outs as Props), __provider: PROVIDER };
}

/** What the sandbox received that changes records. */
const sent = () => sandbox.requests.filter((r) => r.method !== "GET");

const contentOf = (templateId: string, name: string) =>
  sandbox.templateRecords(templateId)?.find((r) => r.name === name)?.content;

describe("DOMAINAPI_EXPECT_PLAN set but empty", () => {
  for (const blank of ["", "  ", "''"]) {
    it(`${JSON.stringify(blank)} refuses an update, a create and a delete, naming the likely cause, and sends nothing`, async () => {
      const olds = await deployed("web");
      const news = await checked({ templateId: "web", records: changed }, olds);
      sandbox.clearRequests();
      process.env.DOMAINAPI_EXPECT_PLAN = blank;
      await expect(records.update("web", olds, news)).rejects.toThrow(
        /refusing to change template "web": DOMAINAPI_EXPECT_PLAN is set but empty.*a failed `domainapi-plan --expect`/,
      );
      await expect(records.create(await checked({ templateId: "other", records: base }))).rejects.toThrow(
        /refusing to change template "other": DOMAINAPI_EXPECT_PLAN is set but empty/,
      );
      await expect(records.delete("web", olds)).rejects.toThrow(/DOMAINAPI_EXPECT_PLAN is set but empty/);
      expect(sent()).toEqual([]);
      expect(contentOf("web", "api")).toBe("192.0.2.20");
    });
  }

  it("unset, as before, applies the plan", async () => {
    const olds = await deployed("web");
    const news = await checked({ templateId: "web", records: changed }, olds);
    await records.update("web", olds, news);
    expect(contentOf("web", "api")).toBe("192.0.2.21");
  });
});

describe("the plan comment's DOMAINAPI_EXPECT_PLAN line, pasted as a shell prefix", () => {
  it("applies both templates it names", async () => {
    const states: Record<string, { olds: Props; news: Props }> = {};
    for (const templateId of ["mail", "web"]) {
      const olds = await deployed(templateId);
      states[templateId] = { olds, news: await checked({ templateId, records: changed }, olds) };
    }
    const steps = Object.entries(states).map(([templateId, { olds, news }]) => ({
      op: "update",
      urn: `urn:pulumi:dev::dns::${TYPE}::${templateId}`,
      oldState: { type: TYPE, inputs: {}, outputs: olds },
      newState: { type: TYPE, inputs: news, outputs: {} },
    }));
    const line = planComment({ steps })
      .split("\n")
      .find((l) => l.startsWith("DOMAINAPI_EXPECT_PLAN="));
    expect(line).toMatch(/^DOMAINAPI_EXPECT_PLAN='mail=[0-9a-f]{32} web=[0-9a-f]{32}'$/);
    // What the shell puts in the variable for `<line> pulumi up`.
    const value = execFileSync("sh", ["-c", `${line} printenv DOMAINAPI_EXPECT_PLAN`], { encoding: "utf8" });
    process.env.DOMAINAPI_EXPECT_PLAN = value.trimEnd();
    sandbox.clearRequests();
    for (const [templateId, { olds, news }] of Object.entries(states))
      await records.update(templateId, olds, news);
    expect(sent()).toHaveLength(2);
    expect(contentOf("mail", "api")).toBe("192.0.2.21");
    expect(contentOf("web", "api")).toBe("192.0.2.21");
    // The same line pasted whole as a CI variable's value is read too.
    process.env.DOMAINAPI_EXPECT_PLAN = line;
    for (const [templateId, { olds, news }] of Object.entries(states)) {
      await expect(records.update(templateId, olds, news)).resolves.toBeDefined();
    }
  });
});

describe("a reviewed plan that meets records removed outside Pulumi", () => {
  /** The DOMAINAPI_EXPECT_PLAN value a plan comment gives for one update of `templateId`. */
  function reviewedValue(templateId: string, olds: Props, news: Props): string {
    const step = {
      op: "update",
      urn: `urn:pulumi:dev::dns::${TYPE}::${templateId}`,
      oldState: { type: TYPE, inputs: {}, outputs: olds },
      newState: { type: TYPE, inputs: news, outputs: {} },
    };
    // As `pulumi preview --json` prints it: the stack config beside the steps says the account.
    const comment = planComment({ config: { "domainapi:baseUrl": sandbox.url }, steps: [step] });
    const line = comment.split("\n").find((l) => l.startsWith("DOMAINAPI_EXPECT_PLAN=")) ?? "";
    return line.replace(/^DOMAINAPI_EXPECT_PLAN='|'$/g, "");
  }

  for (const purge of [true, false]) {
    it(`purge ${purge}: the unreviewed recovery is refused, the state learns what vanished, and the next reviewed plan restores it`, async () => {
      const created = await records.create(await checked({ templateId: "web", records: base, purge }));
      const olds = { ...(created.outs as Props), __provider: PROVIDER };
      const api = sandbox.templateRecords("web")?.find((r) => r.name === "api");
      sandbox.deleteRecord("web", api?.record_id as string);
      const moved = base.map((r) => (r.type === "MX" ? { ...r, content: "mx2.example.net" } : r));
      const news = await checked({ templateId: "web", records: moved, purge }, olds);
      process.env.DOMAINAPI_EXPECT_PLAN = reviewedValue("web", olds, news);
      sandbox.clearRequests();

      const refused = await records.update("web", olds, news).then(
        () => undefined,
        (err: unknown) => err as Error & { properties?: Props },
      );
      expect(refused?.message).toMatch(
        /not the reviewed one.*the recovery, a plan nobody reviewed, was not sent/,
      );
      // Nothing unreviewed was written: no rewrite and no add (without purge, the probes that find
      // the vanished record may apply the reviewed change itself).
      expect(
        sent().filter((r) => r.method === "PUT" || (r.body as { add?: unknown[] } | undefined)?.add),
      ).toEqual([]);
      expect(
        sandbox
          .templateRecords("web")
          ?.map((r) => r.name)
          .sort(),
      ).toEqual(["@", "@"]);
      // The state written with the refusal no longer holds the vanished record...
      const learnt: Props = { ...(refused?.properties as Props), __provider: PROVIDER };
      expect(Object.keys(learnt.ids as object).sort()).toEqual(["@/A", "@/MX"]);

      // ...so the next preview plans its return, which a reviewer sees, and up applies it.
      const again = await checked({ templateId: "web", records: moved, purge }, learnt);
      process.env.DOMAINAPI_EXPECT_PLAN = reviewedValue("web", learnt, again);
      await records.update("web", learnt, again);
      expect(
        sandbox
          .templateRecords("web")
          ?.map((r) => `${r.name} ${r.content}`)
          .sort(),
      ).toEqual(["@ 192.0.2.10", "@ mx2.example.net", "api 192.0.2.20"]);
    });
  }
});

describe("the digest covers where and how: account, purge and the safety threshold", () => {
  /** The DOMAINAPI_EXPECT_PLAN value of one step, as the plan comment of a preview on `baseUrl` gives it. */
  function reviewedValueOn(step: PreviewStep, baseUrl: string): string {
    const comment = planComment({ config: { "domainapi:baseUrl": baseUrl }, steps: [step] });
    const line = comment.split("\n").find((l) => l.startsWith("DOMAINAPI_EXPECT_PLAN=")) ?? "";
    return line.replace(/^DOMAINAPI_EXPECT_PLAN='|'$/g, "");
  }
  const createStep = (news: Props) => ({
    op: "create",
    urn: `urn:pulumi:dev::dns::${TYPE}::web`,
    newState: { type: TYPE, inputs: news, outputs: {} },
  });
  const updateStep = (olds: Props, news: Props) => ({
    op: "update",
    urn: `urn:pulumi:dev::dns::${TYPE}::web`,
    oldState: { type: TYPE, inputs: {}, outputs: olds },
    newState: { type: TYPE, inputs: news, outputs: {} },
  });

  it("a create reviewed for another account is refused here, with nothing sent; reviewed for this one, it is applied", async () => {
    const news = await checked({ templateId: "web", records: base });
    process.env.DOMAINAPI_EXPECT_PLAN = reviewedValueOn(createStep(news), "https://api.other.example");
    sandbox.clearRequests();
    await expect(records.create(news)).rejects.toThrow(
      /refusing to change template "web": its plan is not the reviewed one .*account http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(sent()).toEqual([]);
    // The same account written otherwise (a trailing slash) is the same account.
    process.env.DOMAINAPI_EXPECT_PLAN = reviewedValueOn(createStep(news), `${sandbox.url}/`);
    await records.create(news);
    expect(contentOf("web", "api")).toBe("192.0.2.20");
  });

  for (const [what, setting] of [
    ["purge", { purge: false }],
    ["the safety threshold", { safetyThreshold: { maxChangePercent: 100 } }],
    ["the safety threshold turned off", { safetyThreshold: false }],
  ] as const) {
    it(`an update whose requests are the same bytes but whose ${what} changed since the review is refused`, async () => {
      const olds = await deployed("web");
      const reviewedNews = await checked({ templateId: "web", records: changed, purge: true }, olds);
      process.env.DOMAINAPI_EXPECT_PLAN = reviewedValueOn(updateStep(olds, reviewedNews), sandbox.url);
      const news = await checked({ templateId: "web", records: changed, purge: true, ...setting }, olds);
      sandbox.clearRequests();
      await expect(records.update("web", olds, news)).rejects.toThrow(/its plan is not the reviewed one/);
      expect(sent()).toEqual([]);
      await records.update("web", olds, reviewedNews);
      expect(contentOf("web", "api")).toBe("192.0.2.21");
    });
  }
});

describe("a verifying refresh under a reviewed plan", () => {
  it("is refused with nothing sent: it re-states records, and no review shows it", async () => {
    const olds = await deployed("web");
    process.env.DOMAINAPI_EXPECT_PLAN = "none";
    process.env.DOMAINAPI_VERIFY_ON_REFRESH = "1";
    sandbox.clearRequests();
    try {
      await expect(records.read("web", olds)).rejects.toThrow(
        /refusing to verify template "web" under DOMAINAPI_EXPECT_PLAN: .*set back.*Nothing was sent/,
      );
    } finally {
      delete process.env.DOMAINAPI_VERIFY_ON_REFRESH;
    }
    expect(sent()).toEqual([]);
  });
});
