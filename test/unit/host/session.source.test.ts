/**
 * Which provider takes its settings from the stack config: the engine's default provider (its name
 * `default`, or `default_<version>`), or one whose URN the engine leaves out; any other is an
 * explicit provider, configured by its inputs. The advice of a bad setting says where to change it.
 * And when a provider's base address moves its resources: an address not known yet (a preview).
 */
import * as pulumi from "@pulumi/pulumi";
import { expect, it } from "vitest";
import { diffProviderInputs, providerInputFailures, settingsSourceOf } from "../../../provider/host/session";

/** The advice for a malformed `timeoutMs` of the provider with `urn`, as CheckConfig gives it. */
const adviceFor = (urn: string | undefined) =>
  providerInputFailures({ timeoutMs: "soon" }, settingsSourceOf(urn)).map((f) => f.reason);

const STACK_ADVICE =
  'domainapi:timeoutMs "soon" must be an integer from 1 to 600000: it comes from the stack config domainapi:timeoutMs: change it with `pulumi config set domainapi:timeoutMs 30000`.';
const INPUT_ADVICE =
  "the provider's timeoutMs \"soon\" must be an integer from 1 to 600000: it comes from the explicit provider's `timeoutMs` input: change that input in the program (e.g. timeoutMs: 30000).";

it("takes a provider without a URN (none sent, or an empty one) as the default one: the advice names the stack config", () => {
  expect(adviceFor(undefined)).toEqual([STACK_ADVICE]);
  // An unset string field of the engine's request reads as "".
  expect(adviceFor("")).toEqual([STACK_ADVICE]);
  expect(adviceFor("urn:pulumi:dev::p::pulumi:providers:domainapi::")).toEqual([STACK_ADVICE]);
});

it("takes a provider whose name only holds `default` further in as an explicit one: the advice names its input", () => {
  for (const name of ["nodefault", "my_default_1", "live-default"])
    expect(adviceFor(`urn:pulumi:dev::p::pulumi:providers:domainapi::${name}`)).toEqual([INPUT_ADVICE]);
  expect(adviceFor("urn:pulumi:dev::p::pulumi:providers:domainapi::default_0_1_0")).toEqual([STACK_ADVICE]);
});

it("moves the resources when an address not known yet meets a known one, and not between two not known yet", () => {
  const unknown = pulumi.runtime.unknownValue;
  expect(diffProviderInputs({ baseUrl: unknown }, { baseUrl: "https://api.example.com" })).toEqual({
    changes: true,
    replaces: ["baseUrl"],
  });
  expect(diffProviderInputs({ baseUrl: unknown }, { baseUrl: unknown })).toEqual({
    changes: false,
    replaces: [],
  });
});
