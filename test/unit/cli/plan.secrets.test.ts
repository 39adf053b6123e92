/**
 * A template whose records a preview shows only as secret (`"[secret]"` in `pulumi preview --json`,
 * `{ciphertext: ...}` in the Automation API's engine events) is never left out of the plan and never
 * planned as if it were empty: it is named as not plannable there, and no reviewed-plan value is
 * given for the preview (`--expect` exits 2 naming it). The engine's own shapes are checked
 * end to end in test/e2e/secret-plan.test.ts.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { NO_CHANGES } from "../../../provider/cli/markdown";
import { type PlanCommandIo, runPlanCommand } from "../../../provider/cli/plan";
import { planComment, planExpectation, planExpectationResult } from "../../../provider/cli/review";
import { TEMPLATE_RECORDS_TYPES } from "../../../provider/cli/templatePlans";

type Props = Record<string, unknown>;
const TYPE = TEMPLATE_RECORDS_TYPES[0]!;
const SECRET = "[secret]";
const CIPHERTEXT = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: SECRET,
};

const held = {
  templateId: "web",
  purge: true,
  records: { "@/A": { name: "@", type: "A", content: "192.0.2.10" } },
  ids: { "@/A": "rec-1" },
};

function step(op: string, olds?: Props, news?: Props) {
  return {
    op,
    urn: `urn:pulumi:dev::dns::${TYPE}::web`,
    ...(olds ? { oldState: { type: TYPE, inputs: {}, outputs: olds } } : {}),
    ...(news ? { newState: { type: TYPE, inputs: news, outputs: {} } } : {}),
  };
}

/** The same step as an engine event of the Automation API. */
function event(op: string, olds?: Props, news?: Props) {
  const state = (p?: Props) => (p ? { type: TYPE, inputs: p, outputs: p } : undefined);
  return {
    resourcePreEvent: {
      metadata: {
        op,
        urn: `urn:pulumi:dev::dns::${TYPE}::web`,
        type: TYPE,
        old: state(olds),
        new: state(news),
      },
    },
  };
}

async function expectCommand(preview: unknown) {
  const stdin = new PassThrough();
  stdin.end(JSON.stringify(preview));
  let stdout = "";
  let stderr = "";
  const io: PlanCommandIo = {
    stdin,
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  };
  return { code: await runPlanCommand(["--expect"], io), stdout, stderr };
}

const cases: Array<[string, unknown]> = [
  [
    "an update, records secret in both states",
    { steps: [step("update", { ...held, records: SECRET }, { ...held, records: SECRET })] },
  ],
  [
    "an update, the declared records secret",
    { steps: [step("update", held, { templateId: "web", records: SECRET })] },
  ],
  [
    "a create (a PUT of everything)",
    { steps: [step("create", undefined, { templateId: "web", records: SECRET })] },
  ],
  ["a delete", { steps: [step("delete", { ...held, records: SECRET, ids: SECRET })] }],
  [
    "one record's content secret",
    {
      steps: [
        step("update", held, {
          templateId: "web",
          records: { "@/A": { name: "@", type: "A", content: SECRET } },
        }),
      ],
    },
  ],
  [
    "engine events with ciphertext",
    [event("update", { ...held, records: CIPHERTEXT }, { templateId: "web", records: CIPHERTEXT })],
  ],
  [
    "engine events with a secrets provider's own ciphertext",
    [
      event("update", held, {
        templateId: "web",
        records: { ...CIPHERTEXT, ciphertext: "v1:8Jq0sbUu0Ph0:bG9uZw==" },
      }),
    ],
  ],
  [
    "engine events of a create with ciphertext",
    [event("create", undefined, { templateId: "web", records: CIPHERTEXT })],
  ],
];

describe("a template whose records are secret in the preview", () => {
  for (const [name, preview] of cases) {
    it(`${name}: named as not planned, never "no changes", no value to expect`, async () => {
      const md = planComment(preview as never);
      expect(md).toContain("**Template `web`** (resource `web`");
      expect(md).toMatch(/\*\*not planned\*\*: the preview shows its records only as `\[secret\]`/);
      expect(md).not.toContain(NO_CHANGES);
      expect(md).not.toMatch(/^DOMAINAPI_EXPECT_PLAN=/m);
      expect(md).toContain(
        "No `DOMAINAPI_EXPECT_PLAN` value can be given for this preview: the plan of `web` is not known here",
      );
      expect(planExpectation(preview as never)).toBeUndefined();
      expect(planExpectationResult(preview as never)).toEqual({
        ok: false,
        reason: expect.stringMatching(
          /template "web" \(resource "web"\): its records are secret in the preview/,
        ),
      });
      if (!Array.isArray(preview)) {
        const { code, stdout, stderr } = await expectCommand(preview);
        expect(code).toBe(2);
        expect(stdout).toBe("");
        expect(stderr).toMatch(
          /^domainapi-plan: no plan to expect: no plan can be reviewed for template "web"/,
        );
      }
    });
  }

  it("a secret in the serialized provider alone does not stop the plan", () => {
    const news = {
      ...held,
      records: { "@/A": { name: "@", type: "A", content: "192.0.2.11" } },
      __provider: SECRET,
    };
    const preview = {
      config: { "domainapi:baseUrl": "https://api.example.com" },
      steps: [step("update", held, news)],
    };
    const md = planComment(preview);
    expect(md).toContain("~ MODIFY @ A content 192.0.2.10 -> 192.0.2.11");
    expect(planExpectation(preview)).toMatch(/^web=[0-9a-f]{32}$/);
  });
});
