/**
 * What a user reads during `pulumi up` when the program marked a record secret (`secretRecords`,
 * as the resource class and the plugin pass it), at the provider's log sink, with the methods
 * called in the engine's order: no line holds the secret, every change is still said, the
 * template holds the real content, and the state keeps only the secret record's key.
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER, useConfiguredSandbox, useConsoleLines } from "../helpers";

type Props = Record<string, unknown>;

const sandbox = useConfiguredSandbox(records);

const said = useConsoleLines();

beforeEach(() => sandbox.reset());

const SECRET = "tok-9f8e7d6c5b4a3921";
const NEXT = "tok-0a1b2c3d4e5f6789";
const www = { name: "www", type: "A", content: "192.0.2.1" };
const token = { name: "_verify", type: "TXT", content: SECRET };

async function checked(news: Props, olds: Props = {}): Promise<Props> {
  const result = await records.check(olds, { __provider: PROVIDER, ...news });
  expect(result.failures ?? []).toEqual([]);
  return { ...(result.inputs as Props), __provider: PROVIDER };
}

function lines(): string[] {
  return said.flatMap((m) => m.split("\n"));
}

function expectNoSecret(...secrets: string[]): void {
  const all = lines();
  expect(all.length).toBeGreaterThan(0);
  for (const line of all) for (const s of secrets) expect(line).not.toContain(s);
}

function contents(templateId: string): string[] {
  return (sandbox.templateRecords(templateId) ?? []).map((r) => r.content).sort();
}

describe("a record the program marked secret", () => {
  for (const purge of [true, false]) {
    it(`is said as [secret] through create, update and destroy (purge: ${purge}), and sent as it is`, async () => {
      const inputs = await checked({
        templateId: "tpl-1",
        records: [www, token],
        purge,
        secretRecords: ["1:content"],
      });
      // The state keeps which field is secret by its record's key, never its value.
      expect(inputs.secretRecords).toEqual(["_verify/TXT:content"]);
      expect(JSON.stringify(inputs.secretRecords)).not.toContain(SECRET);
      const created = await records.create(inputs);
      const outs: Props = { ...(created.outs as Props), __provider: PROVIDER };
      expect(outs.secretRecords).toEqual(["_verify/TXT:content"]);
      expect(contents("tpl-1")).toEqual(["192.0.2.1", SECRET]);
      expect(lines().some((l) => l.includes("+ CREATE _verify TXT [secret]"))).toBe(true);
      expect(lines().some((l) => l.includes("+ CREATE www A 192.0.2.1"))).toBe(true);
      expectNoSecret(SECRET);

      said.length = 0;
      const news = await checked(
        {
          templateId: "tpl-1",
          records: [{ ...token, content: NEXT }, www],
          purge,
          secretRecords: ["0:content"],
        },
        inputs,
      );
      expect((await records.diff("x", outs, news)).changes).toBe(true);
      const updated = await records.update("x", outs, news);
      expect(contents("tpl-1")).toEqual(["192.0.2.1", NEXT]);
      // Said twice (the plan, then as carried out), never with either value.
      expect(
        lines().filter((l) => l.includes("~ MODIFY _verify TXT content [secret] -> [secret]")),
      ).toHaveLength(2);
      expectNoSecret(SECRET, NEXT);

      said.length = 0;
      await records.delete("x", { ...(updated.outs as Props), __provider: PROVIDER });
      expect(lines().some((l) => l.includes("- DELETE _verify TXT [secret]"))).toBe(true);
      expectNoSecret(NEXT);
    });
  }

  it("stays masked in the preview of a change to another record (the state says which one is secret)", async () => {
    const inputs = await checked({
      templateId: "tpl-1",
      records: [www, token],
      purge: false,
      secretRecords: ["1:content"],
    });
    const outs = { ...((await records.create(inputs)).outs as Props), __provider: PROVIDER };
    said.length = 0;
    // The program dropped the secret record: only the state knows it was secret.
    const news = await checked({ templateId: "tpl-1", records: [www], purge: false }, inputs);
    expect(news.secretRecords).toBeUndefined();
    await records.diff("x", outs, news);
    expect(lines().some((l) => l.includes("- DELETE _verify TXT [secret]"))).toBe(true);
    expectNoSecret(SECRET);
  });

  it("is masked when it vanished outside Pulumi and is added again", async () => {
    const inputs = await checked({
      templateId: "tpl-1",
      records: [www, token],
      purge: false,
      secretRecords: ["1:content"],
    });
    const outs = { ...((await records.create(inputs)).outs as Props), __provider: PROVIDER };
    const gone = (sandbox.templateRecords("tpl-1") ?? []).find((r) => r.content === SECRET);
    sandbox.deleteRecord("tpl-1", gone?.record_id ?? "");
    said.length = 0;
    const news = await checked(
      {
        templateId: "tpl-1",
        records: [token, { ...www, content: "192.0.2.2" }],
        purge: false,
        secretRecords: ["0:content"],
      },
      inputs,
    );
    await records.update("x", outs, news);
    expect(contents("tpl-1")).toEqual(["192.0.2.2", SECRET]);
    expect(
      lines().some((l) =>
        l.includes("records removed outside Pulumi or by an interrupted run: _verify TXT [secret]"),
      ),
    ).toBe(true);
    expectNoSecret(SECRET);
  });

  it("is masked in the template checks' warnings, down to the lookups a secret SPF record quotes", async () => {
    const lookups = Array.from({ length: 11 }, (_, i) => `include:_spf${i}.hidden-sender.example`);
    const spf = { name: "@", type: "TXT", content: `v=spf1 ${lookups.join(" ")} -all` };
    await checked({
      templateId: "tpl-1",
      records: [www, spf],
      purge: false,
      liftedChecks: ["spf-lookup-limit"],
      secretRecords: ["1:content"],
    });
    expect(lines().some((l) => l.includes("spf-lookup-limit"))).toBe(true);
    expectNoSecret("hidden-sender", spf.content);
  });

  it("is masked in a check failure that quotes it", async () => {
    const result = await records.check(
      {},
      { templateId: "tpl-1", records: [token, { ...token }], purge: false, secretRecords: [0, 1] },
    );
    expect(result.failures?.length).toBeGreaterThan(0);
    for (const f of result.failures ?? []) expect(f.reason).not.toContain(SECRET);
  });

  it("is masked in the refusal of a second resource that declares it in the same template", async () => {
    const inputs = { templateId: "tpl-claims", records: [token], purge: false, secretRecords: ["0:content"] };
    const urn = (name: string) => `urn:pulumi:dev::proj::domainapi:index:DnsTemplateRecords::${name}`;
    expect((await records.check({}, inputs, urn("first"))).failures ?? []).toEqual([]);
    const second = await records.check({}, inputs, urn("second"));
    expect(second.failures?.[0]?.reason).toContain("_verify TXT [secret]");
    expect(second.failures?.[0]?.reason).not.toContain(SECRET);
  });

  it("leaves a program without secrets exactly as before: no secretRecords in inputs or outputs", async () => {
    const inputs = await checked({ templateId: "tpl-1", records: [www], purge: false, secretRecords: [] });
    expect(inputs).not.toHaveProperty("secretRecords");
    const created = await records.create(inputs);
    expect(created.outs).not.toHaveProperty("secretRecords");
    expect(lines().some((l) => l.includes("+ CREATE www A 192.0.2.1"))).toBe(true);
  });
});
