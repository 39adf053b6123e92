/**
 * The intent journal (docs/behaviour.md, "Interrupted runs"). Pulumi keeps a pending operation in
 * its checkpoint but hands the provider nothing of it: the next run calls Diff/Update with the last
 * completed state. The API has no read of a template's records either. So, before a request whose
 * outcome the state depends on, the run loop writes here what it is about to send and what it has
 * proven so far, and removes the entry once the provider has answered the engine. An entry found by
 * a later operation means: that request's outcome is unknown.
 *
 * One directory per account and template under the user's cache directory (machineFiles.ts), one
 * file per resource in it, written whole (temporary file, fsync, rename, fsync of the directory), so
 * a reader sees the old entry or the new one, never half of one. An entry never holds the API key:
 * the account is its base address and a fingerprint of the key.
 *
 * Knows files and processes; nothing of HTTP, Pulumi's protocol or the record model (the records
 * proven held are an opaque snapshot that the records' codec writes and reads).
 */
import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { DomainApiBaseError } from "../errors";
import { accountTemplateFile, machineDir, STATE_DIR_ENV } from "./machineFiles";

/** The account a journal entry is about: never the key itself. */
export interface JournalAccount {
  /** The normalised base address. */
  baseUrl: string;
  /** `keyFingerprint(apiKey)` (machineFiles.ts). */
  keyFingerprint: string;
}

const RequestSchema = z.strictObject({
  method: z.enum(["PUT", "PATCH"]),
  /** The records it adds, as they read in messages (`www A 192.0.2.1`). */
  adds: z.array(z.string()),
  /** The ids it deletes. */
  deletes: z.array(z.string()),
  /** The ids it updates in place. */
  updates: z.array(z.string()),
});

/** A request the journal says was sent (or about to be) when the run stopped. */
export type JournalRequest = z.infer<typeof RequestSchema>;

const OwnerSchema = z.strictObject({
  pid: z.number().int().positive(),
  /** The process's start time as the kernel counts it (Linux), so a reused pid is told apart. */
  started: z.string().optional(),
  host: z.string(),
});

/** The process that wrote an entry. */
export type JournalOwner = z.infer<typeof OwnerSchema>;

const HeaderSchema = z.strictObject({
  version: z.literal(1),
  account: z.strictObject({ baseUrl: z.string(), keyFingerprint: z.string() }),
  templateId: z.string(),
  /** The resource within the template (its id; the template id itself with purge). */
  resource: z.string(),
  operation: z.enum(["create", "update", "delete"]),
  purge: z.boolean(),
  owner: OwnerSchema,
  writtenAt: z.string(),
  /** The plan being carried out, as people read it. */
  plan: z.string(),
  /** The record ids the resource held when the operation started (what the engine's state says). */
  startIds: z.array(z.string()),
  /**
   * The values the program marked secret when the entry was written (the records' masking), so
   * that the run that reads the entry masks them even after the program has changed them.
   */
  secrets: z.strictObject({ texts: z.array(z.string()), numbers: z.array(z.number()) }).optional(),
});

/** What an entry says of the operation: its first line. */
export type JournalHeader = z.infer<typeof HeaderSchema>;

const StepSchema = z.union([
  /** A request about to be sent (written and flushed to disk before it is). */
  z.strictObject({ sent: RequestSchema }),
  /** What its answer proved: the records' codec's change to the held records (opaque here). */
  z.strictObject({ learnt: z.record(z.string(), z.unknown()) }),
]);

/** One line after the first: a request sent, or what its answer proved. */
export type JournalStep = z.infer<typeof StepSchema>;

/** One journal entry: what one resource's operation was doing, step by step. */
export interface JournalEntry extends JournalHeader {
  steps: JournalStep[];
  /** The request sent last whose answer was not recorded: its outcome is unknown. */
  inFlight?: JournalRequest;
}

/** What reading an entry found. */
export type Found =
  | { kind: "entry"; file: string; entry: JournalEntry }
  /** A file that is not an entry (edited, another version): its request is unknown. */
  | { kind: "corrupt"; file: string; reason: string };

