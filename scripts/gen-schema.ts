/**
 * Writes provider/plugin/schema.json from the manifest (provider/schema/document.ts), formatted as
 * the repository formats JSON. Build setting: DOMAINAPI_PLUGIN_DOWNLOAD_URL (where the plugin's
 * release binaries are published; default the repository's GitHub releases).
 *
 *   npm run schema   (builds the package, then runs this)
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type * as SchemaDocument from "../provider/schema/document.ts";

const root = path.resolve(import.meta.dirname, "..");
// The built package (`npm run schema` builds it first): the provider's modules import without extensions.
const built = path.join(root, "dist", "provider", "schema", "document.js");
const { schemaBuild, schemaDocument } = createRequire(import.meta.url)(built) as typeof SchemaDocument;
const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  version: string;
};
const file = path.join(root, "provider", "plugin", "schema.json");
fs.writeFileSync(file, `${JSON.stringify(schemaDocument(schemaBuild(version)), null, 2)}\n`);
execFileSync(path.join(root, "node_modules", ".bin", "biome"), ["format", "--write", file], {
  stdio: "ignore",
});
// The build just made holds the schema of before: give it this one too.
fs.copyFileSync(file, path.join(root, "dist", "provider", "plugin", "schema.json"));
console.log(`gen-schema: wrote ${path.relative(root, file)} (version ${version})`);
