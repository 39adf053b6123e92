/**
 * DomainRestore's provider methods: one POST to take a domain out of quarantine. A restore cannot be
 * undone, so delete makes no request; a new domain or new triggers restore again (replace).
 */
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { DomainApiError, isNotFound } from "../client/errors";
import * as log from "../log";
import { client } from "../session";

type Props = Record<string, unknown>;
const PROVIDER_KEY = "__provider";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export { configure } from "../session";

// One label: letters, digits and inner hyphens, 1-63 characters (IDNs in their xn-- form).
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Why a domain name is malformed, or undefined when it is fine. */
export function domainProblem(domain: unknown): string | undefined {
  if (typeof domain !== "string" || domain === "")
    return 'expected a domain name, e.g. domain: "shop.example"';
  if (domain.length > 253) return "a domain name has at most 253 characters";
  if (domain !== domain.trim()) return "remove the leading or trailing white space";
  if (domain.endsWith(".")) return `drop the trailing dot: "${domain.slice(0, -1)}"`;
  if (domain.includes("://") || domain.includes("/"))
    return "give the bare domain name, without scheme or path";
  const labels = domain.split(".");
  if (labels.length < 2)
    return `"${domain}" has no top-level domain; give the full name, e.g. "${domain}.example"`;
  const bad = labels.find((l) => !LABEL.test(l.toLowerCase()));
  if (bad !== undefined) {
    return `label "${bad}" is not valid: use letters, digits and inner hyphens (IDNs in their xn-- form)`;
  }
  return undefined;
}

/** Validates `domain` (lower-cased) and passes `triggers` through; makes no request. */
export async function check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const key of Object.keys(news)) {
    if (key !== PROVIDER_KEY && key !== "domain" && key !== "triggers") {
      failures.push({ property: key, reason: "unknown input; DomainRestore takes domain and triggers" });
    }
  }
  if (news.domain === UNKNOWN) return { inputs: news, failures };
  const problem = domainProblem(news.domain);
  if (problem) failures.push({ property: "domain", reason: problem });
  if (failures.length > 0) return { inputs: news, failures };
  const inputs: Props = { domain: String(news.domain).toLowerCase() };
  if (news.triggers !== undefined) inputs.triggers = news.triggers;
  return { inputs };
}

/** A new domain or new triggers restore again. */
export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const replaces: string[] = [];
  if (olds.domain !== news.domain) replaces.push("domain");
  if (!isDeepStrictEqual(olds.triggers ?? null, news.triggers ?? null)) replaces.push("triggers");
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: true };
}

/** Create: `POST /v2/domains/{domain}/restore`. */
export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const domain = String(inputs.domain);
  try {
    await client().restoreDomain(domain);
  } catch (err) {
    if (isNotFound(err)) {
      throw new Error(
        `domain "${domain}" is not in this account (the API answered 404): check the name, and that the API key belongs to the account that holds it`,
      );
    }
    if (err instanceof DomainApiError && err.outcome === "unknown") {
      throw new Error(
        `${err.message}. The restore of "${domain}" may or may not have happened; it is never sent twice. ` +
          "Check the domain's status at the registrar, then run `pulumi up` again (a restore of a domain that is " +
          "no longer in quarantine is refused by the API, which tells you it is done).",
      );
    }
    throw err;
  }
  const restoredAt = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  log.info(`domain ${domain} restored from quarantine at ${restoredAt}`);
  const outs: Props = { domain, restoredAt };
  if (inputs.triggers !== undefined) outs.triggers = inputs.triggers;
  return { id: domain, outs };
}

/** Delete: no request. A restore cannot be undone; the domain stays active. */
export async function delete_(_id: string, props: Props): Promise<void> {
  log.info(
    `DomainRestore ${String(props.domain)}: a restore cannot be undone; removing it from the stack leaves the domain as it is`,
  );
}
export { delete_ as delete };

/** Read: there is no GET for a domain in the spec, so refresh keeps the state as it is. */
export async function read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  return { id, props };
}
