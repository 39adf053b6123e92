/**
 * The commands need the Node of the package's `engines.node` (`>=22.19`). Run on an older one, a
 * command of provider/cli says which Node it needs and which one ran it, and exits 1 before its
 * other modules load (they fail on an API the old Node lacks, with a message that says nothing).
 */
import * as path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeVersionProblem } from "../../../provider/cli/node-version";

const advice = (command: string) =>
  `Run it with a newer Node, e.g. \`npx -p node@24 -p pulumi-domainapi ${command} ...\``;

describe("nodeVersionProblem", () => {
  it("from 22.19 on, nothing; the Node running these tests is one", () => {
    for (const version of ["22.19.0", "22.20.1", "23.0.0", "24.11.0", "30.1.2"]) {
      expect(nodeVersionProblem("domainapi-import", version), version).toBeUndefined();
    }
    expect(nodeVersionProblem("domainapi-import")).toBeUndefined();
  });

  it("an older Node: which one is needed, which one ran, where it is, and how to run a newer one", () => {
    expect(nodeVersionProblem("domainapi-import", "20.19.0")).toBe(
      `domainapi-import needs Node >=22.19; this is Node 20.19.0 (${process.execPath}). ${advice("domainapi-import")}`,
    );
    for (const version of ["22.18.9", "22.0.0", "21.99.0", "18.20.4"]) {
      expect(nodeVersionProblem("domainapi-plan", version), version).toMatch(
        /^domainapi-plan needs Node >=22\.19;/,
      );
    }
  });
});

describe("loaded by a command of provider/cli on an older Node", () => {
  const cli = path.resolve(__dirname, "..", "..", "..", "provider", "cli");
  const node = Object.getOwnPropertyDescriptor(process.versions, "node") as PropertyDescriptor;
  afterEach(() => {
    Object.defineProperty(process.versions, "node", node);
    vi.restoreAllMocks();
    vi.resetModules();
  });

  /** Loads the module afresh as Node would under `main`, on Node `version`: what it wrote and whether it exited. */
  async function load(main: string | undefined, version: string) {
    Object.defineProperty(process.versions, "node", { ...node, value: version });
    let stderr = "";
    const exits: (string | number | null | undefined)[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((t: string | Uint8Array) => {
      stderr += String(t);
      return true;
    });
    vi.spyOn(process, "exit").mockImplementation((code) => {
      exits.push(code);
      return undefined as never;
    });
    // The module's `require.main` is the process's main module when the module loads.
    const saved = Object.getOwnPropertyDescriptor(process, "mainModule");
    const fake = main === undefined ? undefined : ({ filename: main } as NodeJS.Module);
    Object.defineProperty(process, "mainModule", { value: fake, configurable: true, writable: true });
    vi.resetModules();
    try {
      await import("../../../provider/cli/node-version.js");
    } finally {
      if (saved) Object.defineProperty(process, "mainModule", saved);
      else delete (process as { mainModule?: unknown }).mainModule;
    }
    return { stderr, exits };
  }

  it("stops with the message and status 1, naming the command after its file", async () => {
    const { stderr, exits } = await load(path.join(cli, "import.js"), "20.19.0");
    expect(stderr).toBe(
      `domainapi-import needs Node >=22.19; this is Node 20.19.0 (${process.execPath}). ${advice("domainapi-import")}\n`,
    );
    expect(exits).toEqual([1]);
  });

  it("on a Node that is new enough, or loaded by a program that is not a command of the folder: nothing", async () => {
    expect(await load(path.join(cli, "import.js"), "24.0.0")).toEqual({ stderr: "", exits: [] });
    expect(await load(path.join(cli, "..", "index.js"), "20.19.0")).toEqual({ stderr: "", exits: [] });
    expect(await load(undefined, "20.19.0")).toEqual({ stderr: "", exits: [] });
  });
});
