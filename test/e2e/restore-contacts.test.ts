/**
 * DomainRestore and getContacts under the real engine: a program that restores a domain and
 * exports the handle of a contact it looked up.
 */

import { describe, expect, it } from "vitest";
import { createTestStack, domainapi, useSandbox, useStack } from "./harness";
import { API_KEY } from "./records-helpers";

describe("DomainRestore and getContactsOutput in one program", () => {
  const sandbox = useSandbox({ apiKey: API_KEY });
  const inputs = { domain: "shop.example", triggers: ["v1"] as string[] };

  const s = useStack(() =>
    createTestStack({
      program: async () => {
        const { DomainRestore, getContactsOutput } = domainapi();
        const restored = new DomainRestore("restore", { domain: inputs.domain, triggers: inputs.triggers });
        const found = getContactsOutput({ country: "NL", sort: ["-connections", "handle"], limit: 3 });
        return {
          restoredAt: restored.restoredAt,
          domain: restored.domain,
          handle: found.contacts.apply((cs) => cs[0]?.handle ?? ""),
          total: found.total,
        };
      },
      config: { "domainapi:baseUrl": sandbox.url, "domainapi:apiKey": { value: API_KEY, secret: true } },
    }),
  );

  it("restores the domain once and exports the looked-up handle", async () => {
    expect(sandbox.state.domains.get("shop.example")).toBe("quarantined");
    const up = await s.up();
    expect(sandbox.state.domains.get("shop.example")).toBe("active");
    expect(up.outputs.restoredAt?.value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const nl = sandbox.state.contacts
      .filter((c) => c.country === "NL")
      .sort((a, b) => Number(b.connections) - Number(a.connections) || a.handle.localeCompare(b.handle));
    expect(up.outputs.handle?.value).toBe(nl[0]?.handle);
    expect(up.outputs.total?.value).toBe(nl.length);
    const posts = sandbox.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => r.path)).toEqual(["/v2/domains/shop.example/restore"]);
  });

  it("does not restore again on a second up, and restores again when the triggers change", async () => {
    sandbox.clearRequests();
    await s.up();
    expect(sandbox.requests.filter((r) => r.method === "POST")).toEqual([]);
    sandbox.setDomain("shop.example", "quarantined");
    inputs.triggers = ["v2"];
    await s.up();
    expect(sandbox.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(sandbox.state.domains.get("shop.example")).toBe("active");
  });

  it("fails clearly for a domain that is not in the account, and destroy makes no request", async () => {
    inputs.domain = "nowhere.example";
    const failure = await s.up().then(
      () => "",
      (err: unknown) => String(err),
    );
    expect(failure).toMatch(/nowhere\.example.*not in this account/);
    inputs.domain = "shop.example";
    sandbox.clearRequests();
    await s.destroy();
    expect(sandbox.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(sandbox.state.domains.get("shop.example")).toBe("active");
  });
});
