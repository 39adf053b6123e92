/**
 * Interrupted runs (docs/behaviour.md, "Interrupted runs"), through the provider's own methods
 * against the sandbox, behind a proxy that holds the answer of a request the sandbox applied. A
 * run killed there leaves what the journal held at that moment and the engine's last completed
 * state: the test keeps a copy of the journal while the answer is held, lets the abandoned call end,
 * puts the copy back and runs the next operation from the state the engine had. Judged by the
 * sandbox's own view of the template and by the requests it received.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { API_KEY } from "../../../sandbox/test/helpers";
import { A, API, MX, useInterruptedRuns, WWW } from "./interruptedRuns";

type Props = Record<string, unknown>;

const {
  sandbox,
  said,
  proxy,
  journalFiles,
  checked,
  deployed,
  killed,
  template,
  lines,
  ids,
  sandboxIds,
  sent,
} = useInterruptedRuns("journal-test-");

/** Runs `operation` until the sandbox applied its `nth` `method` request, then as a `kill -9` (one entry held). */
const killedAfterApply = (method: string, operation: () => Promise<unknown>, nth = 1): Promise<void> =>
  killed(method, operation, nth, "applied", () => expect(journalFiles().length).toBe(1));

describe("the journal itself, around the requests", () => {
  it("holds the request while it is in flight, never the key, and is gone once the call has answered", async () => {
    const { outs, inputs } = await deployed("tpl-1", [A], true);
    const news = await checked({ templateId: "tpl-1", records: [A, WWW] }, inputs);
    const held = proxy().holdNext("PATCH");
    const call = records.update("tpl-1", outs, news);
    await held;
    const [file] = journalFiles();
    const text = readFileSync(file!, "utf8");
    expect(text).toContain('"sent":{"method":"PATCH","adds":["www CNAME example.net."]');
    expect(text).toContain(`"baseUrl":"${proxy().url}"`);
    expect(text).not.toContain(API_KEY);
    // Before the answer: the entry was on disk before the request reached the sandbox.
    proxy().drop();
    await call.catch(() => undefined);
    expect(journalFiles()).toEqual([]);
    const again = await records.update("tpl-1", outs, news).catch((e: unknown) => e);
    expect(again).toBeDefined();
    expect(journalFiles()).toEqual([]);
  });

  it("another live process sending for the same resource refuses the update, naming it; nothing is sent", async () => {
    const { outs, inputs } = await deployed("tpl-1", [A], true);
    const news = await checked({ templateId: "tpl-1", records: [A, WWW] }, inputs);
    await killedAfterApply("PATCH", () => records.update("tpl-1", outs, news));
    // The entry now names a process that is alive: this test's parent.
    const [file] = journalFiles();
    const [header, ...rest] = readFileSync(file!, "utf8").split("\n");
    const live = {
      ...JSON.parse(header!),
      owner: { pid: process.ppid, host: JSON.parse(header!).owner.host },
    };
    writeFileSync(file!, [JSON.stringify(live), ...rest].join("\n"));
    await expect(records.update("tpl-1", outs, news)).rejects.toThrow(
      new RegExp(
        `another process \\(pid ${process.ppid} .*is sending a PATCH adding www CNAME example\\.net\\.`,
      ),
    );
    expect(sent()).toEqual([]);
  });
});

