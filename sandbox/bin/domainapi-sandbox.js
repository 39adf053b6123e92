#!/usr/bin/env node
// The command's entry, kept in the repository (not built) so that `npm ci` links the bin of the
// workspace before anything is built; the command itself is dist/cli.js.

let cli;
try {
  cli = require("../dist/cli.js");
} catch (error) {
  if (error?.code !== "MODULE_NOT_FOUND" || !String(error.message).includes("dist/cli.js")) throw error;
  process.stderr.write("domainapi-sandbox: not built yet; run `npm run build` first\n");
  process.exit(1);
}
cli.main(process.argv.slice(2), process.env).then((code) => {
  process.exitCode = code;
});
