/**
 * `domainapi:apiKey` set without `--secret` ends up in plain text in the stack's state (the engine
 * records the stack config as the inputs of the dynamic provider): the program says so in a
 * warning. Set with `--secret`, there is no warning and the key is nowhere in the exported state.
 */

import { describe, expect, it } from "vitest";
import { createTestStack, domainapi, useSandbox, useStacks } from "./harness";
import { API_KEY } from "./records-helpers";

const WARNING = "domainapi:apiKey is set in plain text";

describe("a key set in plain text", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const stacks = useStacks();

  async function upWith(secret: boolean, verbose = false): Promise<{ output: string; state: string }> {
    const s = await createTestStack({
      program: async () => {
        const { DomainRestore } = domainapi();
        new DomainRestore("restore", { domain: "shop.example" });
      },
      config: {
        "domainapi:baseUrl": sandbox.url,
        "domainapi:apiKey": secret ? { value: API_KEY, secret: true } : API_KEY,
      },
    });
    stacks.push(s);
    sandbox.reset();
    const up = await s.up(verbose ? { logVerbosity: 9, logToStdErr: true } : {});
    expect(up.summary.result).toBe("succeeded");
    return { output: up.stdout + up.stderr, state: await s.exportText() };
  }

  it("is warned of once, and is indeed in the state in plain text", async () => {
    const { output, state } = await upWith(false);
    // Told once (the engine repeats it under Diagnostics).
    expect(output).toMatch(/created \([^)]*\)\s+1 warning/);
    expect(output).toContain(WARNING);
    expect(output).toContain("pulumi config set --secret domainapi:apiKey");
    expect(output).not.toContain(API_KEY);
    // What the warning is about: the engine keeps the stack config as the provider's inputs.
    expect(state).toContain(API_KEY);
  });

  it("set with --secret: no warning, and the key is nowhere in the state", async () => {
    const { output, state } = await upWith(true);
    expect(output).not.toContain(WARNING);
    expect(state).not.toContain(API_KEY);
  });

  it("set with --secret, the engine's own -v=9 log still shows it (the limit the README states)", async () => {
    const { output, state } = await upWith(true, true);
    expect(state).not.toContain(API_KEY);
    // The engine logs the decrypted inputs of the provider's Configure call at verbosity 9:
    // "Marshaling property for RPC[Provider[0x…].Configure().inputs]: value={<the key>}".
    const leaking = output.split("\n").filter((line) => line.includes(API_KEY));
    expect(leaking.some((line) => line.includes("Configure"))).toBe(true);
  });
});
