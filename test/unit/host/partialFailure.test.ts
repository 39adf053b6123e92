/**
 * The error of an operation that changed something before it failed (provider/host/partialFailure.ts):
 * the engine records the resource's id and the state reached, so the next `pulumi up` starts from
 * what the API holds; the provider that the resource uses stays in that state.
 */
import { describe, expect, it } from "vitest";
import { DomainApiBaseError } from "../../../provider/errors";
import { PartialFailure } from "../../../provider/host/partialFailure";

const inputs = { templateId: "web", __provider: "serialized-provider" };

describe("PartialFailure", () => {
  it("carries the message, its code, the id and the state reached, with the resource's provider", () => {
    const failure = new PartialFailure(
      "template web: 1 of 2 requests sent",
      "web",
      { templateId: "web", ids: {} },
      inputs,
    );
    expect(failure).toBeInstanceOf(PartialFailure);
    expect(failure).toBeInstanceOf(DomainApiBaseError);
    expect(failure.message).toBe("template web: 1 of 2 requests sent");
    expect(failure.code).toBe("DOMAINAPI_PARTIAL_FAILURE");
    expect(failure.name).toBe("PartialFailure");
    expect(failure.id).toBe("web");
    expect(failure.properties).toEqual({ templateId: "web", ids: {}, __provider: "serialized-provider" });
    expect(failure.reasons).toEqual(["template web: 1 of 2 requests sent"]);
  });

  it("the provider comes from the inputs, over any the state carried", () => {
    const failure = new PartialFailure("m", "web", { __provider: "old" }, inputs);
    expect(failure.properties.__provider).toBe("serialized-provider");
  });

  it("keeps the cause when there is one, and has none otherwise", () => {
    const cause = new Error("socket hang up");
    expect(new PartialFailure("m", "web", {}, inputs, cause).cause).toBe(cause);
    const without = new PartialFailure("m", "web", {}, inputs);
    expect(without.cause).toBeUndefined();
    expect("cause" in without).toBe(false);
  });

  it("is known by its brand across copies of the package", () => {
    const copy = Object.assign(new Error("m"), { [Symbol.for("pulumi-domainapi.PartialFailure")]: true });
    expect(copy).toBeInstanceOf(PartialFailure);
    expect(new Error("m")).not.toBeInstanceOf(PartialFailure);
  });
});
