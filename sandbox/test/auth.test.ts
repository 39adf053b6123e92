import { type Sandbox, startSandbox } from "domainapi-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, call, errorOf, recordsPath } from "./helpers";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: API_KEY });
});
afterAll(async () => {
  await sandbox.close();
});

const ROUTES: Array<{ method: string; path: string; body?: unknown }> = [
  { method: "GET", path: "/v2/contacts" },
  { method: "PUT", path: recordsPath("web"), body: { records: [{ name: "@", type: "TXT", content: "x" }] } },
  { method: "PATCH", path: recordsPath("web"), body: { add: [{ name: "@", type: "TXT", content: "x" }] } },
  { method: "POST", path: "/v2/domains/shop.example/restore" },
  { method: "GET", path: "/v2/no-such-route" },
];

const BAD_HEADERS: Array<[string, string | null, string]> = [
  ["missing", null, "missing Authorization header"],
  ["empty", "", "missing Authorization header"],
  [
    "another scheme",
    `Basic ${Buffer.from(`user:${API_KEY}`).toString("base64")}`,
    "malformed Authorization header",
  ],
  ["the key without scheme", API_KEY, "malformed Authorization header"],
  ["Bearer without a key", "Bearer", "malformed Authorization header"],
  ["Bearer with two words", `Bearer ${API_KEY} extra`, "malformed Authorization header"],
  ["a wrong key", "Bearer wrong-key", "invalid API key"],
  ["a key prefix", `Bearer ${API_KEY.slice(0, -1)}`, "invalid API key"],
  ["a longer key", `Bearer ${API_KEY}4`, "invalid API key"],
];

describe("bearer auth on every /v2 route", () => {
  for (const route of ROUTES) {
    for (const [label, authorization, message] of BAD_HEADERS) {
      it(`${route.method} ${route.path} with ${label} is a 401 and changes nothing`, async () => {
        const templateBefore = sandbox.templateRecords("web");
        const options = route.body === undefined ? { authorization } : { authorization, body: route.body };
        const response = await call(sandbox, route.method, route.path, options);
        expect(response.status).toBe(401);
        expect(response.headers.get("content-type")).toBe("application/json;charset=utf-8");
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect(errorOf(response)).toEqual({
          code: "unauthorized",
          message: expect.stringContaining(message),
        });
        expect(response.text).not.toContain(API_KEY);
        expect(sandbox.templateRecords("web")).toEqual(templateBefore);
        expect(sandbox.domainStatus("shop.example")).toBe("quarantined");
      });
    }
  }

  it("accepts the scheme case-insensitively, as HTTP auth schemes are", async () => {
    const response = await call(sandbox, "GET", "/v2/contacts?per_page=1", {
      authorization: `bearer ${API_KEY}`,
    });
    expect(response.status).toBe(200);
  });

  it("checks auth before routing: an unknown /v2 path is a 404 only with a valid key", async () => {
    expect((await call(sandbox, "GET", "/v2/no-such-route")).status).toBe(404);
  });

  it("does not guard admin routes, and unknown top-level paths are a JSON 404", async () => {
    const admin = await call(sandbox, "GET", "/__sandbox/domains", { authorization: null });
    expect(admin.status).toBe(200);
    const other = await call(sandbox, "GET", "/v1/contacts", { authorization: null });
    expect(other.status).toBe(404);
    expect(errorOf(other).code).toBe("not_found");
  });

  it("rejects an empty or whitespace API key at start", async () => {
    await expect(startSandbox({ apiKey: "" })).rejects.toThrow(/apiKey/);
    await expect(startSandbox({ apiKey: "a b" })).rejects.toThrow(/apiKey/);
  });
});
