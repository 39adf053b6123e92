/**
 * What the plan comment lists for each step of a preview (cli/templatePlans.ts), beyond the plain
 * cases: a resource's whole name, the order a reader finds the templates in, what makes a template
 * not plannable (and what does not), how a restore whose domain is hidden is named, and which
 * providers count as the plugin's explicit ones.
 */
import { describe, expect, it } from "vitest";
import type { PreviewDigest } from "../../../provider/cli/preview";
import { RESTORE_TYPES, TEMPLATE_RECORDS_TYPES, templatePlans } from "../../../provider/cli/templatePlans";
import { UNKNOWN } from "../../../provider/host/engine";
import { DYNAMIC_TOKENS, TOKENS } from "../../../provider/manifest";

type Props = Record<string, unknown>;
const TYPE: string = DYNAMIC_TOKENS.records;
const ACCOUNT = "https://api.example.com";
const config = { "domainapi:baseUrl": ACCOUNT };
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "x" };

const a = { name: "@", type: "A", content: "192.0.2.1" };
const www = { name: "www", type: "A", content: "192.0.2.2" };
const declared = (records: Props, extra: Props = {}) => ({
  templateId: "web",
  purge: true,
  records,
  ...extra,
});
const held = {
  templateId: "web",
  purge: true,
  records: { "@/A": a },
  ids: { "@/A": "rec-1" },
  lastPlan: "1 to create",
};

function step(op: string, name: string, states: { olds?: Props; news?: Props }, type = TYPE) {
  return {
    op,
    urn: `urn:pulumi:dev::dns::${type}::${name}`,
    ...(states.olds ? { oldState: { type, inputs: {}, outputs: states.olds } } : {}),
    ...(states.news ? { newState: { type, inputs: states.news, outputs: {} } } : {}),
  };
}

const plansOf = (...steps: unknown[]) => templatePlans({ config, steps } as PreviewDigest);

describe("the types a plan is made for", () => {
  it("are the dynamic resources' and the plugin's", () => {
    expect(TEMPLATE_RECORDS_TYPES).toEqual([DYNAMIC_TOKENS.records, TOKENS.records]);
    expect(RESTORE_TYPES).toEqual([DYNAMIC_TOKENS.restore, TOKENS.restore]);
    for (const type of TEMPLATE_RECORDS_TYPES) {
      expect(plansOf(step("create", "web", { news: declared({ "@/A": a }) }, type)).length, type).toBe(1);
    }
  });
});

describe("each plan's resource name and order", () => {
  it("is everything after the type in the URN, `::` included; a URN of another form is shown whole", () => {
    const plans = plansOf(step("create", "x::web", { news: declared({ "@/A": a }) }), {
      op: "create",
      urn: "web-odd",
      newState: { type: TYPE, inputs: declared({ "@/A": a }) },
    });
    expect(plans.map((p) => p.resource)).toEqual(["web-odd", "x::web"]);
  });

  it("sorts templates as people sort names: svc2 before svc10, whatever the preview's order", () => {
    const news = declared({ "@/A": a });
    const plans = plansOf(
      step("create", "svc10", { news }),
      step("create", "svc2", { news }),
      step("create", "Svc1", { news }),
    );
    expect(plans.map((p) => p.resource)).toEqual(["Svc1", "svc2", "svc10"]);
  });

  it("leaves out steps without a state, and steps of other ops", () => {
    const news = declared({ "@/A": a });
    expect(
      plansOf(
        { op: "create", urn: `urn:pulumi:dev::dns::${TYPE}::bare` },
        step("read", "r", { news, olds: held }),
        step("refresh", "f", { news, olds: held }),
      ),
    ).toEqual([]);
  });
});

