/**
 * One template, one owner, in a Node program (provider/dynamic/owners.ts): the guard that
 * DnsTemplateRecords puts in its `dependsOn` fails the registration of a resource whose claim
 * conflicts with another's of the same program run, naming both, before the engine hears of it.
 *
 * Driven through the guard under `pulumi.runtime.setMocks`, each program run in a root stack resource
 * of its own as the language host (or an Automation API host) makes one. The resource class itself
 * is not registered here: its dynamic provider is serialized by inspecting closures, which worker
 * threads (the mutation runner's pool) do not offer; test/e2e/resource-options.test.ts runs it whole.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClaimInputs, ownershipGuard, withGuard } from "../../../provider/dynamic/owners";

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
    "owners-project",
    "owners-stack",
  );
});

/**
 * Under mocks, the Outputs between a refused claim and the guard reject unobserved (a program's
 * language host reports the refusal on the resource). The test runner leaves unhandled rejections to
 * a listener of the test's own: this one takes the refusals and keeps anything else to fail on.
 * Kept for the whole file: some reject after the test that caused them has ended.
 */
const unexpected: unknown[] = [];
process.on("unhandledRejection", (reason: unknown) => {
  if (!(reason instanceof pulumi.ResourceError || reason instanceof pulumi.RunError)) unexpected.push(reason);
});
afterAll(() => {
  expect(unexpected).toEqual([]);
});

const A = { name: "@", type: "A" as const, content: "192.0.2.1" };
const WWW = { name: "www", type: "A" as const, content: "192.0.2.2" };
const MAIL = { name: "mail", type: "A" as const, content: "192.0.2.3" };

/** A stand-in for the resource a refusal is shown on. */
const resource = { name: "the resource" } as unknown as pulumi.Resource;

type Claim = [name: string, inputs: ClaimInputs, owner?: () => pulumi.Resource | undefined];