/** The errors that mean a file is not there (ENOTDIR: a part of its path is a file). */
const NO_FILE = ["ENOENT", "ENOTDIR"];

/** The directory of one account's template: every resource's entry on it is a file in there. */
export function templateDir(baseUrl: string, templateId: string): string {
  return join(machineDir("journal"), accountTemplateFile(baseUrl, templateId).replace(/\.json$/, ""));
}

/** The file of one resource's entry (a hash of its key: resource ids may hold any character). */
export function entryFile(baseUrl: string, templateId: string, resource: string): string {
  const name = createHash("sha256").update(resource).digest("hex").slice(0, 16);
  return join(templateDir(baseUrl, templateId), `${name}.json`);
}

/** The start time of process `pid` as the kernel counts it, where it can be read (Linux). */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime); the command name (field 2) may hold spaces, so count after its `)`.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    // Stryker disable next-line BlockStatement: an empty catch returns undefined as well
  } catch {
    return undefined;
  }
}

/** This process, as an entry names its writer. */
export function currentOwner(): JournalOwner {
  const started = startTimeOf(process.pid);
  // Stryker disable next-line ConditionalExpression: a `started: undefined` key is dropped by JSON and ignored by the schema; on Linux it is never undefined
  return { pid: process.pid, ...(started === undefined ? {} : { started }), host: hostname() };
}

/**
 * Whether `owner` is another process that is still running on this machine, so that its entry is
 * a request in flight now rather than one left by an interrupted run. An entry of this very
 * process, of another machine (a restored CI cache) or of a process gone is not live. A pid reused
 * by a newer process is told apart by its start time where the kernel shows it (Linux); elsewhere
 * a reused pid reads as live (the safe side: the operation is refused, not recovered twice).
 */
export function ownerIsLive(owner: JournalOwner): boolean {
  if (owner.pid === process.pid || owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (owner.started === undefined) return true;
  const started = startTimeOf(owner.pid);
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: on Linux /proc shows the start of every running process; the branch is for systems without it
  if (started === undefined) return true;
  return started === owner.started;
}

// Stryker disable BlockStatement,StringLiteral: a flush shows only after a crash of the machine; every read sees the page cache either way
function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some systems (Windows) cannot open a directory; the rename is still atomic there.
  }
}
// Stryker restore BlockStatement,StringLiteral

/** Thrown when the journal cannot be written: the request it was to record was not sent. */
export class JournalUnwritableError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.JournalUnwritableError");

  constructor(dir: string, cause: Error) {
    // Only the file system and the entry's schema throw here: both throw Errors.
    super(
      `cannot write the intent journal in ${dir} (${(cause as Error).message}), so nothing was sent: a request sent unrecorded could ` +
        `not be recovered if this run were interrupted. Make that directory writable, or set ${STATE_DIR_ENV} to a ` +
        `writable directory (docs/behaviour.md, "Interrupted runs").`,
      "DOMAINAPI_JOURNAL_UNWRITABLE",
    );
  }
}

/**
 * Starts the entry of one operation: its first line and first steps, flushed to disk before this
 * returns. A new entry is created in place (`wx`: a crash of the machine while it is written can only
 * cut it, and a cut entry reads as corrupt: an unknown outcome, the safe side; the request is not sent
 * before this returns); an older entry of the resource is replaced whole (a temporary file, flushed,
 * renamed over it, the directory flushed), so that a crash leaves the old entry or the new one.
 *
 * @returns the file written
 * @throws JournalUnwritableError naming the directory and the fix; nothing may be sent then
 */
export function startEntry(header: JournalHeader, steps: readonly JournalStep[] = []): string {
  const dir = templateDir(header.account.baseUrl, header.templateId);
  try {
    return writeEntry(header, steps, dir);
  } catch (err) {
    throw new JournalUnwritableError(dir, err as Error);
  }
}