describe("a template that cannot be planned", () => {
  it("is not so for a secret in the serialized provider alone", () => {
    const [plan] = plansOf(
      step("create", "web", { news: { ...declared({ "@/A": a }), __provider: SECRET } }),
    );
    expect(plan?.notPlannable).toBeUndefined();
    expect(plan?.digest).toMatch(/^[0-9a-f]{32}$/);
  });

  it("is secret when the state's records are, though the program's are plain; named by the program's id", () => {
    const olds = { ...held, records: SECRET };
    const [plan] = plansOf(step("update", "web", { olds, news: declared({ "@/A": a, "www/A": www }) }));
    expect(plan).toEqual({
      resource: "web",
      templateId: "web",
      summary: "",
      corrections: [],
      setAside: [],
      notPlannable: "secret",
    });
  });

  it("says unknown before secret: a value known only during up stays so", () => {
    const olds = { ...held, records: SECRET };
    const [plan] = plansOf(
      step("update", "web", { olds, news: declared({ "@/A": { ...a, content: UNKNOWN } }) }),
    );
    expect(plan?.notPlannable).toBe("unknown");
  });

  it("names a template id that is secret or not known yet as such", () => {
    const [secret] = plansOf(
      step("create", "s", { news: declared({ "@/A": a }, { templateId: "[secret]" }) }),
    );
    expect([secret?.templateId, secret?.notPlannable]).toEqual(["(secret)", "secret"]);
    const [unknown] = plansOf(step("create", "u", { news: declared({ "@/A": a }, { templateId: UNKNOWN }) }));
    expect([unknown?.templateId, unknown?.notPlannable]).toEqual(["(not known yet)", "unknown"]);
    const [missing] = plansOf(step("create", "m", { news: { records: UNKNOWN } }));
    expect([missing?.templateId, missing?.notPlannable]).toEqual(["", "unknown"]);
  });

  it("a delete from a secret state is listed, with the reason of a removal", () => {
    const [plan] = plansOf(step("delete", "web", { olds: { ...held, records: SECRET } }));
    expect(plan).toMatchObject({ templateId: "web", reason: { kind: "removed" }, notPlannable: "secret" });
  });

  it("a plan without an account that sends nothing is left out, one that sends something is kept", () => {
    const steps = [
      step("create", "empty", { news: declared({}) }),
      step("create", "full", { news: declared({ "@/A": a }) }),
    ];
    const plans = templatePlans({ steps } as PreviewDigest, { baseUrl: "" });
    expect(plans.map((p) => [p.resource, p.notPlannable, p.digest])).toEqual([
      ["full", "account", undefined],
    ]);
    expect(plans[0]).not.toHaveProperty("account");
  });
});

describe("a restore whose domain is hidden", () => {
  const TYPE_R = DYNAMIC_TOKENS.restore;
  it("is named by what the preview shows in its place, and not planned", () => {
    const plans = plansOf(
      step("create", "r1", { news: { domain: UNKNOWN } }, TYPE_R),
      step("create", "r2", { news: { domain: "[secret]" } }, TYPE_R),
      step("create", "r3", { news: { domain: 7 } }, TYPE_R),
    );
    expect(plans.map((p) => [p.templateId, p.restore, p.notPlannable, p.reason?.kind])).toEqual([
      ["restore/(not known yet)", "(not known yet)", "unknown", "created"],
      ["restore/(secret)", "(secret)", "secret", "created"],
      ["restore/7", "7", "unknown", "created"],
    ]);
  });

  it("a plain domain is planned: one request, its digest, its account", () => {
    const [plan] = plansOf(step("create", "r", { news: { domain: "shop.example" } }, TYPE_R));
    expect(plan).toMatchObject({
      templateId: "restore/shop.example",
      restore: "shop.example",
      account: ACCOUNT,
      summary:
        "restored from quarantine (1 request: POST /v2/domains/{domain}/restore; a restore cannot be undone)",
      corrections: [],
      setAside: [],
    });
    expect(plan?.digest).toMatch(/^[0-9a-f]{32}$/);
  });

  it("without an account, is listed without a digest", () => {
    const steps = [step("create", "r", { news: { domain: "shop.example" } }, TYPE_R)];
    const [plan] = templatePlans({ steps } as PreviewDigest, { baseUrl: "" });
    expect(plan?.notPlannable).toBe("account");
    expect(plan).not.toHaveProperty("digest");
  });
});

describe("which provider is the plugin's explicit one", () => {
  const providerUrn = (name: string) => `urn:pulumi:dev::dns::pulumi:providers:domainapi::${name}`;
  const on = (provider: string) => ({
    ...step("create", provider, { news: declared({ "@/A": a }) }, TOKENS.records),
    provider: `${providerUrn(provider)}::04da6b54-80e4-46f7-96ec-b56ff0331ba9`,
  });
  const providerStep = (name: string) => ({
    op: "create",
    urn: providerUrn(name),
    newState: { type: "pulumi:providers:domainapi", inputs: { baseUrl: "https://own.example" } },
  });

  it("a default provider (default, default_<version>) reads the stack config, whatever a step of it says", () => {
    const preview = {
      config,
      steps: [
        providerStep("default"),
        providerStep("default_0_1_0"),
        providerStep("live"),
        on("default"),
        on("default_0_1_0"),
        on("live"),
      ],
    } as PreviewDigest;
    expect(templatePlans(preview).map((p) => [p.resource, p.account])).toEqual([
      ["default", ACCOUNT],
      ["default_0_1_0", ACCOUNT],
      ["live", "https://own.example"],
    ]);
  });

  it("a provider of another package is no explicit provider of the plugin", () => {
    const other = {
      ...step("create", "web", { news: declared({ "@/A": a }) }),
      provider: "urn:pulumi:dev::dns::pulumi:providers:other::live::id",
    };
    const preview = {
      config,
      steps: [
        {
          op: "create",
          urn: "urn:pulumi:dev::dns::pulumi:providers:other::live",
          newState: { type: "pulumi:providers:other", inputs: { baseUrl: "https://own.example" } },
        },
        other,
      ],
    } as PreviewDigest;
    expect(templatePlans(preview).map((p) => p.account)).toEqual([ACCOUNT]);
  });

  it("an explicit provider whose baseUrl is secret or malformed gives no account", () => {
    for (const baseUrl of ["[secret]", "not a url"]) {
      const preview = {
        config,
        steps: [
          {
            op: "create",
            urn: providerUrn("live"),
            newState: { type: "pulumi:providers:domainapi", inputs: { baseUrl } },
          },
          on("live"),
        ],
      } as PreviewDigest;
      expect(
        templatePlans(preview).map((p) => [p.account, p.notPlannable]),
        baseUrl,
      ).toEqual([[undefined, "account"]]);
    }
  });
});

