/**
 * The release tarballs of `npm run dist` (dist/plugin), read as `pulumi plugin install` and each
 * platform's loader would: one executable per tarball under the name Pulumi runs, of the right
 * format and architecture, with Node's SEA fuse flipped (the blob is in), no signature left that
 * the injection broke, and a checksum file that matches. Also: the tar writer gives the same bytes
 * whenever it runs, which is what makes the same commit's tarballs the same.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_TARGETS, type PluginTarget, tarballName } from "../../scripts/lib/node-binaries.ts";
import { FIXED_MTIME, readTarGz, writeTarGz } from "../../scripts/lib/tar.ts";

const repoRoot = path.resolve(__dirname, "..", "..");
const out = path.join(repoRoot, "dist", "plugin");
const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};
const FUSE_FLIPPED = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1";

/** What an executable's header says it is. */
interface Header {
  format: "ELF" | "Mach-O" | "PE";
  arch: "x86-64" | "aarch64" | "arm64" | "amd64" | "other";
  /** A signature the injection left behind (Mach-O LC_CODE_SIGNATURE, PE certificate table). */
  signed: boolean;
  /** Mach-O: the segments, where Node looks for `NODE_SEA`. */
  segments: string[];
}

function elf(exe: Buffer): Header {
  // 64-bit little-endian; e_machine at 0x12.
  expect(exe[4], "ELF class (2: 64-bit)").toBe(2);
  expect(exe[5], "ELF data (1: little-endian)").toBe(1);
  const machine = exe.readUInt16LE(0x12);
  return {
    format: "ELF",
    arch: machine === 0x3e ? "x86-64" : machine === 0xb7 ? "aarch64" : "other",
    signed: false,
    segments: [],
  };
}

function macho(exe: Buffer): Header {
  const cpu = exe.readUInt32LE(4);
  const ncmds = exe.readUInt32LE(16);
  const segments: string[] = [];
  let signed = false;
  let at = 32; // after mach_header_64
  for (let i = 0; i < ncmds; i++) {
    const cmd = exe.readUInt32LE(at);
    const size = exe.readUInt32LE(at + 4);
    if (cmd === 0x19) segments.push(exe.toString("latin1", at + 8, at + 24).replace(/\0+$/, "")); // LC_SEGMENT_64
    if (cmd === 0x1d) signed = true; // LC_CODE_SIGNATURE
    at += size;
  }
  return {
    format: "Mach-O",
    arch: cpu === 0x01000007 ? "x86-64" : cpu === 0x0100000c ? "arm64" : "other",
    signed,
    segments,
  };
}

function pe(exe: Buffer): Header {
  const header = exe.readUInt32LE(0x3c);
  expect(exe.readUInt32LE(header), "PE signature").toBe(0x00004550);
  const machine = exe.readUInt16LE(header + 4);
  const optional = header + 24;
  expect(exe.readUInt16LE(optional), "PE32+ optional header").toBe(0x20b);
  const security = optional + 112 + 4 * 8;
  return {
    format: "PE",
    arch: machine === 0x8664 ? "amd64" : "other",
    signed: exe.readUInt32LE(security) !== 0 || exe.readUInt32LE(security + 4) !== 0,
    segments: [],
  };
}

/** Reads the executable's header by its magic number. */
function headerOf(exe: Buffer): Header {
  if (exe.readUInt32BE(0) === 0x7f454c46) return elf(exe);
  if (exe.readUInt32LE(0) === 0xfeedfacf) return macho(exe);
  if (exe.readUInt16LE(0) === 0x5a4d) return pe(exe);
  throw new Error(`unknown executable format (magic ${exe.subarray(0, 4).toString("hex")})`);
}

const expected: Record<string, Pick<Header, "format" | "arch">> = {
  "linux-amd64": { format: "ELF", arch: "x86-64" },
  "linux-arm64": { format: "ELF", arch: "aarch64" },
  "darwin-amd64": { format: "Mach-O", arch: "x86-64" },
  "darwin-arm64": { format: "Mach-O", arch: "arm64" },
  "windows-amd64": { format: "PE", arch: "amd64" },
};

