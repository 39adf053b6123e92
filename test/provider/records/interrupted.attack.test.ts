/**
 * Interrupted runs, attacked (docs/behaviour.md, "Interrupted runs"): the cases beyond the
 * implementation's own tests, judged by the sandbox's view of the template, the requests it
 * received, the journal's files and what a user reads.
 */
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as records from "../../../provider/records/provider";
import { PROVIDER } from "../helpers";
import { A, API, MX, useInterruptedRuns, WWW } from "./interruptedRuns";

type Props = Record<string, unknown>;

const h = useInterruptedRuns("journal-attack-");
const { sandbox, said, proxy, journalFiles, checked, killed, template, lines, ids, sandboxIds, sent } = h;
/** A created resource on a template made empty first. */
const deployed = (templateId: string, declared: Props[], purge: boolean) =>
  h.deployed(templateId, declared, purge, true);

const SECRET = "google-site-verification=s3cr3t-0ld";
const NEXT = "google-site-verification=s3cr3t-n3w";
const TOKEN = { name: "_verify", type: "TXT", content: SECRET };

describe("purge: false", () => {
  it("a PATCH that only deletes and modifies, applied and never answered: the template ends as declared, the state claims only what exists", async () => {
    const { id, outs, inputs } = await deployed("t-dm", [A, MX, WWW], false);
    const news = await checked(
      { templateId: "t-dm", records: [A, { ...MX, content: "mx2.example.net" }], purge: false },
      inputs,
    );
    await killed("PATCH", () => records.update(id, outs, news));
    expect(template("t-dm")).toEqual(lines([A, { ...MX, content: "mx2.example.net" }]));
    await records.diff(id, outs, news);
    const result = (await records.update(id, outs, news)).outs as Props;
    expect(template("t-dm")).toEqual(lines([A, { ...MX, content: "mx2.example.net" }]));
    expect(ids(result)).toEqual(sandboxIds("t-dm"));
    expect(said.join("\n")).not.toMatch(/exist twice/);
    expect(journalFiles()).toEqual([]);
  });

  it("an add lost before the API applied it: not claimed as doubled; the user is told it may be missing", async () => {
    const { id, outs, inputs } = await deployed("t-lost", [A], false);
    const news = await checked({ templateId: "t-lost", records: [A, WWW], purge: false }, inputs);
    await killed("PATCH", () => records.update(id, outs, news), 2, "unsent");
    expect(template("t-lost")).toEqual(lines([A]));
    await records.diff(id, outs, news);
    const warning = said.join("\n");
    // The record is there once or not at all: "exist twice ... delete the extra one" is untrue and
    // hides that it may be missing.
    expect(warning).not.toMatch(/exist twice/);
    expect(warning).toMatch(/www CNAME example\.net\..*(missing|not at all|once or not)/s);
    const result = (await records.update(id, outs, news)).outs as Props;
    expect(result.untrackedRecords).toEqual(["www CNAME example.net."]);
    // Every later preview still says so (docs/behaviour.md: "every `up` says so until it is no
    // longer declared"): the record may be missing while the program declares it.
    said.length = 0;
    const later = { ...result, __provider: PROVIDER };
    await records.diff(id, later, news);
    expect(said.join("\n")).toMatch(/www CNAME example\.net\..*unknown outcome/);
  });
});