describe("the account when nothing else says it", () => {
  const news = declared({ "@/A": a, "www/A": www });

  it("is where the state says the resource was made, from its outputs or else its inputs", () => {
    const made = (state: { outputs?: Props; inputs?: Props }) =>
      templatePlans(
        {
          steps: [
            {
              op: "update",
              urn: `urn:pulumi:dev::dns::${TYPE}::web`,
              oldState: { type: TYPE, inputs: state.inputs ?? {}, outputs: { ...held, ...state.outputs } },
              newState: { type: TYPE, inputs: news, outputs: {} },
            },
          ],
        } as PreviewDigest,
        { baseUrl: "" },
      )[0]?.account;
    expect(made({ outputs: { baseUrl: "https://made.example/" } })).toBe("https://made.example");
    expect(made({ inputs: { baseUrl: "https://input.example" } })).toBe("https://input.example");
    expect(
      made({ outputs: { baseUrl: "not an address" }, inputs: { baseUrl: "https://input.example" } }),
    ).toBe("https://input.example");
    expect(made({})).toBeUndefined();
  });

  it("is DOMAINAPI_BASE_URL of this process when not given", () => {
    const saved = process.env.DOMAINAPI_BASE_URL;
    process.env.DOMAINAPI_BASE_URL = "https://env.example";
    try {
      const [plan] = templatePlans({ steps: [step("create", "web", { news })] } as PreviewDigest);
      expect(plan?.account).toBe("https://env.example");
      const [given] = templatePlans({ steps: [step("create", "web", { news })] } as PreviewDigest, {
        baseUrl: "https://given.example",
      });
      expect(given?.account).toBe("https://given.example");
    } finally {
      if (saved === undefined) delete process.env.DOMAINAPI_BASE_URL;
      else process.env.DOMAINAPI_BASE_URL = saved;
    }
  });

  it("a stack config that is not a plain address gives none, whatever the fallback", () => {
    for (const baseUrl of ["[secret]", 42]) {
      const [plan] = templatePlans(
        {
          config: { "domainapi:baseUrl": baseUrl },
          steps: [step("create", "web", { news })],
        } as PreviewDigest,
        { baseUrl: "https://env.example" },
      );
      expect(plan?.notPlannable, String(baseUrl)).toBe("account");
    }
  });
});

describe("the template checks' warnings", () => {
  const spf = (content: string) => ({ name: "@", type: "TXT", content });
  const warned = declared({ "@/TXT": spf("v=spf1 +all") });

  it("are given on a create and an update, with or without an account", () => {
    const update = step("update", "u", { olds: held, news: warned });
    const create = step("create", "c", { news: warned });
    for (const preview of [{ config, steps: [update, create] }, { steps: [update, create] }]) {
      const plans = templatePlans(preview as PreviewDigest, { baseUrl: "" });
      expect(plans.map((p) => [p.resource, p.warnings?.length])).toEqual([
        ["c", 1],
        ["u", 1],
      ]);
      expect(plans[0]?.warnings?.[0]).toMatch(/^@ TXT v=spf1 \+all: \[spf-pass-all, /);
    }
  });

  it("are not looked for in a template that cannot be planned", () => {
    const secret = declared({ "@/TXT": spf("v=spf1 +all"), "www/A": { ...www, content: "[secret]" } });
    const plans = templatePlans({ config, steps: [step("create", "c", { news: secret })] } as PreviewDigest);
    expect(plans[0]).not.toHaveProperty("warnings");
    expect(plans[0]?.notPlannable).toBe("secret");
  });
});