describe("recovery from an unknown outcome, purge: true", () => {
  it("a PATCH that adds, applied and never answered: the next up says so first, then one PUT; the template is exact", async () => {
    const { outs, inputs } = await deployed("tpl-1", [A, MX], true);
    const news = await checked({ templateId: "tpl-1", records: [A, MX, WWW] }, inputs);
    await killedAfterApply("PATCH", () => records.update("tpl-1", outs, news));
    expect(template("tpl-1")).toEqual(lines([A, MX, WWW]));

    // The next `up`: the engine diffs and updates from the state it had.
    const diff = await records.diff("tpl-1", outs, news);
    expect(diff.changes).toBe(true);
    expect(said[0]).toMatch(
      /template tpl-1: outcome unknown: an earlier run on this machine was interrupted while sending a PATCH adding www CNAME example\.net\..*all 3 records rewritten with one PUT .*every record id is new/,
    );
    const result = await records.update("tpl-1", outs, news);
    expect(sent()).toEqual(["PUT"]);
    expect(template("tpl-1")).toEqual(lines([A, MX, WWW]));
    expect(ids(result.outs as Props)).toEqual(sandboxIds("tpl-1"));
    expect(journalFiles()).toEqual([]);
  });

  it("a create's PUT applied and never answered: the engine's next create is the same PUT, exact; no entry is kept", async () => {
    const inputs = await checked({ templateId: "tpl-2", records: [A, MX] });
    const held = proxy().holdNext("PUT");
    const call = records.create(inputs).catch(() => undefined);
    await held;
    expect(journalFiles()).toEqual([]);
    proxy().drop();
    await call;
    proxy().seen.length = 0;
    const created = await records.create(inputs);
    expect(sent()).toEqual(["PUT"]);
    expect(template("tpl-2")).toEqual(lines([A, MX]));
    expect(ids(created.outs as Props)).toEqual(sandboxIds("tpl-2"));
  });

  it("a destroy applied and never answered, then up: the template is written again (it was empty, the state claimed all)", async () => {
    const { id, outs, inputs } = await deployed("tpl-3", [A, MX, WWW], true);
    await killedAfterApply("PATCH", () => records.delete(id, outs));
    expect(template("tpl-3")).toEqual([]);
    const diff = await records.diff(id, outs, inputs);
    expect(diff.changes).toBe(true);
    const result = await records.update(id, outs, inputs);
    expect(sent()).toEqual(["PUT"]);
    expect(template("tpl-3")).toEqual(lines([A, MX, WWW]));
    expect(ids(result.outs as Props)).toEqual(sandboxIds("tpl-3"));
  });

  it("an entry that cannot be read is an unknown outcome: one PUT, and it says which file", async () => {
    const { outs, inputs } = await deployed("tpl-1", [A], true);
    const news = await checked({ templateId: "tpl-1", records: [A, WWW] }, inputs);
    await killedAfterApply("PATCH", () => records.update("tpl-1", outs, news));
    const [file] = journalFiles();
    writeFileSync(file!, "{not json\n");
    await records.diff("tpl-1", outs, news);
    expect(said[0]).toContain(`its entry ${file} is unreadable`);
    await records.update("tpl-1", outs, news);
    expect(sent()).toEqual(["PUT"]);
    expect(template("tpl-1")).toEqual(lines([A, WWW]));
  });

  it("under DOMAINAPI_EXPECT_PLAN the recovery is refused like any unreviewed plan; nothing is sent, the entry stays", async () => {
    const { outs, inputs } = await deployed("tpl-1", [A], true);
    const news = await checked({ templateId: "tpl-1", records: [A, WWW] }, inputs);
    await killedAfterApply("PATCH", () => records.update("tpl-1", outs, news));
    process.env.DOMAINAPI_EXPECT_PLAN = "tpl-1=0123456789abcdef0123456789abcdef";
    await expect(records.update("tpl-1", outs, news)).rejects.toThrow(
      /refusing to change template "tpl-1".*recovers from an interrupted run \(a PATCH adding www CNAME example\.net\./,
    );
    expect(sent()).toEqual([]);
    expect(journalFiles()).toHaveLength(1);
  });
});

describe("recovery from an unknown outcome, purge: false", () => {
  it("a PATCH that adds: the record that may be doubled is named, not added again, not claimed", async () => {
    const { id, outs, inputs } = await deployed("tpl-4", [A, MX], false);
    const news = await checked({ templateId: "tpl-4", records: [A, MX, WWW], purge: false }, inputs);
    // Without purge the first PATCH only verifies; the add is the second.
    await killedAfterApply("PATCH", () => records.update(id, outs, news), 2);
    await records.diff(id, outs, news);
    expect(said[0]).toMatch(
      /outcome unknown: .*a PATCH adding www CNAME example\.net\..*Whether the API applied the add of these records is unknown: www CNAME example\.net\..*once, or missing.*add one that is missing there by hand/,
    );
    const result = (await records.update(id, outs, news)).outs as Props;
    // Nothing to send: the record is not added again; the template holds it once, as the API applied it.
    expect(sent()).toEqual([]);
    expect(template("tpl-4")).toEqual(lines([A, MX, WWW]));
    expect(Object.keys(result.ids as object)).toHaveLength(2);
    expect(result.untrackedRecords).toEqual(["www CNAME example.net."]);
  });

  it("a destroy, then up: the records it removed are found by the verification and added again", async () => {
    const { id, outs, inputs } = await deployed("tpl-5", [A, MX, WWW], false);
    await killedAfterApply("PATCH", () => records.delete(id, outs));
    expect(await records.diff(id, outs, inputs)).toMatchObject({ changes: true });
    const result = (await records.update(id, outs, inputs)).outs as Props;
    expect(template("tpl-5")).toEqual(lines([A, MX, WWW]));
    expect(ids(result)).toEqual(sandboxIds("tpl-5"));
  });

  it("a create of three records stopped at its second add: the next create adds only the third", async () => {
    const inputs = await checked({ templateId: "web", records: [A, API, WWW], purge: false });
    await killedAfterApply("PATCH", () => records.create(inputs), 2);
    expect(template("web")).toEqual(lines([A, API]));
    // The engine never got the create: it calls create again.
    const created = (await records.create(inputs)).outs as Props;
    expect(sent()).toEqual(["PATCH"]);
    expect(said.join("\n")).toMatch(
      /Whether the API applied the add of these records is unknown: api A 192\.0\.2\.20/,
    );
    expect(template("web")).toEqual(lines([A, API, WWW]));
    expect(Object.keys(created.ids as object)).toHaveLength(2);
    expect(created.untrackedRecords).toEqual(["api A 192.0.2.20"]);
    expect(journalFiles()).toEqual([]);
  });
});

describe("without the journal: DOMAINAPI_REWRITE for one run", () => {
  it("rewrites a purge: true template with one PUT, removing a copy nothing tracked; leaves purge: false alone", async () => {
    const { outs, inputs } = await deployed("tpl-1", [A, MX], true);
    // What a lost runner leaves: a record applied that no state knows of.
    sandbox.seedTemplate("tpl-1", [A, MX, WWW]);
    proxy().seen.length = 0;
    process.env.DOMAINAPI_REWRITE = "tpl-1";
    const diff = await records.diff("tpl-1", outs, inputs);
    expect(diff.changes).toBe(true);
    const result = await records.update("tpl-1", outs, inputs);
    expect(sent()).toEqual(["PUT"]);
    expect(template("tpl-1")).toEqual(lines([A, MX]));
    expect(ids(result.outs as Props)).toEqual(sandboxIds("tpl-1"));
    const other = await deployed("mail", [A], false);
    proxy().seen.length = 0;
    expect((await records.diff(other.id, other.outs, other.inputs)).changes).toBe(false);
  });
});
