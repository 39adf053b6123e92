/**
 * The Node versions the commands run on (`engines.node` of the package). Imported first by a
 * command of this folder, it checks the Node that runs the command before any other module of
 * the command loads, so that an older Node is told which one is needed instead of failing on an
 * API it lacks (`Map.groupBy is not a function`). Loads only what every Node has.
 */
import * as path from "node:path";

/**
 * Why this Node cannot run `command` (`engines.node` of the package, `>=22.19`), or undefined.
 *
 * @example
 * nodeVersionProblem("domainapi-import", "20.19.0"); // "domainapi-import needs Node >=22.19; this is Node 20.19.0 (...)..."
 */
export function nodeVersionProblem(
  command: string,
  version: string = process.versions.node,
): string | undefined {
  const range = (require("pulumi-domainapi/package.json") as { engines: { node: string } }).engines.node;
  // Stryker disable next-line ArrayDeclaration,Regex: the range is the package's own engines.node (">=22.19"), which always matches and has a minor; no input of a user's changes it
  const [min = 0, minMinor = 0] = (/(\d+)(?:\.(\d+))?/.exec(range) ?? []).slice(1).map(Number);
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > min || (major === min && minor >= minMinor)) return undefined;
  return (
    `${command} needs Node ${range}; this is Node ${version} (${process.execPath}). ` +
    `Run it with a newer Node, e.g. \`npx -p node@24 -p pulumi-domainapi ${command} ...\``
  );
}

// Run as a command of this folder: an unsupported Node stops here, before the command's modules load.
const main = require.main?.filename;
if (main !== undefined && path.dirname(main) === __dirname) {
  const problem = nodeVersionProblem(`domainapi-${path.basename(main, path.extname(main))}`);
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