function writeEntry(header: JournalHeader, steps: readonly JournalStep[], dir: string): string {
  const file = entryFile(header.account.baseUrl, header.templateId, header.resource);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lines = [HeaderSchema.parse(header), ...steps.map((step) => StepSchema.parse(step))];
  const text = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  try {
    writeFlushed(file, "wx", text);
    return file;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  writeFlushed(temp, "w", text);
  renameSync(temp, file);
  fsyncDir(dir);
  return file;
}

function writeFlushed(file: string, flags: "w" | "wx", text: string): void {
  const fd = openSync(file, flags, 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends one step to an entry. A request (`sent`) is flushed to disk before this returns, so it
 * is there before the request leaves; what an answer proved (`learnt`) is not waited for: lost in a
 * crash, the request reads as in flight, the safe side. Appending keeps each step's cost to its own
 * size (a create of 1,000 records without purge is 1,000 requests).
 *
 * @throws JournalUnwritableError naming the directory and the fix; nothing may be sent then
 */
export function appendStep(file: string, step: JournalStep): void {
  try {
    const fd = openSync(file, "a", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(step)}\n`);
      // Stryker disable next-line ConditionalExpression: a flush shows only after a crash of the machine; every read sees the page cache either way
      if ("sent" in step) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new JournalUnwritableError(join(file, ".."), err as Error);
  }
}

/**
 * Removes an entry (or any file of the journal); one already gone is fine. Not flushed: a removal
 * lost in a crash of the machine only makes the next run recover once more than it needs to.
 */
export function removeEntry(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    // ENOTDIR: a state directory that is a file holds no entry.
    if (!NO_FILE.includes((err as NodeJS.ErrnoException).code as string)) throw err;
  }
  try {
    // The template's directory goes with its last entry: a machine that served many templates
    // keeps no trace of those whose runs ended.
    rmdirSync(join(file, ".."));
  } catch {
    // Not empty (another resource's entry), or already gone.
  }
}

/** Line `n` (from 1) of an entry read against `schema`, or why it does not read, as people read it. */
function lineOf<T>(schema: z.ZodType<T>, line: string, n: number): { value: T } | { reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { reason: `line ${n}: ${(err as Error).message}` };
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return { value: parsed.data };
  // A failed parse has at least one issue; the first names the field when there is one.
  const [issue] = parsed.error.issues as [z.core.$ZodIssue];
  const field = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return { reason: `line ${n}: ${field}${issue.message}` };
}

/**
 * Reads one file of the journal. A last line cut short is a step that was being written when the
 * run stopped: a request is flushed before it is sent, so a cut one was never sent, and a cut answer
 * leaves its request in flight. Any other line that does not read makes the whole entry corrupt,
 * naming the line and why.
 */
export function readEntry(file: string): Found | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    // ENOTDIR: a part of the path is a file, so no entry was ever written there.
    if (NO_FILE.includes((err as NodeJS.ErrnoException).code as string)) return undefined;
    return { kind: "corrupt", file, reason: (err as Error).message };
  }
  // The piece after the last newline is empty, or a line cut short: dropped either way.
  const lines = text.split("\n").slice(0, -1);
  const header = lineOf(HeaderSchema, lines[0] ?? "", 1);
  if ("reason" in header) return { kind: "corrupt", file, reason: header.reason };
  const steps: JournalStep[] = [];
  for (const [i, line] of lines.slice(1).entries()) {
    const step = lineOf(StepSchema, line, i + 2);
    if ("reason" in step) return { kind: "corrupt", file, reason: step.reason };
    steps.push(step.value);
  }
  const last = steps.at(-1);
  const inFlight = last !== undefined && "sent" in last ? { inFlight: last.sent } : {};
  return { kind: "entry", file, entry: { ...header.value, steps, ...inFlight } };
}

/** Every entry on one account's template (temporary files left by a crash are not entries). */
export function entriesOf(baseUrl: string, templateId: string): Found[] {
  const dir = templateDir(baseUrl, templateId);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json"))
    .sort()
    .flatMap((n) => readEntry(join(dir, n)) ?? []);
}
