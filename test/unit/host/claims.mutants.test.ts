/**
 * The claims of other plugin processes as this one meets them, at the edges: a malformed file of
 * another process is passed over without hiding the good claims next to it, this process's other
 * resources are compared in memory (not through its own files), a process of another user still
 * runs, a system without /proc trusts the process id alone, and a cache that cannot be written is
 * told in the debug log.
 */
import type * as FS from "node:fs";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { claimOnMachine, isRunning, type MachineClaim } from "../../../provider/host/claims";
import { STATE_DIR_ENV } from "../../../provider/host/machineFiles";

/** When set, /proc cannot be read, as on systems without it. */
let noProc = false;
vi.mock("node:fs", async (original) => {
  const real = await original<typeof import("node:fs")>();
  return {
    ...real,
    readFileSync: (file: FS.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (noProc && String(file).startsWith("/proc/"))
        throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
      return (real.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
    },
  };
});

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-claim-mutants-"));
  process.env[STATE_DIR_ENV] = path.join(work, "state");
});
afterEach(() => {
  noProc = false;
  vi.restoreAllMocks();
  process.env[STATE_DIR_ENV] = path.join(work, "state");
});
afterAll(() => {
  delete process.env[STATE_DIR_ENV];
  fs.rmSync(work, { recursive: true, force: true });
});

const ACCOUNT = "https://api.example.com";
const urn = (name: string) => `urn:pulumi:dev::proj::domainapi:index:DnsTemplateRecords::${name}`;
const claim = (name: string, templateId: string): MachineClaim => ({
  urn: urn(name),
  account: ACCOUNT,
  templateId,
  purge: true,
  provider: '"live"',
});

/** The directory this process's claim of `templateId` went to. */
function dirOf(templateId: string): string {
  const root = path.join(work, "state", "claims");
  return path.join(root, fs.readdirSync(root).find((d) => d.includes(`-${templateId}-`))!);
}

/** A claim of another live process (the engine of this test stands in for it: it runs). */
function otherClaim(name: string, templateId: string) {
  return {
    ...claim(name, templateId),
    stack: "dev",
    project: "proj",
    pid: process.ppid,
    engine: { pid: process.pid },
  };
}

describe("a malformed claim file of another process", () => {
  const cases = {
    "no engine": ({ engine: _, ...rest }: ReturnType<typeof otherClaim>) => rest,
    "no process id": ({ pid: _, ...rest }: ReturnType<typeof otherClaim>) => rest,
    "no URN": ({ urn: _, ...rest }: ReturnType<typeof otherClaim>) => rest,
  };
  for (const [what, strip] of Object.entries(cases)) {
    it(`(${what}) is passed over and left alone; the good claim next to it is still returned`, () => {
      const templateId = `bad-${what.replace(/ /g, "-")}`;
      claimOnMachine(claim("self", templateId));
      const dir = dirOf(templateId);
      const bad = path.join(dir, "1-bad.json");
      fs.writeFileSync(bad, JSON.stringify(strip(otherClaim("broken", templateId))));
      fs.writeFileSync(path.join(dir, "1-good.json"), JSON.stringify(otherClaim("good", templateId)));
      expect(claimOnMachine(claim("self", templateId))).toEqual([claim("good", templateId)]);
      expect(fs.existsSync(bad)).toBe(true);
    });
  }
});

it("another resource of this process is not returned: this process compares its own in memory", () => {
  claimOnMachine(claim("first", "own"));
  expect(claimOnMachine(claim("second", "own"))).toEqual([]);
  expect(fs.readdirSync(dirOf("own"))).toHaveLength(2);
});

describe("whether a process runs", () => {
  it("a process of another user (kill says EPERM) runs", () => {
    vi.spyOn(process, "kill").mockImplementation(() => {
      throw Object.assign(new Error("kill EPERM"), { code: "EPERM" });
    });
    expect(isRunning(4242, undefined)).toBe(true);
  });

  it("where the system does not say when a process started, a running process counts by its id", () => {
    noProc = true;
    expect(isRunning(process.pid, "12345")).toBe(true);
  });
});

it("a cache that cannot be written is told in the debug log, naming the template and the cause", () => {
  const debug: string[] = [];
  vi.spyOn(pulumi.log, "debug").mockImplementation(async (message: string) => {
    debug.push(message);
  });
  const file = path.join(work, "a-file");
  fs.writeFileSync(file, "");
  process.env[STATE_DIR_ENV] = file;
  expect(claimOnMachine(claim("self", "nowhere"))).toEqual([]);
  expect(debug).toHaveLength(1);
  expect(debug[0]).toMatch(
    /^the claim of template nowhere could not be shared on this machine \(.*ENOTDIR.*\); resources of other providers are not compared with it$/,
  );
});

it("a name that is no URN claims under its whole self as the stack and an empty project", () => {
  claimOnMachine({ ...claim("x", "nourn"), urn: "not-a-urn" });
  const dir = dirOf("nourn");
  const [name] = fs.readdirSync(dir);
  expect(JSON.parse(fs.readFileSync(path.join(dir, name!), "utf8"))).toMatchObject({
    stack: "not-a-urn",
    project: "",
  });
});
