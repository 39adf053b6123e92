/**
 * The record ids of an answer matched to what was sent (docs/design.md, "Record ids"), against the
 * sandbox with answers it is told to give: a PATCH whose ids cannot be matched one-to-one to its
 * adds leaves them of unknown outcome and says why; a PUT's wrong count fails loudly; a URL forward
 * added alone may name the ids of its A and AAAA. And what is refused before anything is sent.
 */
import { describe, expect, test } from "vitest";
import type { WireRecord } from "../../../provider/client/wire";
import { RequestBodyError } from "../../../provider/errors";
import { apiFailure, failure, useHarness } from "./helpers";

const WWW: WireRecord = { name: "www", type: "A", content: "192.0.2.10" };
const MX: WireRecord = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
const FORWARD: WireRecord = { name: "go", type: "URLFWD", content: "https://example.net/" };

const h = useHarness({ maxRetries: 0 });

const answerPatch = (body: string, status = 200) =>
  h.sandbox.addFault({ method: "PATCH", respondAfterApply: { status, body } });

describe("a PATCH's ids against its adds", () => {
  test("more ids than adds: unknown outcome, and the advice says the service may have made more records", async () => {
    answerPatch('{"record_id":["x","y"]}');
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW] }));
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain(
      "record_id: expected 1 record id(s), one per added record, got 2, which cannot be matched one-to-one to the added records",
    );
    expect(err.message).toContain(
      "The service may have created more records than were added (a URL forward brings an A and an AAAA record), so which id belongs to which record is unknown; the added records are of unknown outcome.",
    );
  });

  test("fewer ids than adds: unknown outcome, and the advice says which records exist is unknown", async () => {
    answerPatch('{"record_id":["x"]}');
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW, MX] }));
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("record_id: expected 2 record id(s), one per added record, got 1");
    expect(err.message).toContain(
      "Which of the added records exist now is unknown; the added records are of unknown outcome.",
    );
    expect(err.message).not.toContain("may have created more records");
  });

  test("as many ids as adds are the adds' ids, in order", async () => {
    answerPatch('{"record_id":["x",7]}');
    expect(await h.client.patchRecords("web", { add: [WWW, MX] })).toEqual(["x", "7"]);
  });

  test("a URL forward added alone may be answered with up to three ids (its A and AAAA); four are too many", async () => {
    for (const ids of [["f"], ["f", "a"], ["f", "a", "aaaa"]]) {
      answerPatch(JSON.stringify({ record_id: ids }));
      expect(await h.client.patchRecords("web", { add: [FORWARD] })).toEqual(ids);
      h.sandbox.clearFaults();
    }
    answerPatch('{"record_id":["1","2","3","4"]}');
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [FORWARD] }));
    expect(err.message).toContain("expected 1 record id(s), one per added record, got 4");
  });

  test("a forward beside another add counts one id per add, like any record", async () => {
    answerPatch('{"record_id":["1","2","3"]}');
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [FORWARD, WWW] }));
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("expected 2 record id(s), one per added record, got 3");
  });

  test("an answer with a body but no ids to an add: the add is of unknown outcome, naming what is missing", async () => {
    answerPatch("{}");
    const err = await apiFailure(() => h.client.patchRecords("web", { add: [WWW] }));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("unknown");
    expect(err.message).toContain("record_id");
  });

  test("an update or del answered 200 with ids: those ids are returned as the API sent them", async () => {
    const [id] = await h.client.putRecords("web", [WWW]);
    answerPatch('{"record_id":[]}');
    expect(await h.client.patchRecords("web", { del: [{ record_id: id! }] })).toEqual([]);
  });
});

describe("a PUT's ids against its records", () => {
  test("another count fails loudly: one id per submitted record", async () => {
    h.sandbox.addFault({ method: "PUT", respondAfterApply: { status: 200, body: '{"record_id":["a"]}' } });
    const err = await apiFailure(() => h.client.putRecords("web", [WWW, MX]));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("applied");
    expect(err.message).toContain("record_id: expected 2 record id(s), one per submitted record, got 1");
  });

  test("an empty answer: no ids at all", async () => {
    h.sandbox.addFault({ method: "PUT", respondAfterApply: { status: 200, body: "" } });
    const err = await apiFailure(() => h.client.putRecords("web", [WWW]));
    expect(err.message).toContain("record_id: expected 1 record id(s), got none");
  });
});

describe("refused before anything is sent", () => {
  test("a PATCH with no item in add, update or del", async () => {
    const err = await failure(() => h.client.patchRecords("web", {}));
    expect(err).toBeInstanceOf(RequestBodyError);
    expect((err as Error).message).toBe(
      'Empty record changes for template "web": at least one of add, update, del must hold an item',
    );
    expect(h.sandbox.requests).toEqual([]);
  });

  test("a PATCH or PUT whose record does not fit the wire, naming the template and the field", async () => {
    const badPatch = await failure(() =>
      h.client.patchRecords("web", { add: [{ ...WWW, priority: -1 }] as WireRecord[] }),
    );
    expect(badPatch).toBeInstanceOf(RequestBodyError);
    expect((badPatch as Error).message).toMatch(
      /^Invalid record changes for template "web": add\[0\]\.priority: /,
    );
    const badPut = await failure(() => h.client.putRecords("web", [{ ...WWW, name: "" }]));
    expect(badPut).toBeInstanceOf(RequestBodyError);
    expect((badPut as Error).message).toMatch(/^Invalid records for template "web": records\[0\]\.name: /);
    expect(h.sandbox.requests).toEqual([]);
  });
});

describe("a contacts page", () => {
  test("an empty 200 is an error naming what was expected", async () => {
    h.sandbox.addFault({ method: "GET", respond: { status: 200, body: "" } });
    const err = await apiFailure(() => h.client.listContacts(new URLSearchParams()));
    expect(err.kind).toBe("response");
    expect(err.outcome).toBe("not-applied");
    expect(err.message).toContain("the body is empty, expected data and pagination");
  });
});

describe("a restore", () => {
  test("is a POST of the domain's name, percent-encoded, never resent once it may have been sent", async () => {
    h.sandbox.addFault({ method: "POST", drop: "after" });
    const err = await apiFailure(() => h.client.restoreDomain("a b.example"));
    expect(err.outcome).toBe("unknown");
    expect(err.retryable).toBe(false);
    const posts = h.sandbox.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => r.path)).toEqual(["/v2/domains/a%20b.example/restore"]);
  });
});
