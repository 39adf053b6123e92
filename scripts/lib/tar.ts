/**
 * The little of tar that plugin releases need, written so that the same files always give the same
 * bytes: POSIX ustar entries for regular files, in the order given, with a fixed mtime, owner and
 * group, gzip-compressed without a file name or time. Reading takes what `npm pack` and our own
 * writer produce (regular files, pax headers for long names). Node has gzip but no tar.
 */
import * as zlib from "node:zlib";

/** One regular file of an archive. */
export interface TarEntry {
  /** Path inside the archive, `/`-separated, relative. */
  name: string;
  /** Permission bits, e.g. 0o755 for an executable. */
  mode: number;
  data: Uint8Array;
}

const BLOCK = 512;
/** 1985-10-26T08:15:00Z, the time npm stamps on every packed file: fixed, and not the epoch (which some tools treat as missing). */
export const FIXED_MTIME = 499162500;
/** The OS byte of a gzip header: "Unix", whatever machine compresses (zlib writes its own OS there). */
const GZIP_OS_UNIX = 3;

function writeString(header: Buffer, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > length) throw new Error(`tar: "${value}" does not fit in ${length} bytes`);
  bytes.copy(header, offset);
}

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  // length - 1 digits, then a NUL: the form every tar reads.
  writeString(header, offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
}

/** Splits a long path into ustar's prefix (155 bytes) and name (100 bytes) at a `/`. */
function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: "", base: name };
  for (let i = name.indexOf("/"); i !== -1; i = name.indexOf("/", i + 1)) {
    const prefix = name.slice(0, i);
    const base = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(base) <= 100) return { prefix, base };
  }
  throw new Error(`tar: the path ${name} is too long for a ustar header`);
}

function header(entry: TarEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(entry.name);
  writeString(h, 0, 100, base);
  writeOctal(h, 100, 8, entry.mode & 0o7777);
  writeOctal(h, 108, 8, 0); // uid
  writeOctal(h, 116, 8, 0); // gid
  writeOctal(h, 124, 12, entry.data.byteLength);
  writeOctal(h, 136, 12, FIXED_MTIME);
  h.fill(" ", 148, 156); // the checksum counts its own field as spaces
  writeString(h, 156, 1, "0"); // a regular file
  writeString(h, 257, 6, "ustar\0");
  writeString(h, 263, 2, "00");
  writeString(h, 265, 32, "root");
  writeString(h, 297, 32, "root");
  writeString(h, 345, 155, prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  writeString(h, 148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return h;
}

/**
 * A gzip-compressed tar of `entries`, byte for byte the same for the same entries: no time, owner
 * or host in it (uid/gid 0 named root, the fixed mtime, the gzip header's time zero and OS "Unix").
 */
export function writeTarGz(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry), Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength));
    const pad = (BLOCK - (entry.data.byteLength % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // the end of the archive
  const gz = zlib.gzipSync(Buffer.concat(parts), { level: 6 });
  // zlib writes mtime 0 already (no file name is given); the OS byte is the compressing machine's.
  gz[9] = GZIP_OS_UNIX;
  return gz;
}

function readString(block: Buffer, offset: number, length: number): string {
  const raw = block.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

/** The `path` record of a pax extended header, if it has one. */
function paxPath(data: Buffer): string | undefined {
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString("utf8"), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, at + length - 1).toString("utf8");
    if (record.startsWith("path=")) return record.slice("path=".length);
    at += length;
  }
  return undefined;
}

/**
 * The regular files of a gzip-compressed tar (links, directories and other entries are skipped).
 *
 * @throws Error when the archive is cut short or a header's checksum is wrong
 */
export function readTarGz(archive: Uint8Array): TarEntry[] {
  const tar = zlib.gunzipSync(archive);
  const entries: TarEntry[] = [];
  let nextName: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) break;
    const stored = readOctal(block, 148, 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    if (sum !== stored) throw new Error(`tar: bad header checksum at byte ${at}`);
    const size = readOctal(block, 124, 12);
    const type = readString(block, 156, 1) || "0";
    const start = at + BLOCK;
    if (start + size > tar.length) throw new Error(`tar: the archive ends inside an entry at byte ${at}`);
    const data = tar.subarray(start, start + size);
    if (type === "x") {
      nextName = paxPath(data);
    } else if (type === "0") {
      const prefix = readString(block, 345, 155);
      const base = readString(block, 0, 100);
      const name = nextName ?? (prefix === "" ? base : `${prefix}/${base}`);
      entries.push({ name, mode: readOctal(block, 100, 8), data });
      nextName = undefined;
    } else {
      nextName = undefined;
    }
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}
