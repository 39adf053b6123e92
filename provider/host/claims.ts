/**
 * Claims of templates that the provider processes of one deployment share through the machine.
 * The engine runs one plugin process per provider instance, so two explicit providers on one
 * account (or an explicit one and the default one) cannot see each other's resources in memory;
 * each process writes, at the Check of a resource, one file per resource under
 * `machineDir("claims")/<account and template>/`, and reads the others' there.
 *
 * A claim is live while the process that wrote it and the engine that started that process run
 * (their ids and, where the system says it, their start times: a reused id is not the same
 * process); a claim of a process that is gone is stale, and removed when seen. Only the live claims
 * of the same stack and project (the URN's) are returned: another stack's run, or a run on another
 * machine, cannot be seen here (docs/behaviour.md says so).
 *
 * The files hold no key and no record: the resource's URN, its provider's name, `purge`, the
 * account's base address and the process ids.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import * as log from "../log";
import { accountTemplateFile, machineDir } from "./machineFiles";

/** What one resource claims on this machine. */
export interface MachineClaim {
  /** The resource's URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
  readonly urn: string;
  /** The account: the base address as the settings normalise it. */
  readonly account: string;
  readonly templateId: string;
  readonly purge: boolean;
  /** The provider the resource uses, as messages name it (`"live"`, `the default provider`). */
  readonly provider: string;
}

/** A claim as its file holds it. */
interface ClaimFile extends MachineClaim {
  readonly stack: string;
  readonly project: string;
  readonly pid: number;
  readonly started?: string;
  readonly engine: { readonly pid: number; readonly started?: string };
}

/**
 * The claim file of each resource this process has claimed, by URN, so that a resource that claims
 * another template gives up the old one.
 *
 * Bound: the resources of the one deployment this plugin process serves (the engine starts a
 * process per provider and deployment); a URN that claims again replaces its entry.
 */
const mine = new Map<string, string>();

/** `urn:pulumi:dev::proj::…` -> `{ stack: "dev", project: "proj" }`. */
function stackOf(urn: string): { stack: string; project: string } {
  // split gives at least one part: only the project may be missing.
  const [head, project = ""] = urn.split("::") as [string, ...string[]];
  return { stack: head.slice(head.lastIndexOf(":") + 1), project };
}

/**
 * When process `pid` started, as the system counts it (Linux: clock ticks since boot, from
 * /proc), or undefined where the system does not say.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name (field 2) may hold spaces and parentheses: count from after its last ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    // Stryker disable next-line BlockStatement: an empty catch falls off the end, which returns undefined too
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs and is the one that started at `started` (when that was known). */
export function isRunning(pid: number, started: string | undefined): boolean {
  // 0 and negative ids name groups of processes; any id that is no integer, kill refuses.
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  if (started === undefined) return true;
  const now = processStart(pid);
  // Stryker disable next-line ConditionalExpression: on Linux /proc shows the start of every running process; the branch is for systems without it
  if (now === undefined) return true;
  return now === started;
}

let selfCache: Pick<ClaimFile, "pid" | "started" | "engine"> | undefined;

/** This process and its engine, as a claim names them (read once: neither changes). */
function self(): Pick<ClaimFile, "pid" | "started" | "engine"> {
  selfCache ??= {
    pid: process.pid,
    ...optional("started", processStart(process.pid)),
    engine: { pid: process.ppid, ...optional("started", processStart(process.ppid)) },
  };
  return selfCache;
}

function dirOf(account: string, templateId: string): string {
  return join(machineDir("claims"), accountTemplateFile(account, templateId).replace(/\.json$/, ""));
}

function fileOf(urn: string): string {
  return `${process.pid}-${createHash("sha256").update(urn).digest("hex").slice(0, 16)}.json`;
}

function readClaim(path: string): ClaimFile | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path, "utf8")) as Partial<ClaimFile>;
    if (typeof value.urn !== "string" || typeof value.pid !== "number" || typeof value.engine !== "object")
      return undefined;
    return value as ClaimFile;
    // Stryker disable next-line BlockStatement: an empty catch falls off the end, which returns undefined too
  } catch {
    return undefined;
  }
}

function removeQuietly(path: string): void {
  try {
    fs.rmSync(path);
  } catch {
    // Gone already (another process removed it), or not removable: a stale claim is skipped either way.
  }
}

/**
 * Writes `claim` for this process and returns the live claims of other resources of the same
 * stack and project on the same account and template, written by other processes (this process's
 * own resources are compared in memory). Written before it reads, so of two processes that claim
 * at once, at least one sees the other. Never throws: a machine whose cache cannot be written is
 * told in the debug log and compared in memory only.
 *
 * @example
 * const others = claimOnMachine({ urn, account: "https://api.example.com", templateId: "web", purge: true, provider: '"live"' });
 * // [] or the claims of the other resources that manage "web" in this deployment
 */
export function claimOnMachine(claim: MachineClaim): MachineClaim[] {
  const { stack, project } = stackOf(claim.urn);
  try {
    const dir = dirOf(claim.account, claim.templateId);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, fileOf(claim.urn));
    const previous = mine.get(claim.urn);
    // Stryker disable next-line ConditionalExpression: the same path removed is written again just below, by a rename that gives it a new file either way
    if (previous !== undefined && previous !== path) removeQuietly(previous);
    const record: ClaimFile = { ...claim, stack, project, ...self() };
    const temporary = `${path}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    fs.renameSync(temporary, path);
    mine.set(claim.urn, path);

    const others: MachineClaim[] = [];
    for (const name of fs.readdirSync(dir)) {
      if (!name.endsWith(".json") || name.startsWith(`${process.pid}-`)) continue;
      const other = readClaim(join(dir, name));
      if (other === undefined) continue;
      const live = isRunning(other.pid, other.started) && isRunning(other.engine.pid, other.engine.started);
      if (!live) {
        removeQuietly(join(dir, name));
        continue;
      }
      if (other.stack !== stack || other.project !== project || other.urn === claim.urn) continue;
      const { urn, account, templateId, purge, provider } = other;
      others.push({ urn, account, templateId, purge, provider });
    }
    return others;
  } catch (err) {
    log.debug(
      `the claim of template ${claim.templateId} could not be shared on this machine (${(err as Error).message}); ` +
        "resources of other providers are not compared with it",
    );
    return [];
  }
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
