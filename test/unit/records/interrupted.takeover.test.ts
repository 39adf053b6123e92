/**
 * Which interrupted create a create without purge takes over (docs/behaviour.md, "Interrupted
 * runs": a create stopped part-way is taken over by the next create of the same records). The
 * program may have changed in between: an entry that proved any record declared now is taken over,
 * with all it proved, so that what it made and the program no longer declares is the resource's to
 * remove rather than left in the template with no owner; an entry that proved none of them, and
 * had none of them in flight, is another resource's.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  findInterruption,
  type JournalScope,
  openJournal,
  type RunJournal,
} from "../../../provider/records/interrupted";

type Request = Parameters<RunJournal["sending"]>[1];
type Held = Parameters<RunJournal["sending"]>[0]["held"][number];
type Declared = Extract<Request, { method: "PUT" }>["records"][number];

const saved = process.env.DOMAINAPI_STATE_DIR;
beforeEach(() => {
  process.env.DOMAINAPI_STATE_DIR = mkdtempSync(join(tmpdir(), "interrupted-takeover-"));
});
afterEach(() => {
  if (saved === undefined) delete process.env.DOMAINAPI_STATE_DIR;
  else process.env.DOMAINAPI_STATE_DIR = saved;
});

const account = { baseUrl: "https://api.example.com", keyFingerprint: "0123456789ab" };
const settings = { templateId: "web", purge: false, safetyThreshold: false as const };

const api: Declared = { name: "api", type: "A", content: "192.0.2.20", key: "api/A" };
const www: Declared = { name: "www", type: "CNAME", content: "example.net.", key: "www/CNAME" };
const mail: Declared = { name: "mail", type: "A", content: "192.0.2.25", key: "mail/A" };

/** The PATCH a create without purge sends for one record: one add, attributed by its answer. */
function adding(record: Declared): Request {
  const add = { name: record.name, type: record.type, content: record.content };
  return {
    method: "PATCH",
    corrections: [{ kind: "create", record, message: `+ CREATE ${record.name}`, add }],
    body: { add: [add] },
  } as Request;
}

/** A create of resource `resource` that sent `requests`, each answer proving the records before the next. */
function interruptedCreate(resource: string, proven: Held[][], requests: Request[]): void {
  const scope: JournalScope = { account, settings, resource, operation: "create", startIds: [] };
  const journal = openJournal(scope);
  requests.forEach((request, i) => {
    journal.sending({ held: proven[i] ?? [], untracked: [] }, request, "plan");
  });
}

it("a create that declares one of the records an interrupted create proved takes it over, with all it proved", () => {
  const apiHeld: Held = { ...api, recordId: "r5" };
  const wwwHeld: Held = { ...www, recordId: "r6" };
  // Proved api, then www; the add of mail was in flight when it stopped.
  interruptedCreate(
    "web/aaaa",
    [[], [apiHeld], [apiHeld, wwwHeld]],
    [adding(api), adding(www), adding(mail)],
  );
  // The program now declares www and something new, no longer api nor mail.
  const found = findInterruption(
    account,
    settings,
    undefined,
    undefined,
    ["www CNAME example.net.", "txt TXT hello"],
    true,
  );
  expect(found.files).toHaveLength(1);
  expect(found.interruption?.held).toEqual([apiHeld, wwwHeld]);
});

it("a create does not take over an interrupted create that proved none of its records and had no add in flight", () => {
  const apiHeld: Held = { ...api, recordId: "r5" };
  // Its last request in flight changed a record it held: no add.
  const update: Request = {
    method: "PATCH",
    corrections: [
      {
        kind: "update",
        from: apiHeld,
        to: { ...api, content: "192.0.2.21" },
        message: "~ MODIFY api A",
        update: { record_id: "r5", name: "api", content: "192.0.2.21" },
      },
    ],
    body: { update: [{ record_id: "r5", name: "api", content: "192.0.2.21" }] },
  } as Request;
  interruptedCreate("web/bbbb", [[], [apiHeld]], [adding(api), update]);
  expect(findInterruption(account, settings, undefined, undefined, ["www CNAME example.net."], true)).toEqual(
    {
      files: [],
    },
  );
  // The same entry is taken over by a create of its record: the test above is about whose it is.
  expect(
    findInterruption(account, settings, undefined, undefined, ["api A 192.0.2.20"], true).files,
  ).toHaveLength(1);
});
