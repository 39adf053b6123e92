import { describe, expect, it } from "vitest";
import { API_KEY, call, errorOf, rawRequest, useSandbox } from "./helpers";

const sandbox = useSandbox();

const restore = (domain: string) =>
  call(sandbox, "POST", `/v2/domains/${encodeURIComponent(domain)}/restore`);

describe("POST /v2/domains/{domain}/restore", () => {
  it("seeds shop.example and old.example quarantined and live.example active by default", () => {
    expect(Object.fromEntries(sandbox.state.domains)).toEqual({
      "shop.example": "quarantined",
      "old.example": "quarantined",
      "live.example": "active",
    });
  });

  it("takes a quarantined domain out of quarantine: 204, no body", async () => {
    const response = await restore("shop.example");
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(sandbox.domainStatus("shop.example")).toBe("active");
    expect(sandbox.domainStatus("old.example")).toBe("quarantined");
  });

  it("is a 409 with an error body for an active domain, also on a second restore", async () => {
    const active = await restore("live.example");
    expect(active.status).toBe(409);
    expect(errorOf(active)).toEqual({
      code: "conflict",
      message: expect.stringContaining("live.example is not in quarantine"),
    });
    expect((await restore("old.example")).status).toBe(204);
    const again = await restore("old.example");
    expect(again.status).toBe(409);
    expect(errorOf(again).code).toBe("conflict");
  });

  it("is a 404 for an unknown domain", async () => {
    const response = await restore("unknown.example");
    expect(response.status).toBe(404);
    expect(errorOf(response)).toEqual({
      code: "not_found",
      message: "domain unknown.example does not exist",
    });
  });

  it("treats domain names case-insensitively", async () => {
    expect((await restore("SHOP.Example")).status).toBe(204);
    expect(sandbox.domainStatus("shop.example")).toBe("active");
  });

  it("follows setDomain", async () => {
    sandbox.setDomain("new.example", "quarantined");
    expect((await restore("new.example")).status).toBe(204);
    sandbox.setDomain("live.example", "quarantined");
    expect((await restore("live.example")).status).toBe(204);
  });

  it("takes no body and no query parameters", async () => {
    const withBody = await call(sandbox, "POST", "/v2/domains/shop.example/restore", { body: {} });
    expect(withBody.status).toBe(400);
    expect(errorOf(withBody).message).toContain("body: restore takes no body");
    const withQuery = await call(sandbox, "POST", "/v2/domains/shop.example/restore?force=true");
    expect(withQuery.status).toBe(400);
    expect(errorOf(withQuery).message).toContain("force: unknown query parameter");
    expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
    // An empty body with a Content-Type is still no body.
    const emptyJson = await rawRequest(sandbox, "POST", "/v2/domains/shop.example/restore", {
      Authorization: `Bearer ${API_KEY}`,
      "Content-Type": "application/json",
      "Content-Length": "0",
    });
    expect(emptyJson.status).toBe(204);
  });

  it("is a 405 with Allow: POST for other methods", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const response = await call(sandbox, method, "/v2/domains/shop.example/restore");
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
    expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
  });
});
