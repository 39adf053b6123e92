/**
 * A secret the preview does not show, anywhere in a resource's inputs: `[secret]` as
 * `pulumi preview --json` prints it, or Pulumi's serialized secret (its signature, or a
 * `ciphertext`) as the Automation API's engine events carry it. Such a template cannot be planned.
 */
import { describe, expect, it } from "vitest";
import { holdsHiddenSecret, MASKED_SECRET } from "../../../provider/cli/secrets";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

describe("holdsHiddenSecret", () => {
  it("the masked string, exactly, at any depth", () => {
    expect(MASKED_SECRET).toBe("[secret]");
    expect(holdsHiddenSecret("[secret]")).toBe(true);
    expect(holdsHiddenSecret({ records: "[secret]" })).toBe(true);
    expect(holdsHiddenSecret({ records: { "@/TXT": { content: "[secret]" } } })).toBe(true);
    expect(holdsHiddenSecret({ records: [{ content: "a" }, ["b", "[secret]"]] })).toBe(true);
  });

  it("a serialized secret: by its signature or by a ciphertext, whatever else it holds", () => {
    expect(holdsHiddenSecret({ records: { [SIG]: SECRET, ciphertext: "AAAA" } })).toBe(true);
    expect(holdsHiddenSecret({ records: { [SIG]: SECRET, value: { content: "192.0.2.1" } } })).toBe(true);
    expect(holdsHiddenSecret({ records: { ciphertext: "v1:abc" } })).toBe(true);
    expect(holdsHiddenSecret([{ a: 1 }, { ciphertext: undefined }])).toBe(true);
  });

  it("plain values, text that only contains the mask, another signature: none", () => {
    for (const value of [
      undefined,
      null,
      0,
      true,
      "",
      "[secret] ",
      "[SECRET]",
      "secret",
      [],
      {},
      { records: { "@/A": { content: "192.0.2.1", ttl: 300 } } },
      { records: [{ content: "[secret]x" }] },
      { [SIG]: "0000000000000000000000000000000b", value: "x" },
      { [SIG]: SECRET.toUpperCase(), value: "x" },
      { cipher: "x", text: "ciphertext" },
    ]) {
      expect(holdsHiddenSecret(value), JSON.stringify(value)).toBe(false);
    }
  });
});
