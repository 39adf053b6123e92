/**
 * What the next operation after an interrupted `up` tells its user first, and which entry a create
 * takes over (docs/behaviour.md, "Interrupted runs"): several records of unknown outcome named
 * apart, the verification said when the first request carries it, an entry whose records the
 * create does not declare left alone, and a step edited by hand read as far as it goes.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { entryFile } from "../../../provider/host/journal";
import { keyFingerprint } from "../../../provider/host/machineFiles";
import { createCorrection, requestOf } from "../../../provider/records/corrections";
import { findInterruption, interruptionWarning, openJournal } from "../../../provider/records/interrupted";
import {
  type HeldRecord,
  type Holding,
  type Interruption,
  type KeyedRecord,
  planResource,
  type Settings,
} from "../../../provider/records/plan";
import { encodeOutputs } from "../../../provider/records/state";

const saved = process.env.DOMAINAPI_STATE_DIR;
beforeEach(() => {
  process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), "interrupted-warnings-"));
});
afterEach(() => {
  if (saved === undefined) delete process.env.DOMAINAPI_STATE_DIR;
  else process.env.DOMAINAPI_STATE_DIR = saved;
});

const account = { baseUrl: "https://api.example.com", keyFingerprint: keyFingerprint("secret-key") };
const NO_PURGE: Settings = { templateId: "web", purge: false, safetyThreshold: false };

const a: HeldRecord = { name: "@", type: "A", content: "192.0.2.10", recordId: "r1", key: "@/A" };
const mx: HeldRecord = {
  name: "@",
  type: "MX",
  content: "mx1.example.net",
  priority: 10,
  recordId: "r2",
  key: "@/MX",
};
const www: KeyedRecord = { name: "www", type: "CNAME", content: "example.net.", key: "www/CNAME" };
const api: KeyedRecord = { name: "api", type: "A", content: "192.0.2.20", key: "api/A" };

const journaled: Interruption = {
  source: "journal",
  request:
    "a PATCH adding www CNAME example.net., adding api A 192.0.2.20 (update, 2026-01-01T00:00:00.000Z)",
  held: [a, mx],
  unknownAdds: ["www CNAME example.net.", "api A 192.0.2.20"],
  namedHeld: true,
};

describe("interruptionWarning without purge", () => {
  const holding: Holding = { settings: NO_PURGE, held: [a, mx], untracked: [] };

  it("names each record of unknown outcome apart, and the verification the first request carries", () => {
    const changed: KeyedRecord = { ...mx, content: "mx2.example.net" };
    const plan = planResource(holding, { settings: NO_PURGE, declared: [a, changed, www, api] }, journaled);
    const [first] = plan.requests;
    // The first request verifies the held record it keeps and changes the other.
    expect(first?.method === "PATCH" && first.corrections.map((c) => c.kind).sort()).toEqual([
      "update",
      "verify",
    ]);
    expect(interruptionWarning(plan, journaled, false)).toBe(
      "template web: outcome unknown: an earlier run on this machine was interrupted while sending a PATCH adding " +
        "www CNAME example.net., adding api A 192.0.2.20 (update, 2026-01-01T00:00:00.000Z). Whether the API applied " +
        "the add of these records is unknown: www CNAME example.net.; api A 192.0.2.20. Each is now in the template " +
        "once, or missing: the resource does not add them again (a second copy could never be found, as the API " +
        "cannot list a template's records) and its state does not claim them (they stay listed as of unknown " +
        "outcome). Check them in the registrar's panel and add one that is missing there by hand. Recovering: " +
        `${plan.text} (the first request verifies every record the state holds).`,
    );
  });
});

describe("a create without purge", () => {
  const scope = (resource: string) => ({
    account,
    settings: NO_PURGE,
    resource,
    operation: "create" as const,
    startIds: [],
  });
  /** Journals what an answer proved, as the run loop does, leaving no request in flight. */
  const answered = (file: string, step: Record<string, unknown>) =>
    writeFileSync(file, `${readFileSync(file, "utf8")}${JSON.stringify({ learnt: step })}\n`);

  it("leaves alone an entry whose last answer came back when it declares none of its records", () => {
    openJournal(scope("web/eeee")).sending(
      { held: [], untracked: [] },
      requestOf([createCorrection(api)]),
      "plan",
    );
    const { records, ids } = encodeOutputs(NO_PURGE, [{ ...api, recordId: "r5" }], "");
    answered(entryFile(account.baseUrl, "web", "web/eeee"), { records, ids, removed: [], untracked: [] });
    expect(
      findInterruption(account, NO_PURGE, undefined, undefined, ["www CNAME example.net."], true),
    ).toEqual({
      files: [],
    });
  });

  it("reads a step edited by hand as far as it goes: a removal that names no ids removes nothing", () => {
    openJournal(scope("web/ffff")).sending(
      { held: [], untracked: [] },
      requestOf([createCorrection(api)]),
      "plan",
    );
    const file = entryFile(account.baseUrl, "web", "web/ffff");
    const { records, ids } = encodeOutputs(NO_PURGE, [{ ...api, recordId: "r5" }], "");
    answered(file, { records, ids, removed: [], untracked: [] });
    answered(file, { records: {}, ids: {}, removed: 5, untracked: [] });
    const found = findInterruption(account, NO_PURGE, undefined, undefined, ["api A 192.0.2.20"], true);
    expect(found.files).toEqual([file]);
    expect(found.interruption?.held).toEqual([{ ...api, recordId: "r5" }]);
  });
});
