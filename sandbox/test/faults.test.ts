import { startSandbox } from "domainapi-sandbox";
import { describe, expect, it } from "vitest";
import { API_KEY, call, errorOf, recordsPath, useSandbox } from "./helpers";

const sandbox = useSandbox();

const RECORDS_PATTERN = "^/v2/dns/templates/[^/]+/records$";
const addTxt = (templateId = "web", content = "x") =>
  call(sandbox, "PATCH", recordsPath(templateId), { body: { add: [{ name: "@", type: "TXT", content }] } });
const contacts = () => call(sandbox, "GET", "/v2/contacts?per_page=1");

describe("respond", () => {
  it("answers with the status and Retry-After without applying the change, once by default", async () => {
    sandbox.addFault({ method: "PATCH", path: RECORDS_PATTERN, respond: { status: 503, retryAfter: "2" } });
    const faulted = await addTxt();
    expect(faulted.status).toBe(503);
    expect(faulted.headers.get("retry-after")).toBe("2");
    expect(errorOf(faulted).code).toBe("service_unavailable");
    expect(sandbox.templateRecords("web")).toEqual([]);
    expect(sandbox.requests.at(-1)).toMatchObject({ method: "PATCH", status: 503, fault: true });

    const next = await addTxt();
    expect(next.status).toBe(200);
    expect(sandbox.templateRecords("web")).toHaveLength(1);
    expect(sandbox.requests.at(-1)!.fault).toBeUndefined();
  });

  it("answers with a given body and content type", async () => {
    sandbox.addFault({
      respond: { status: 502, body: "<html>Bad gateway</html>", contentType: "text/html" },
    });
    const response = await contacts();
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("text/html");
    expect(response.text).toBe("<html>Bad gateway</html>");
  });

  it("answers 429 with Retry-After as an HTTP date", async () => {
    const date = new Date(Date.now() + 5000).toUTCString();
    sandbox.addFault({ method: "GET", respond: { status: 429, retryAfter: date } });
    const response = await contacts();
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe(date);
    expect(errorOf(response).code).toBe("rate_limited");
  });
});

describe("respondAfterApply", () => {
  it("applies the change, then answers with the given reply instead of the real one", async () => {
    sandbox.addFault({ method: "PATCH", respondAfterApply: { status: 200, body: "{not json" } });
    const response = await addTxt("web", "applied");
    expect(response.status).toBe(200);
    expect(response.text).toBe("{not json");
    expect(sandbox.templateRecords("web")!.map((r) => r.content)).toEqual(["applied"]);
    expect(sandbox.requests.at(-1)).toMatchObject({ status: 200, fault: true });
  });

  it("can turn a success into an error after the fact", async () => {
    sandbox.addFault({ method: "POST", respondAfterApply: { status: 500 } });
    const response = await call(sandbox, "POST", "/v2/domains/shop.example/restore");
    expect(response.status).toBe(500);
    expect(errorOf(response).code).toBe("internal_error");
    expect(sandbox.domainStatus("shop.example")).toBe("active");
  });
});

describe("drop", () => {
  it("before: destroys the connection without applying the change", async () => {
    sandbox.addFault({ method: "PATCH", path: RECORDS_PATTERN, drop: "before" });
    await expect(addTxt()).rejects.toThrow();
    expect(sandbox.templateRecords("web")).toEqual([]);
    expect(sandbox.requests.at(-1)).toMatchObject({
      method: "PATCH",
      status: 0,
      dropped: "before",
      fault: true,
    });
    expect(sandbox.requests.at(-1)!.body).toEqual({ add: [{ name: "@", type: "TXT", content: "x" }] });
  });

  it("after: applies the change, then destroys the connection", async () => {
    sandbox.addFault({ method: "PATCH", drop: "after" });
    await expect(addTxt("web", "landed")).rejects.toThrow();
    expect(sandbox.templateRecords("web")!.map((r) => r.content)).toEqual(["landed"]);
    expect(sandbox.requests.at(-1)).toMatchObject({ status: 200, dropped: "after", fault: true });
  });

  it("after on restore: the domain is restored though the client saw no answer", async () => {
    sandbox.addFault({ method: "POST", path: "^/v2/domains/", drop: "after" });
    await expect(call(sandbox, "POST", "/v2/domains/old.example/restore")).rejects.toThrow();
    expect(sandbox.domainStatus("old.example")).toBe("active");
    const again = await call(sandbox, "POST", "/v2/domains/old.example/restore");
    expect(again.status).toBe(409);
  });

  it("leaves the server healthy for the next request", async () => {
    sandbox.addFault({ drop: "before" });
    await expect(contacts()).rejects.toThrow();
    expect((await contacts()).status).toBe(200);
  });
});

