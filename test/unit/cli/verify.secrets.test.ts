/**
 * `domainapi-verify` reads the file its usage asks for: `pulumi stack export --show-secrets`, which
 * writes each secret as the engine's secret object with its plaintext (the JSON of the value, see
 * the engine's `SecretV1`). Records kept secret in the stack are read from it, whole or field by
 * field; only a secret whose value the file does not hold (ciphertext) is refused.
 */
import { describe, expect, it } from "vitest";
import { declaredTemplates } from "../../../provider/cli/verify";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
/** A value as `pulumi stack export --show-secrets` writes a secret. */
const shown = (value: unknown) => ({ [SIG]: SECRET, plaintext: JSON.stringify(value) });

const records = {
  "@/TXT": { name: "@", type: "TXT", content: "v=DKIM1; p=MIIB" },
  "www/A": { name: "www", type: "A", content: "192.0.2.1" },
};

function exported(outputs: Record<string, unknown>) {
  return {
    version: 3,
    deployment: {
      resources: [
        {
          urn: "urn:pulumi:dev::dns::domainapi:index:DnsTemplateRecords::web",
          type: "domainapi:index:DnsTemplateRecords",
          outputs: { templateId: "web", purge: true, ids: {}, ...outputs },
        },
      ],
    },
  };
}

const expected = [
  {
    templateId: "web",
    purge: true,
    records: [
      { name: "@", type: "TXT", content: "v=DKIM1; p=MIIB" },
      { name: "www", type: "A", content: "192.0.2.1" },
    ],
  },
];

describe("a stack exported with --show-secrets", () => {
  it("gives the records kept secret as a whole", () => {
    expect(declaredTemplates(exported({ records: shown(records) }))).toEqual(expected);
  });

  it("gives a record whose content is secret, and a secret inside a secret", () => {
    const fieldSecret = { ...records, "@/TXT": { ...records["@/TXT"], content: shown("v=DKIM1; p=MIIB") } };
    expect(declaredTemplates(exported({ records: fieldSecret }))).toEqual(expected);
    expect(declaredTemplates(exported({ records: shown(fieldSecret) }))).toEqual(expected);
  });

  it("still refuses a secret it does not hold the value of, naming the command", () => {
    expect(() => declaredTemplates(exported({ records: { [SIG]: SECRET, ciphertext: "v1:abc" } }))).toThrow(
      /^deployment\.resources\[0\]\.outputs: the records of template "web" are secret in this file: export them with `pulumi stack export --show-secrets`/,
    );
    expect(() => declaredTemplates(exported({ records: { [SIG]: SECRET, plaintext: "{not json" } }))).toThrow(
      /the records of template "web" are secret in this file/,
    );
  });
});