describe("purge: true", () => {
  it("an add lost before the API applied it: one PUT, the template exact", async () => {
    const { outs, inputs } = await deployed("t-pl", [A], true);
    const news = await checked({ templateId: "t-pl", records: [A, WWW] }, inputs);
    await killed("PATCH", () => records.update("t-pl", outs, news), 1, "unsent");
    await records.diff("t-pl", outs, news);
    const result = await records.update("t-pl", outs, news);
    expect(sent()).toEqual(["PUT"]);
    expect(template("t-pl")).toEqual(lines([A, WWW]));
    expect(ids(result.outs as Props)).toEqual(sandboxIds("t-pl"));
  });

  it("an update's PUT (after an add of unknown outcome) applied and never answered: one PUT next, exact", async () => {
    const { outs, inputs } = await deployed("t-put", [A, MX], true);
    const withUnknown = { ...outs, untrackedRecords: ["www CNAME example.net."] };
    const news = await checked({ templateId: "t-put", records: [A, MX, API] }, inputs);
    await killed("PUT", () => records.update("t-put", withUnknown, news));
    expect(template("t-put")).toEqual(lines([A, MX, API]));
    await records.diff("t-put", withUnknown, news);
    expect(said[0]).toMatch(/outcome unknown: .*a PUT of 3 record/);
    const result = await records.update("t-put", withUnknown, news);
    expect(sent()).toEqual(["PUT"]);
    expect(template("t-put")).toEqual(lines([A, MX, API]));
    expect(ids(result.outs as Props)).toEqual(sandboxIds("t-put"));
    expect(journalFiles()).toEqual([]);
  });

  it("two interruptions in a row (the recovery's PUT interrupted too): the third run is exact", async () => {
    const { outs, inputs } = await deployed("t-2x", [A], true);
    const news = await checked({ templateId: "t-2x", records: [A, WWW] }, inputs);
    await killed("PATCH", () => records.update("t-2x", outs, news));
    await killed("PUT", () => records.update("t-2x", outs, news));
    await records.diff("t-2x", outs, news);
    expect(said[0]).toMatch(/outcome unknown: .*a PUT of 2 record/);
    const result = await records.update("t-2x", outs, news);
    expect(sent()).toEqual(["PUT"]);
    expect(template("t-2x")).toEqual(lines([A, WWW]));
    expect(ids(result.outs as Props)).toEqual(sandboxIds("t-2x"));
    expect(journalFiles()).toEqual([]);
  });

  it("a resource removed from the program after its update was interrupted: the destroy empties the template", async () => {
    const { outs, inputs } = await deployed("t-gone", [A], true);
    const news = await checked({ templateId: "t-gone", records: [A, WWW] }, inputs);
    await killed("PATCH", () => records.update("t-gone", outs, news));
    await records.delete("t-gone", outs);
    expect(template("t-gone")).toEqual([]);
    expect(journalFiles()).toEqual([]);
  });
});

describe("two purge: false resources, two interruptions", () => {
  it("purge: false, recovery interrupted too: the record of unknown outcome stays unknown, never added twice", async () => {
    const { id, outs, inputs } = await deployed("t-f2", [A], false);
    const news = await checked({ templateId: "t-f2", records: [A, WWW], purge: false }, inputs);
    await killed("PATCH", () => records.update(id, outs, news), 2);
    const more = await checked({ templateId: "t-f2", records: [A, WWW, API], purge: false }, inputs);
    // The recovery's own add (api) is interrupted too.
    await killed("PATCH", () => records.update(id, outs, more), 2);
    const result = (await records.update(id, outs, more)).outs as Props;
    expect(template("t-f2")).toEqual(lines([A, WWW, API]));
    expect(ids(result)).toEqual(
      sandboxIds("t-f2").filter(
        (i) => !(sandbox.templateRecords("t-f2") ?? []).some((r) => r.record_id === i && r.name !== "@"),
      ),
    );
    expect([...(result.untrackedRecords as string[])].sort()).toEqual([
      "api A 192.0.2.20",
      "www CNAME example.net.",
    ]);
  });
});

describe("the journal's directory cannot be written", () => {
  it("an update fails before sending, naming the directory and the fix; the preview does not invent an interruption", async () => {
    const { outs, inputs } = await deployed("t-ro", [A], true);
    const news = await checked({ templateId: "t-ro", records: [A, WWW] }, inputs);
    // Root ignores permission bits: a state directory that is a file cannot be written by anyone.
    const file = join(mkdtempSync(join(tmpdir(), "journal-file-")), "not-a-dir");
    writeFileSync(file, "");
    process.env.DOMAINAPI_STATE_DIR = file;
    proxy().seen.length = 0;
    said.length = 0;
    await records.diff("t-ro", outs, news);
    expect(said.join("\n")).not.toMatch(/outcome unknown/);
    const error = await records.update("t-ro", outs, news).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(file);
    expect(error?.message).toMatch(/DOMAINAPI_STATE_DIR/);
    expect(error?.message).toMatch(/nothing was sent/i);
    expect(sent()).toEqual([]);
  });
});