describe("latency", () => {
  it("delays a request that is then handled normally", async () => {
    sandbox.addFault({ method: "GET", latencyMs: 600 });
    const started = performance.now();
    const response = await contacts();
    expect(performance.now() - started).toBeGreaterThanOrEqual(580);
    expect(response.status).toBe(200);
    expect(sandbox.requests.at(-1)).toMatchObject({ status: 200, fault: true });
    const quick = performance.now();
    await contacts();
    // Generous bound for a loaded machine: far below the fault's 600 ms.
    expect(performance.now() - quick).toBeLessThan(450);
  });

  it("combines with respond (delay, then the fault reply)", async () => {
    sandbox.addFault({ latencyMs: 200, respond: { status: 504 } });
    const started = performance.now();
    const response = await contacts();
    expect(performance.now() - started).toBeGreaterThanOrEqual(180);
    expect(response.status).toBe(504);
  });

  it("simulates a hang for client timeouts, and close() still returns promptly", async () => {
    const hanging = await startSandbox({ apiKey: API_KEY });
    hanging.addFault({ latencyMs: 600_000 });
    const timedOut = call(hanging, "GET", "/v2/contacts", { signal: AbortSignal.timeout(200) });
    await expect(timedOut).rejects.toThrow(/timeout|abort/i);
    hanging.addFault({ latencyMs: 600_000 });
    const pending = call(hanging, "PUT", recordsPath("web"), { body: { records: [] } });
    const settled = pending.then(
      () => "answered",
      () => "failed",
    );
    for (let i = 0; i < 100 && hanging.requests.length < 2; i += 1)
      await new Promise((r) => setTimeout(r, 10));
    expect(hanging.requests).toHaveLength(2);
    expect(hanging.requests[1]!.status).toBe(0);
    const started = performance.now();
    await hanging.close();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await settled).toBe("failed");
    expect(hanging.templateRecords("web")).toEqual([]);
  });

  it("adds the latencyMs option to every /v2 request but not to admin routes", async () => {
    const slow = await startSandbox({ apiKey: API_KEY, latencyMs: 500 });
    try {
      let started = performance.now();
      expect((await call(slow, "GET", "/v2/contacts?per_page=1")).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(480);
      started = performance.now();
      expect((await call(slow, "GET", "/__sandbox/domains")).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(400);
    } finally {
      await slow.close();
    }
  });
});

describe("which requests a rule hits", () => {
  async function statuses(count: number): Promise<number[]> {
    const result: number[] = [];
    for (let i = 0; i < count; i += 1) result.push((await contacts()).status);
    return result;
  }

  it("nth fires only on the nth matching request", async () => {
    sandbox.addFault({ nth: 3, respond: { status: 500 } });
    expect(await statuses(5)).toEqual([200, 200, 500, 200, 200]);
  });

  it("every fires on every nth matching request", async () => {
    sandbox.addFault({ every: 2, respond: { status: 503 } });
    expect(await statuses(6)).toEqual([200, 503, 200, 503, 200, 503]);
  });

  it("times caps the firings", async () => {
    sandbox.addFault({ times: 2, respond: { status: 503 } });
    expect(await statuses(4)).toEqual([503, 503, 200, 200]);
    sandbox.clearFaults();
    sandbox.addFault({ every: 2, times: 1, respond: { status: 503 } });
    expect(await statuses(4)).toEqual([200, 503, 200, 200]);
  });

  it("counts from when the rule was added", async () => {
    await statuses(2);
    sandbox.addFault({ nth: 2, respond: { status: 500 } });
    expect(await statuses(3)).toEqual([200, 500, 200]);
  });

  it("matches the method case-insensitively and the path as a regular expression", async () => {
    sandbox.addFault({
      method: "patch",
      path: "^/v2/dns/templates/web/records$",
      every: 1,
      respond: { status: 503 },
    });
    expect((await contacts()).status).toBe(200);
    expect((await call(sandbox, "PUT", recordsPath("web"), { body: { records: [] } })).status).toBe(200);
    expect((await addTxt("mail")).status).toBe(200);
    expect((await addTxt("web")).status).toBe(503);
    expect((await addTxt("web")).status).toBe(503);
  });

  it("counts only matching requests", async () => {
    sandbox.addFault({ method: "PATCH", nth: 2, respond: { status: 500 } });
    expect((await addTxt()).status).toBe(200);
    expect((await contacts()).status).toBe(200);
    expect((await contacts()).status).toBe(200);
    expect((await addTxt()).status).toBe(500);
  });

  it("applies only to /v2 routes, never to admin routes", async () => {
    sandbox.addFault({ every: 1, respond: { status: 500 } });
    expect((await call(sandbox, "GET", "/__sandbox/templates")).status).toBe(200);
    expect((await call(sandbox, "GET", "/__sandbox/templates")).status).toBe(200);
    expect((await contacts()).status).toBe(500);
  });

  it("applies before auth, like a gateway in front of the API", async () => {
    sandbox.addFault({ respond: { status: 503 } });
    expect((await call(sandbox, "GET", "/v2/contacts", { authorization: null })).status).toBe(503);
    expect((await call(sandbox, "GET", "/v2/contacts", { authorization: null })).status).toBe(401);
  });

  it("clearFaults and reset remove every rule", async () => {
    sandbox.addFault({ every: 1, respond: { status: 500 } });
    sandbox.clearFaults();
    expect((await contacts()).status).toBe(200);
    sandbox.addFault({ every: 1, respond: { status: 500 } });
    sandbox.reset();
    expect((await contacts()).status).toBe(200);
  });
});

describe("fault rules over the admin routes", () => {
  it("POST /__sandbox/faults adds a rule and DELETE clears them", async () => {
    const added = await call(sandbox, "POST", "/__sandbox/faults", {
      body: { method: "GET", every: 1, respond: { status: 503, retryAfter: "1" } },
      authorization: null,
    });
    expect(added.status).toBe(201);
    expect((await call(sandbox, "GET", "/__sandbox/faults")).json).toEqual({
      faults: [{ method: "GET", every: 1, respond: { status: 503, retryAfter: "1" } }],
    });
    expect((await contacts()).status).toBe(503);
    expect((await call(sandbox, "DELETE", "/__sandbox/faults")).status).toBe(204);
    expect((await contacts()).status).toBe(200);
  });

  it("rejects a malformed rule with a 400 naming the field", async () => {
    const cases: Array<[unknown, string]> = [
      [{ respond: { status: 99 } }, "respond.status"],
      [{ drop: "sometimes" }, "drop"],
      [{ path: "([", respond: { status: 500 } }, "path: must be a valid regular expression"],
      [{ nth: 0, respond: { status: 500 } }, "nth"],
      [{ nth: 1, every: 2, respond: { status: 500 } }, "every: cannot be combined with nth"],
      [{ drop: "before", respond: { status: 500 } }, "cannot be combined with respond"],
      [{ method: "GET" }, "a fault needs an effect"],
      [{ respond: { status: 500 }, colour: "red" }, "colour: unknown field"],
    ];
    for (const [rule, fragment] of cases) {
      const response = await call(sandbox, "POST", "/__sandbox/faults", { body: rule });
      expect(response.status, JSON.stringify(rule)).toBe(400);
      expect(errorOf(response).message).toContain(fragment);
    }
    expect((await call(sandbox, "GET", "/__sandbox/faults")).json).toEqual({ faults: [] });
    expect(() => sandbox.addFault({ drop: "before", respond: { status: 500 } })).toThrow(
      /cannot be combined/,
    );
  });
});
