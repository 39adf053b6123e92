/**
 * What the builders say in the refusals the other files leave out: the error's name as a program
 * prints it, several unknown arguments, arguments that are not an object, a redirect SPF cannot
 * read, DMARC numbers out of range, a DMARC or CAA name the record validation refuses.
 */
import { describe, expect, it } from "vitest";
import { BuilderArgumentError, caa, dmarc, spf } from "../../../provider/checks/builders";

/** The error a call throws; fails when it does not throw a BuilderArgumentError. */
function refusal(call: () => unknown): BuilderArgumentError {
  try {
    call();
  } catch (err) {
    expect(err).toBeInstanceOf(BuilderArgumentError);
    return err as BuilderArgumentError;
  }
  throw new Error("expected the builder to refuse its arguments");
}

describe("the refusal as a program prints it", () => {
  it("is named BuilderArgumentError", () => {
    const err = refusal(() => spf({ all: "pass" } as never));
    expect(err.name).toBe("BuilderArgumentError");
    expect(String(err)).toMatch(/^BuilderArgumentError: spf: all: /);
  });

  it("names every unknown argument, comma-separated", () => {
    expect(refusal(() => spf({ colour: "blue", size: 2 } as never)).message).toBe(
      "spf: colour, size: unknown argument; spf takes name, a, mx, ip4, ip6, include, exists, redirect, all",
    );
  });

  it("arguments that are not an object are refused as (arguments)", () => {
    const err = refusal(() => spf("mx" as never));
    expect(err.argument).toBe("(arguments)");
    expect(err.message).toMatch(/^spf: \(arguments\): \S/);
  });
});

describe("spf()", () => {
  it("a redirect SPF cannot read is refused as redirect", () => {
    expect(refusal(() => spf({ redirect: "localhost" })).message).toBe(
      'spf: redirect: the modifier "redirect=localhost" is malformed: "localhost" is not a domain: it must end in a dot and a top label, e.g. "_spf.example.net" or "{domainname}"; correct or remove "redirect=localhost"',
    );
  });
});

describe("dmarc()", () => {
  it.each([1.5, -1, 101])("percent %j is refused with its range", (percent) => {
    expect(refusal(() => dmarc({ policy: "none", percent })).message).toBe(
      "dmarc: percent: percent is a whole number from 0 to 100",
    );
  });

  it.each([1.5, -1])("reportInterval %j is refused as whole seconds", (reportInterval) => {
    expect(refusal(() => dmarc({ policy: "none", reportInterval })).message).toBe(
      "dmarc: reportInterval: reportInterval is whole seconds, e.g. 86400",
    );
  });

  it("a name under _dmarc that the record validation refuses names the dmarc builder and the name", () => {
    const err = refusal(() => dmarc({ policy: "none", name: "_dmarc.mail shop" }));
    expect(err.builder).toBe("dmarc");
    expect(err.message).toMatch(/^dmarc: name: \S/);
  });
});

describe("caa()", () => {
  it("a name that is not a string is refused with an example", () => {
    expect(refusal(() => caa({ name: 5, tag: "issue", value: "ca.example.net" } as never)).message).toBe(
      'caa: name: the record\'s name must be a string, e.g. "@"',
    );
  });
});
