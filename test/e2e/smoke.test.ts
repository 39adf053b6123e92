import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, requireFromWork, type TestStack, typeToken } from "./harness";

type Floor = {
  EngineFloor: new (name: string, args: Record<string, unknown>) => { urn: unknown };
};

describe("real Pulumi engine smoke test (thin-shim dynamic resource)", () => {
  let s: TestStack;
  beforeAll(async () => {
    const { EngineFloor } = requireFromWork<Floor>("domainapi-engine-floor");
    s = await createTestStack({
      program: async () => {
        const r = new EngineFloor("probe", { value: "hello" });
        return { value: r.urn };
      },
    });
  });
  afterAll(async () => {
    await s?.cleanup();
  });

  it("runs up, a no-op up, a no-op preview, then destroy to an empty stack", async () => {
    const up = await s.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create).toBe(2); // the stack and the resource

    const [resource] = await s.resources(typeToken("EngineFloor"));
    expect(resource?.outputs?.value).toBe("hello");
    const provider = String(resource?.inputs?.__provider ?? "");
    expect(provider.length).toBeGreaterThan(0);
    expect(provider.length).toBeLessThan(2048);
    // The fixture's shim requires its implementation by name, exactly as the package's does.
    expect(provider).toContain('require("domainapi-engine-floor/impl")');

    const again = await s.up();
    expect(again.summary.resourceChanges).toEqual({ same: 2 });

    const preview = await s.preview();
    expect(preview.changeSummary).toEqual({ same: 2 });

    const destroy = await s.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const left = await s.resources();
    expect(left).toEqual([]);
  });
});
