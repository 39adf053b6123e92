/**
 * Under the engine, a preview fails where `up` would for what needs no request: a malformed
 * setting fails `pulumi preview` with the message `up` gives, and nothing is sent; a missing key is
 * a warning in a preview (previews of pull requests from forks run without secrets) and an error
 * at `up`. Shown with a DomainRestore, whose check() runs the settings check.
 */

import { describe, expect, it } from "vitest";
import {
  type ConfigInput,
  createTestStack,
  domainapi,
  type TestStack,
  useSandbox,
  useStacks,
} from "./harness";
import { API_KEY } from "./records-helpers";

function failureText(run: () => Promise<unknown>): Promise<string> {
  return run().then(
    () => "",
    (err: unknown) => String(err),
  );
}

/** The ConfigError's problem lines, each once (the engine repeats them in progress and summary). */
function configMessage(text: string): string[] {
  return [
    ...new Set(text.match(/- domainapi:\S+ .*?(?:environment variable|`pulumi config set [^`]+`)\./g) ?? []),
  ].sort();
}

describe("settings checked by a preview", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const stacks = useStacks();

  async function stackWith(config: Record<string, ConfigInput>): Promise<TestStack> {
    const s = await createTestStack({
      program: async () => {
        const { DomainRestore } = domainapi();
        new DomainRestore("restore", { domain: "shop.example" });
      },
      config,
    });
    stacks.push(s);
    sandbox.reset();
    return s;
  }

  it("a baseUrl ending in /v2 and a timeoutMs of abc: the preview fails with up's message, nothing sent", async () => {
    const s = await stackWith({
      "domainapi:baseUrl": `${sandbox.url}/v2`,
      "domainapi:timeoutMs": "abc",
      "domainapi:apiKey": { value: API_KEY, secret: true },
    });
    const preview = await failureText(() => s.preview());
    const up = await failureText(() => s.up());
    expect(preview).toContain("pulumi-domainapi is not configured correctly");
    expect(configMessage(preview)).toHaveLength(2);
    expect(configMessage(preview)).toEqual(configMessage(up));
    expect(preview).toContain("ends with /v2");
    expect(preview).toContain('domainapi:timeoutMs "abc" must be an integer');
    expect(sandbox.requests).toEqual([]);
  });

  it("a missing key: a warning in the preview, an error at up; nothing sent", async () => {
    const s = await stackWith({ "domainapi:baseUrl": sandbox.url });
    const preview = await s.preview();
    expect(preview.stdout + preview.stderr).toContain("domainapi:apiKey is not set");
    expect(preview.stdout + preview.stderr).toContain("`pulumi up` fails until it is set");
    const up = await failureText(() => s.up());
    expect(up).toContain("domainapi:apiKey is not set");
    expect(sandbox.requests).toEqual([]);
  });
});
