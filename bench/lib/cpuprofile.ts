/**
 * Where a V8 CPU profile (`.cpuprofile`, from `--cpu-prof` or the inspector) spends its time: self
 * time by function and by package (the `node_modules` package a file belongs to, this package's
 * build, Node's internals, the garbage collector, idle).
 */
import * as fs from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The parts of a `.cpuprofile` this module reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** Self time of one function or package, in milliseconds and as a share of the profile. */
export interface Share {
  readonly name: string;
  readonly ms: number;
  readonly share: number;
}

/** The package a script URL belongs to. */
export function packageOf(url: string): string {
  if (url === "") return "(native, gc, idle, program)";
  if (url.startsWith("node:")) return "node internals";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const dist = /\/dist\/(provider|sandbox)\/(.*)$/.exec(url);
  if (dist) return `pulumi-domainapi ${dist[1]}/${dist[2]?.split("/")[0]}`;
  return url.replace(/^file:\/\//, "");
}

function where(frame: CallFrame): string {
  const file = frame.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "");
  return `${frame.functionName || "(anonymous)"} ${file ? `${file}:${frame.lineNumber + 1}` : ""}`.trim();
}

/** Self time per function and per package, largest first. */
export function summarize(profile: CpuProfile): { total: number; functions: Share[]; packages: Share[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  const total = (profile.endTime - profile.startTime) / 1000;
  const functions = new Map<string, number>();
  const packages = new Map<string, number>();
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const special = frame.functionName.startsWith("(") ? frame.functionName : undefined;
    const fn = special ?? where(frame);
    const pkg = special ?? packageOf(frame.url);
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  const ranked = (m: Map<string, number>): Share[] =>
    [...m].map(([name, ms]) => ({ name, ms, share: ms / total })).sort((a, b) => b.ms - a.ms);
  return { total, functions: ranked(functions), packages: ranked(packages) };
}

/** Reads a `.cpuprofile` file. */
export function readProfile(file: string): CpuProfile {
  return JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
}
