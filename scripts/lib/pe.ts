/**
 * Removes the Authenticode signature of a Windows (PE) executable, as `signtool remove /s` does:
 * the certificate table is the file's tail, named by the security entry of the optional header's
 * data directories. Once a resource is injected the signature no longer verifies, and Windows
 * shows a broken signature as worse than none; the release signs the result anew (docs/release.md).
 */

/** The executable without its certificate table (the same bytes when it has none). */
export function stripPeSignature(exe: Buffer): Buffer {
  if (exe.readUInt16LE(0) !== 0x5a4d) throw new Error("not a PE executable (no MZ header)");
  const pe = exe.readUInt32LE(0x3c);
  if (exe.readUInt32LE(pe) !== 0x00004550) throw new Error("not a PE executable (no PE signature)");
  const optional = pe + 24;
  const magic = exe.readUInt16LE(optional);
  // The data directories follow the optional header's fixed part: 96 bytes (PE32) or 112 (PE32+).
  const directories = optional + (magic === 0x20b ? 112 : 96);
  const security = directories + 4 * 8; // entry 4: the certificate table (a file offset, not an RVA)
  const offset = exe.readUInt32LE(security);
  const size = exe.readUInt32LE(security + 4);
  if (offset === 0 || size === 0) return exe;
  if (offset + size !== exe.length) {
    throw new Error("the PE certificate table is not at the end of the file: cannot remove it safely");
  }
  const out = Buffer.from(exe.subarray(0, offset));
  out.writeUInt32LE(0, security);
  out.writeUInt32LE(0, security + 4);
  // The optional header's checksum covered the signature; 0 means "not computed", which Windows
  // accepts for programs (only drivers must carry one).
  out.writeUInt32LE(0, optional + 64);
  return out;
}
