/**
 * The operations table both hosts dispatch through: a resource found by the type in its URN (under
 * a parent too), a function by its token, each unknown one refused naming what is served; a record
 * builder's refusal answered as a failure of the argument, not thrown.
 */
import { describe, expect, it } from "vitest";
import { TOKENS } from "../../provider/manifest";
import { FUNCTIONS, functionOperations, RESOURCES, resourceOperations } from "../../provider/operations";

const SERVED_RESOURCES = "domainapi:index:DnsTemplateRecords, domainapi:index:DomainRestore";

describe("resourceOperations", () => {
  it("finds a resource by the type in its URN, with or without parent types", () => {
    expect(resourceOperations(`urn:pulumi:dev::proj::${TOKENS.records}::zone`)).toBe(
      RESOURCES[TOKENS.records],
    );
    expect(resourceOperations(`urn:pulumi:dev::proj::my:index:Site$${TOKENS.restore}::r`)).toBe(
      RESOURCES[TOKENS.restore],
    );
  });

  it("refuses a type it does not serve, or a URN without one, naming the types it serves", () => {
    expect(() => resourceOperations("urn:pulumi:dev::proj::domainapi:index:Nope::n")).toThrow(
      `unknown resource type domainapi:index:Nope: the domainapi plugin serves ${SERVED_RESOURCES}`,
    );
    expect(() => resourceOperations("not-a-urn")).toThrow(
      `unknown resource type : the domainapi plugin serves ${SERVED_RESOURCES}`,
    );
  });
});

describe("a token that names what every object has", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "%s is no resource type and no function: refused by name",
    (name) => {
      expect(() => resourceOperations(`urn:pulumi:dev::proj::${name}::n`)).toThrow(
        `unknown resource type ${name}: the domainapi plugin serves ${SERVED_RESOURCES}`,
      );
      expect(() => functionOperations(name)).toThrow(
        `unknown function ${name}: the domainapi plugin serves `,
      );
    },
  );
});

describe("functionOperations", () => {
  it("serves getContacts and the three record builders, and refuses any other token by name", () => {
    expect(Object.keys(FUNCTIONS)).toEqual([TOKENS.contacts, TOKENS.spf, TOKENS.dmarc, TOKENS.caa]);
    expect(() => functionOperations("domainapi:index:nope")).toThrow(
      "unknown function domainapi:index:nope: the domainapi plugin serves domainapi:index:getContacts, domainapi:index:spf, domainapi:index:dmarc, domainapi:index:caa",
    );
  });

  it("a builder answers its record as outputs", async () => {
    await expect(functionOperations(TOKENS.dmarc).invoke({ policy: "reject" })).resolves.toEqual({
      outputs: { record: { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=reject" } },
    });
  });

  it("a builder's refusal is a failure of the argument at fault, with its reason", async () => {
    await expect(functionOperations(TOKENS.caa).invoke({})).resolves.toEqual({
      failures: [
        {
          property: "tag",
          reason: "tag is one of issue, issuewild, iodef, contactemail, contactphone, issuevmc, issuemail",
        },
      ],
    });
    await expect(functionOperations(TOKENS.spf).invoke({ policy: "fail" })).resolves.toEqual({
      failures: [
        {
          property: "policy",
          reason: "unknown argument; spf takes name, a, mx, ip4, ip6, include, exists, redirect, all",
        },
      ],
    });
  });
});