/** Waits on an Output the SDK's own way (runInPulumiStack does the same): undefined, or its error. */
function settled(output: pulumi.Output<unknown> | undefined): Promise<unknown> {
  return (output as unknown as { promise(): Promise<unknown> }).promise().then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** The guards of one program run, settled in the order made: undefined when a claim stands, else its refusal. */
async function guarded(claims: Claim[]): Promise<unknown[]> {
  let guards: Array<pulumi.Output<unknown> | undefined> = [];
  await pulumi.runtime.runInPulumiStack(async () => {
    guards = claims.map(([name, inputs, owner]) => ownershipGuard(name, inputs, owner ?? (() => resource)));
    return {};
  });
  const results: unknown[] = [];
  for (const guard of guards) results.push(await settled(guard));
  return results;
}

// First: once a run has started, the SDK keeps its stack resource as the current one.
describe("outside a program run (setMocks and no stack)", () => {
  it("there is no guard: the resource's options are left as given", () => {
    expect(ownershipGuard("web", { templateId: "shared", records: [A] }, () => resource)).toBeUndefined();
  });
});

describe("claims that stand", () => {
  it("purge: false on both, distinct records", async () => {
    expect(
      await guarded([
        ["web", { templateId: "shared", purge: false, records: [A, WWW] }],
        ["mail", { templateId: "shared", purge: false, records: [MAIL] }],
      ]),
    ).toEqual([undefined, undefined]);
  });

  it("records that fail validation: left to check(), which refuses them with its own message", async () => {
    const bad = { name: "www", type: "A" as const, content: "not an address" };
    expect(
      await guarded([
        ["web", { templateId: "shared", purge: false, records: [bad] }],
        ["mail", { templateId: "shared", purge: false, records: [bad] }],
      ]),
    ).toEqual([undefined, undefined]);
  });

  it("a resource with a record that fails validation declares none of its records, so it is not refused for sharing one", async () => {
    const bad = { name: "www", type: "A" as const, content: "not an address" };
    expect(
      await guarded([
        ["web", { templateId: "shared", purge: false, records: [WWW, bad] }],
        ["mail", { templateId: "shared", purge: false, records: [WWW] }],
      ]),
    ).toEqual([undefined, undefined]);
  });

  it("a template id that is not a string (a JavaScript program's mistake, refused by check()) claims nothing", async () => {
    const noTemplate = { records: [A] } as unknown as ClaimInputs;
    expect(
      await guarded([
        ["one", noTemplate],
        ["two", noTemplate],
      ]),
    ).toEqual([undefined, undefined]);
  });

  it("different templates never meet", async () => {
    expect(
      await guarded([
        ["web", { templateId: "web", records: [A] }],
        ["mail", { templateId: "mail", records: [A] }],
      ]),
    ).toEqual([undefined, undefined]);
  });

  it("a second program run (an Automation API host running it again) starts with no claims", async () => {
    expect(await guarded([["owner", { templateId: "shared", records: [A] }]])).toEqual([undefined]);
    expect(await guarded([["other", { templateId: "shared", records: [WWW] }]])).toEqual([undefined]);
  });

  it("the guard adds no dependency of its own", async () => {
    const [guard] = await (async () => {
      let g: pulumi.Output<pulumi.Resource[]> | undefined;
      await pulumi.runtime.runInPulumiStack(async () => {
        g = ownershipGuard("web", { templateId: "web", records: [A] }, () => resource);
        return {};
      });
      return [g];
    })();
    expect(await (guard as unknown as { promise(): Promise<unknown> }).promise()).toEqual([]);
  });
});

describe("refusals", () => {
  it("one with purge: true: the second is refused on its resource, without a stack trace, naming both", async () => {
    const [owner, other] = await guarded([
      ["owner", { templateId: "shared", purge: true, records: [A] }],
      ["other", { templateId: "shared", purge: false, records: [WWW] }],
    ]);
    expect(owner).toBeUndefined();
    expect(other).toBeInstanceOf(pulumi.ResourceError);
    expect((other as pulumi.ResourceError).resource).toBe(resource);
    expect((other as unknown as { hideStack?: boolean }).hideStack).toBe(true);
    expect((other as Error).message).toBe(
      'DnsTemplateRecords "owner" and "other" both manage template "shared", and "owner" has purge: true ' +
        "(a resource with purge owns the whole template: its create replaces every record with one PUT, which would " +
        "erase the other's records, and the state of one would then list records that do not exist). Give each " +
        "resource its own template, merge their records into one resource, or set purge: false on both (then each " +
        "adds and removes only its own records).",
    );
  });

  it("purge left out is purge: true (the documented default)", async () => {
    const [, second] = await guarded([
      ["first", { templateId: "shared", records: [A] }],
      ["second", { templateId: "shared", records: [WWW] }],
    ]);
    expect((second as Error).message).toMatch(
      /^DnsTemplateRecords "first" and "second" both manage template "shared", and both have purge: true/,
    );
  });

  it("purge: false on both, one record declared by both: the second is refused, naming the record", async () => {
    const [web, mail] = await guarded([
      ["web", { templateId: "shared", purge: false, records: [A, WWW] }],
      ["mail", { templateId: "shared", purge: false, records: [MAIL, { ...WWW }] }],
    ]);
    expect(web).toBeUndefined();
    expect(mail).toBeInstanceOf(pulumi.ResourceError);
    expect((mail as Error).message).toMatch(
      /^DnsTemplateRecords "web" and "mail" share template "shared" \(purge: false\) and both declare the record www A 192\.0\.2\.2/,
    );
  });

  it("inputs given as Outputs are claimed once known", async () => {
    const [, mail] = await guarded([
      ["web", { templateId: "shared", purge: false, records: pulumi.output([WWW]) }],
      [
        "mail",
        { templateId: pulumi.output("shared"), purge: pulumi.output(false), records: [pulumi.output(WWW)] },
      ],
    ]);
    expect((mail as Error).message).toMatch(/both declare the record www A 192\.0\.2\.2/);
  });

  it("with no resource to show it on, the refusal stands on its own as a RunError", async () => {
    const [, second] = await guarded([
      ["first", { templateId: "shared", records: [A] }],
      ["second", { templateId: "shared", records: [WWW] }, () => undefined],
    ]);
    expect(second).toBeInstanceOf(pulumi.RunError);
    expect(second).not.toBeInstanceOf(pulumi.ResourceError);
    expect((second as Error).message).toMatch(/both have purge: true/);
  });

  it("when the resource's constructor threw, the refusal stands on its own as a RunError", async () => {
    const [, second] = await guarded([
      ["first", { templateId: "shared", records: [A] }],
      [
        "second",
        { templateId: "shared", records: [WWW] },
        () => {
          throw new ReferenceError("Must call super constructor before accessing 'this'");
        },
      ],
    ]);
    expect(second).toBeInstanceOf(pulumi.RunError);
    expect((second as Error).message).toMatch(/^DnsTemplateRecords "first" and "second" both manage/);
  });
});

describe("the guard beside the program's own dependsOn", () => {
  const guard = pulumi.output([] as pulumi.Resource[]);

  it("keeps what the program gave, one resource or a list, and adds the guard", () => {
    const other = { name: "other" } as unknown as pulumi.Resource;
    expect(withGuard(other, guard)).toEqual([other, guard]);
    expect(withGuard([other], guard)).toEqual([[other], guard]);
  });
});