describe("DOMAINAPI_REWRITE", () => {
  it("naming a template no resource has is said, not silently ignored", async () => {
    const { outs, inputs } = await deployed("web", [A], true);
    process.env.DOMAINAPI_REWRITE = "wbe";
    said.length = 0;
    await records.diff("web", outs, inputs);
    expect(said.join("\n")).toMatch(/DOMAINAPI_REWRITE.*wbe/);
  });
});

describe("secrets in the journal", () => {
  it("entries are 0600 on creation and when replaced, in a 0700 directory", async () => {
    const { outs, inputs } = await deployed("t-mode", [A], true);
    const news = await checked({ templateId: "t-mode", records: [A, WWW] }, inputs);
    const mode = (f: string) => statSync(f).mode & 0o777;
    let held = proxy().holdNext("PATCH");
    let call = records.update("t-mode", outs, news).catch(() => undefined);
    await held;
    const [file] = journalFiles();
    expect([mode(file!), mode(join(file!, ".."))]).toEqual([0o600, 0o700]);
    proxy().drop();
    await call;
    // An entry left behind (a run killed), made readable by someone, is replaced whole: 0600 again.
    await killed("PATCH", () => records.update("t-mode", outs, news));
    chmodSync(journalFiles()[0]!, 0o644);
    held = proxy().holdNext("PUT");
    call = records.update("t-mode", outs, news).catch(() => undefined);
    await held;
    expect(mode(journalFiles()[0]!)).toBe(0o600);
    proxy().drop();
    await call;
  });

  it("a secret value of an interrupted add never reaches a log line, even once the program changed it", async () => {
    const { id, outs, inputs } = await deployed("t-sec", [A], false);
    const news = await checked(
      { templateId: "t-sec", records: [A, TOKEN], purge: false, secretRecords: ["1:content"] },
      inputs,
    );
    await killed("PATCH", () => records.update(id, outs, news), 2);
    expect(readFileSync(journalFiles()[0]!, "utf8")).toContain(SECRET);
    const rotated = await checked(
      {
        templateId: "t-sec",
        records: [A, { ...TOKEN, content: NEXT }],
        purge: false,
        secretRecords: ["1:content"],
      },
      inputs,
    );
    await records.diff(id, outs, rotated);
    await records.update(id, outs, rotated);
    const all = said.join("\n");
    expect(all).toMatch(/outcome unknown/);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain("s3cr3t");
  });

  it("purge: true: the interrupted add's secret is masked after the program changed it", async () => {
    const { outs, inputs } = await deployed("t-sec2", [A], true);
    const news = await checked(
      { templateId: "t-sec2", records: [A, TOKEN], secretRecords: ["1:content"] },
      inputs,
    );
    await killed("PATCH", () => records.update("t-sec2", outs, news));
    const rotated = await checked(
      { templateId: "t-sec2", records: [A, { ...TOKEN, content: NEXT }], secretRecords: ["1:content"] },
      inputs,
    );
    await records.diff("t-sec2", outs, rotated);
    await records.update("t-sec2", outs, rotated);
    const all = said.join("\n");
    expect(all).toMatch(/outcome unknown/);
    expect(all).not.toContain("s3cr3t");
  });
});

describe("another live run on the resource", () => {
  it("the refusal names the request without the secret values it adds", async () => {
    const { outs, inputs } = await deployed("t-live", [A], true);
    const news = await checked(
      { templateId: "t-live", records: [A, TOKEN], secretRecords: ["1:content"] },
      inputs,
    );
    await killed("PATCH", () => records.update("t-live", outs, news));
    const [file] = journalFiles();
    const [header, ...rest] = readFileSync(file!, "utf8").split("\n");
    const parsed = JSON.parse(header!);
    // The entry now names a process that is alive: this test's parent.
    writeFileSync(
      file!,
      [JSON.stringify({ ...parsed, owner: { pid: process.ppid, host: parsed.owner.host } }), ...rest].join(
        "\n",
      ),
    );
    const error = await records.update("t-live", outs, news).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/another process \(pid \d+ .*a PATCH adding _verify TXT \[secret\]/);
    expect(error?.message).not.toContain("s3cr3t");
    expect(sent()).toEqual([]);
  });
});
