/**
 * What a program that calls `verifyDomains` sees of a refusal: a `VerifyInputError` by name, every
 * problem of `--server` said and set apart; and what is a secret of the stack export: only the
 * engine's secret object, not any output that holds a field named `plaintext`.
 */
import { describe, expect, it } from "vitest";
import { declaredTemplates, VerifyInputError, verifyDomains } from "../../../provider/cli/verify";

/** `pulumi stack output --json` of a program that exports its records resource as `web`. */
function outputs(extra: Record<string, unknown> = {}) {
  return { web: { templateId: "web", records: [{ name: "@", type: "A", content: "192.0.2.1" }], ...extra } };
}

describe("a refused input, as a program sees it", () => {
  it("is a VerifyInputError by name: its name opens what the error prints", async () => {
    const error = await verifyDomains({ declared: outputs(), domains: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerifyInputError);
    expect((error as Error).name).toBe("VerifyInputError");
    expect(String(error)).toBe(
      "VerifyInputError: name the domains to verify: --domain shop.example=<templateId>",
    );
  });

  it("names every server that is no address, each problem set apart by a semicolon", async () => {
    await expect(
      verifyDomains({
        declared: outputs(),
        domains: { "shop.example": "web" },
        servers: ["ns1.example.net, 192.0.2.53:0"],
      }),
    ).rejects.toThrow(
      '--server: "ns1.example.net" is not an IP address (with an optional port): give the authoritative ' +
        "server's address, e.g. 192.0.2.53 or 127.0.0.1:5353 or [2001:db8::53]:53; " +
        '"192.0.2.53:0": the port must be from 1 to 65535',
    );
  });
});

describe("what is a secret of the stack", () => {
  it("a secret whose plaintext is not JSON stays a secret: its records are refused as such, naming the command", () => {
    const records = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      plaintext: "[{",
    };
    expect(() => declaredTemplates(outputs({ records }))).toThrow(
      new VerifyInputError(
        'web: the records of template "web" are secret in this file: export them with `pulumi stack export --show-secrets` (or `pulumi stack output --json --show-secrets`)',
      ),
    );
  });

  it("an output with a field of its own named plaintext is read as it is, not as a secret", () => {
    for (const plaintext of ["[]", '"a note"', "not JSON"]) {
      expect(declaredTemplates(outputs({ plaintext }))).toEqual([
        { templateId: "web", purge: true, records: [{ name: "@", type: "A", content: "192.0.2.1" }] },
      ]);
    }
  });
});
