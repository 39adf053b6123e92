/**
 * Where this package keeps what one run leaves for the next on the same machine (the intent
 * journal, the claims of templates across provider processes): the user's cache directory, as
 * the XDG base directory specification names it, so a CI cache step or `rm -rf` of it is the
 * user's choice. The API key never goes there: an account is named by its base address and a
 * hash of the key.
 */
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";

/** The environment variable that moves every file this package keeps on the machine. */
export const STATE_DIR_ENV = "DOMAINAPI_STATE_DIR";

/**
 * The directory for `what` (e.g. `journal`): `$DOMAINAPI_STATE_DIR/<what>`, else
 * `$XDG_CACHE_HOME/pulumi-domainapi/<what>`, else `~/.cache/pulumi-domainapi/<what>`.
 * Read on every call: tests and Automation API hosts change the environment between runs.
 */
export function machineDir(what: string): string {
  const own = process.env[STATE_DIR_ENV];
  if (own !== undefined && own.trim() !== "") return join(own, what);
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg.trim() !== "" ? xdg : join(homedir(), ".cache");
  return join(base, "pulumi-domainapi", what);
}

/**
 * A file name for one account and template: readable in part (so a user can tell which file to
 * remove) and unique through a hash of the exact base address and template id.
 *
 * @param baseUrl the normalised base address (settings drop trailing slashes)
 */
export function accountTemplateFile(baseUrl: string, templateId: string): string {
  const digest = createHash("sha256").update(`${baseUrl}\n${templateId}`).digest("hex").slice(0, 16);
  // Stryker disable next-line Regex: a base address always starts with its scheme, so the first match is the leading one
  const readable = `${baseUrl.replace(/^https?:\/\//, "")}-${templateId}`
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .slice(0, 80);
  return `${readable}-${digest}.json`;
}

/**
 * A short, one-way name of an API key: tells two keys apart without keeping the key (12 hex
 * digits of SHA-256 of a domain-separated input).
 */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update(`pulumi-domainapi key\n${apiKey}`).digest("hex").slice(0, 12);
}