describe("the plugin release tarballs (npm run dist)", () => {
  const checksums = path.join(out, `pulumi-resource-domainapi-v${version}-checksums.txt`);

  beforeAll(() => {
    if (!fs.existsSync(checksums)) {
      throw new Error(
        `${path.relative(repoRoot, checksums)} is missing: run \`npm run build && npm run dist\` first`,
      );
    }
  });

  it("are the five platforms Pulumi installs, each listed with its SHA-256 in the checksum file", () => {
    expect(PLUGIN_TARGETS.map((t) => `${t.os}-${t.arch}`)).toEqual(Object.keys(expected));
    const lines = fs.readFileSync(checksums, "utf8").trimEnd().split("\n");
    expect(lines.map((l) => l.split("  ")[1])).toEqual(PLUGIN_TARGETS.map((t) => tarballName(version, t)));
    for (const line of lines) {
      const [sum, name] = line.split("  ");
      const bytes = fs.readFileSync(path.join(out, name ?? ""));
      expect(crypto.createHash("sha256").update(bytes).digest("hex"), name).toBe(sum);
    }
    expect(tarballName(version, PLUGIN_TARGETS[0] as PluginTarget)).toBe(
      `pulumi-resource-domainapi-v${version}-linux-amd64.tar.gz`,
    );
  }, 60_000);

  it.each(PLUGIN_TARGETS.map((t) => [`${t.os}-${t.arch}`, t] as const))(
    "%s: one executable of the platform's format and architecture, the SEA blob injected",
    (name, target) => {
      const entries = readTarGz(fs.readFileSync(path.join(out, tarballName(version, target))));
      expect(entries.map((e) => e.name)).toEqual([
        target.os === "windows" ? "pulumi-resource-domainapi.exe" : "pulumi-resource-domainapi",
      ]);
      const [entry] = entries;
      if (entry === undefined) throw new Error("no entry");
      expect(entry.mode).toBe(0o755);
      const exe = Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength);
      const header = headerOf(exe);
      expect({ format: header.format, arch: header.arch }).toEqual(expected[name]);
      // Node runs the blob only when the fuse says one was injected.
      expect(exe.indexOf(FUSE_FLIPPED)).toBeGreaterThan(0);
      expect(exe.indexOf(FUSE_FLIPPED)).toBe(exe.lastIndexOf(FUSE_FLIPPED));
      // A signature that no longer matches the bytes is worse than none: it was removed.
      expect(header.signed).toBe(false);
      if (header.format === "Mach-O") expect(header.segments).toContain("NODE_SEA");
    },
    60_000,
  );
});

describe("the tar writer", () => {
  const entries = [
    { name: "pulumi-resource-domainapi", mode: 0o755, data: crypto.randomBytes(70_000) },
    { name: `${"deep/".repeat(30)}file.txt`, mode: 0o644, data: Buffer.from("x") },
  ];

  it("gives the same bytes each time, with no time, owner or host in them, and reads back", async () => {
    const first = writeTarGz(entries);
    await new Promise((r) => setTimeout(r, 1100)); // a second later: a clock in the bytes would show
    const second = writeTarGz(entries);
    expect(second.equals(first)).toBe(true);
    // gzip: no name flag, mtime 0, OS Unix.
    expect(first[3]).toBe(0);
    expect(first.readUInt32LE(4)).toBe(0);
    expect(first[9]).toBe(3);
    const tar = zlib.gunzipSync(first);
    expect(Number.parseInt(tar.toString("latin1", 136, 147), 8)).toBe(FIXED_MTIME);
    expect(tar.toString("latin1", 108, 115)).toBe("0000000"); // uid
    expect(tar.toString("latin1", 116, 123)).toBe("0000000"); // gid
    expect(readTarGz(first)).toEqual(entries.map((e) => ({ ...e, data: expect.anything() })));
    expect(
      readTarGz(first).map((e) =>
        Buffer.from(e.data).equals(e.name.endsWith(".txt") ? entries[1]!.data : entries[0]!.data),
      ),
    ).toEqual([true, true]);
  });
});
