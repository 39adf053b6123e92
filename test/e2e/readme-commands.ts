/**
 * The README's first screen as a newcomer reads it: the commands of its first shell block (under
 * "See it work"), each without its comment. The tests run these, not a copy of them.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The commands of the README's first ```sh block, in order, comments and blank lines dropped. */
export function firstScreenCommands(repoRoot: string): string[] {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const block = /^```sh\n([\s\S]*?)^```$/m.exec(readme);
  if (!block) throw new Error("README.md has no ```sh block");
  const heading = readme
    .slice(0, block.index)
    .match(/^## .*$/gm)
    ?.at(-1);
  if (heading !== "## See it work")
    throw new Error(`README.md's first sh block is under ${heading}, not "## See it work"`);
  return (block[1] ?? "")
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
