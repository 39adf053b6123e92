/**
 * DomainRestore's provider methods: one POST to take a domain out of quarantine. A restore cannot be
 * undone, so delete makes no request; a new domain or new triggers restore again (replace). There
 * is no read: the spec has no GET for a domain, and without one the engine's dynamic host keeps the
 * state as it is on refresh.
 */
import { domainToASCII } from "node:url";
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import { isNotFound } from "../client/failures";
import { asciiForm, idnaProblem, NUMERIC_END, URL_HOST_CUTS } from "../dns/model";
import { DomainApiError, DomainNotInAccountError, UnreviewedPlanError } from "../errors";
import { accountMove, madeOn } from "../host/account";
import { containsUnknown, unknownInputs, withoutProvider } from "../host/engine";
import { appliedAt, EXPECT_PLAN_ENV, parseExpectation } from "../host/expectation";
import { PartialFailure } from "../host/partialFailure";
import { checkSettings, client, configuredBaseUrl } from "../host/session";
import * as log from "../log";
import { restoreRefusal } from "./guard";

type Props = Record<string, unknown>;

export { configure } from "../host/session";

// One label as sent: letters, digits and inner hyphens, 1-63 characters (an IDN in its xn-- form).
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;
/** Final full stops, in ASCII or as the dots UTS #46 maps to it (`。`, `．`, `｡`). */
const FINAL_DOT = /[.\u3002\uff0e\uff61]+$/u;

/**
 * A domain name in the form the API takes: lower case, every internationalized label in its
 * xn-- (punycode) form, as Node's `url.domainToASCII` maps it (UTS #46): `Bücher.Example` ->
 * `xn--bcher-kva.example`, and `shop。example` (the full stop Chinese and Japanese input methods
 * type) -> `shop.example`. `""` when the name cannot be mapped, or when the URL host parser behind
 * that mapping would cut or change part of it (`bücher.example?x`, `bü%63her.example`).
 *
 * @example
 * asciiDomain("Bücher.example"); // "xn--bcher-kva.example"
 */
export function asciiDomain(domain: string): string {
  if (numericEnd(domain)) return "";
  if (!NON_ASCII.test(domain)) return domain.toLowerCase();
  return asciiForm(domain);
}

/**
 * Whether `domain` ends in a number, as written or once mapped (`１.２` -> `1.0.0.2`): the URL host
 * parser reads such a name as an IPv4 address, and no top-level label is all digits (RFC 3696, section 2).
 */
function numericEnd(domain: string): boolean {
  return NUMERIC_END.test(domain) || NUMERIC_END.test(domainToASCII(domain));
}

/**
 * Why a name outside ASCII holding `cut`, a character the URL host parser behind the mapping cuts
 * at, drops or decodes, is refused: mapped, it would name another domain.
 */
function cutProblem(domain: string, cut: string): string {
  const [what, effect] =
    cut === "\t"
      ? ["a tab", "drop it"]
      : cut === "\n" || cut === "\r"
        ? ["a line break", "drop it"]
        : cut === "%"
          ? ['"%"', "decode it"]
          : [`"${cut}"`, "cut the name there"];
  return (
    `"${domain}" is not a domain name: ${what} has no place in one (Node's url.domainToASCII would ${effect}, ` +
    'and another domain would be restored); use letters, digits and inner hyphens, or an internationalized name such as "bücher.example"'
  );
}

/**
 * Why a domain name is malformed, or undefined when it is fine. Unicode is fine where UTS #46 maps
 * it (the name is sent in that form); every suggestion is a name that passes.
 */
export function domainProblem(domain: unknown): string | undefined {
  if (typeof domain !== "string" || domain === "")
    return 'expected a domain name, e.g. domain: "shop.example"';
  if (domain !== domain.trim()) return "remove the leading or trailing white space";
  if (domain.includes("://") || domain.includes("/"))
    return "give the bare domain name, without scheme or path";
  if (FINAL_DOT.test(domain)) {
    const bare = domain.replace(FINAL_DOT, "");
    return domainProblem(bare) === undefined
      ? `drop the trailing dot: "${bare}"`
      : `drop the trailing dot, and ${domainProblem(bare)}`;
  }
  const cut = NON_ASCII.test(domain) ? URL_HOST_CUTS.exec(domain) : null;
  if (cut) return cutProblem(domain, cut[0]);
  if (numericEnd(domain)) {
    const address = domainToASCII(domain);
    const read =
      address === "" ? "" : ` (Node's url.domainToASCII would read it as the IP address ${address})`;
    return (
      `"${domain}" is not a domain name: its last label is a number, and a domain's last label never is${read}; ` +
      'write the domain to restore, e.g. domain: "shop.example"'
    );
  }
  const ascii = asciiDomain(domain);
  if (ascii === "") {
    return (
      `"${domain}" is not a domain name: it holds characters that no domain name can (Node's ` +
      'url.domainToASCII refuses it); use letters, digits and inner hyphens, or an internationalized name such as "bücher.example"'
    );
  }
  const labels = ascii.split(".");
  if (labels.length < 2)
    return `"${domain}" has no top-level domain; give the full name, e.g. "${ascii}.example"`;
  const bad = labels.findIndex((l) => !LABEL.test(l));
  if (bad >= 0) {
    // Named as the user wrote it when the mapping kept the labels apart as they were.
    const written = domain.split(/[.\u3002\uff0e\uff61]/u);
    const label = written.length === labels.length ? written[bad] : labels[bad];
    return (
      `label "${label}" is not valid: use letters, digits and inner hyphens (an internationalized name such ` +
      'as "bücher.example" is sent in its xn-- form)'
    );
  }
  if (ascii.length > 253) return "a domain name has at most 253 characters (in its xn-- form)";
  const idna = idnaProblem(ascii);
  return idna && `domain "${domain}" is not a name a registrar takes: ${idna}`;
}

/**
 * Validates `domain` and turns it into the form the API takes (lower case, xn-- labels); passes
 * `triggers` through; makes no request. Malformed settings fail here, as `up` would fail on them
 * (a missing key is only a warning: a preview needs none).
 */
export async function check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  checkSettings();
  const failures = unknownInputs(news, ["domain", "triggers"], "DomainRestore");
  // Triggers are passed through as they are; only the domain is validated, once it is known.
  if (containsUnknown(news.domain)) return { inputs: news, failures };
  const problem = domainProblem(news.domain);
  if (problem) failures.push({ property: "domain", reason: problem });
  if (failures.length > 0) return { inputs: news, failures };
  const inputs: Props = { domain: asciiDomain(String(news.domain)) };
  if (news.triggers !== undefined) inputs.triggers = news.triggers;
  return { inputs };
}

/** A new domain or new triggers restore again. */
export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  // Made on another API: restored on the configured one as a create would (when accepted).
  if (accountMove(olds, `DomainRestore (domain "${String(olds.domain)}")`, "its restore"))
    return { changes: true, replaces: ["domain"], deleteBeforeReplace: true };
  const replaces: string[] = [];
  if (olds.domain !== news.domain) replaces.push("domain");
  if (!isDeepStrictEqual(olds.triggers ?? null, news.triggers ?? null)) replaces.push("triggers");
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: true };
}

function now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

function restoredOutputs(inputs: Props, restoredAt: string): Props {
  const outs: Props = { domain: inputs.domain };
  if (restoredAt) outs.restoredAt = restoredAt;
  if (inputs.triggers !== undefined) outs.triggers = inputs.triggers;
  return outs;
}

/**
 * Whether an error is the API refusing a restore because the domain is not in quarantine (any more):
 * a 4xx that is not about the key (401/403), the name (404), a timeout (408) or the pace (429). The
 * spec shows neither the status (409, 422 and 400 are all seen) nor the error body, so the API's
 * message is quoted to the user beside this reading.
 */
function isRefusedAsNotQuarantined(err: unknown): err is DomainApiError {
  if (!(err instanceof DomainApiError) || err.kind !== "http" || err.status === undefined) return false;
  return err.status >= 400 && err.status < 500 && ![401, 403, 404, 408, 429].includes(err.status);
}

/**
 * Throws when `DOMAINAPI_EXPECT_PLAN` is set and its reviewed plan does not name the restore of
 * `domain` on the configured account: nothing is sent.
 *
 * @throws UnreviewedPlanError naming the domain and how to have the restore reviewed
 */
function refuseUnreviewed(domain: string): void {
  const expected = appliedAt(parseExpectation(process.env[EXPECT_PLAN_ENV]), {
    account: configuredBaseUrl(),
  });
  const refusal = restoreRefusal(domain, expected);
  if (refusal !== undefined) throw new UnreviewedPlanError(refusal);
}

/**
 * Create: `POST /v2/domains/{domain}/restore`, only when the reviewed plan, if one is given, names it. The POST is never resent automatically once it may
 * have reached the API. When its answer is lost, the resource is recorded as unconfirmed (a partial
 * failure), so that the next `pulumi up` asks again instead of forgetting the attempt.
 */
export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const domain = String(inputs.domain);
  refuseUnreviewed(domain);
  try {
    await client().restoreDomain(domain);
  } catch (err) {
    if (isNotFound(err)) throw new DomainNotInAccountError(err, domain);
    if (err instanceof DomainApiError && err.outcome === "unknown") {
      const message =
        `${err.message}. The restore of "${domain}" may or may not have happened; it was not sent twice. ` +
        "The stack records it as unconfirmed: run `pulumi up` again to confirm it (the API is asked once more, " +
        "and its refusal because the domain is no longer in quarantine is the confirmation).";
      throw new PartialFailure(
        message,
        domain,
        { ...restoredOutputs(inputs, ""), unconfirmed: true },
        inputs,
      );
    }
    throw err;
  }
  const restoredAt = now();
  log.info(`domain ${domain} restored from quarantine at ${restoredAt}`);
  return { id: domain, outs: { ...restoredOutputs(inputs, restoredAt), ...madeOn() } };
}

/**
 * Update: the engine calls it only to finish a restore recorded as unconfirmed (every change of the
 * inputs is a replacement). The second POST is safe: if the first took effect, the API refuses this
 * one because the domain is no longer in quarantine (with 409, 422 or 400: the spec does not say),
 * and that refusal is the confirmation; the warning quotes the API's words. It is a restore all the
 * same: under a reviewed plan, sent only when the plan names it.
 */
export async function update(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const domain = String(news.domain);
  if (olds.unconfirmed !== true) return { outs: withoutProvider(olds) };
  refuseUnreviewed(domain);
  try {
    await client().restoreDomain(domain);
    log.info(`domain ${domain} restored from quarantine (the earlier attempt had not taken effect)`);
  } catch (err) {
    if (isNotFound(err)) throw new DomainNotInAccountError(err, domain);
    if (!isRefusedAsNotQuarantined(err)) throw err;
    log.warn(
      `domain ${domain}: the API refused a second restore with ${err.status} ` +
        `(${JSON.stringify(err.apiMessage ?? "")}), read as "not in quarantine": the earlier restore, ` +
        "whose answer was lost, took effect. Recorded as restored.",
    );
  }
  return { outs: { ...restoredOutputs(news, now()), ...madeOn() } };
}

/** Delete: no request. A restore cannot be undone; the domain stays active. */
export async function delete_(_id: string, props: Props): Promise<void> {
  log.info(
    `DomainRestore ${String(props.domain)}: a restore cannot be undone; removing it from the stack leaves the domain as it is`,
  );
}
export { delete_ as delete };

/**
 * The state `pulumi import` starts from: the id is the domain (the API cannot show whether it was
 * restored, so nothing else is known).
 *
 * @example
 * imported("Shop.Example"); // { props: { domain: "shop.example" }, inputs: { domain: "shop.example" } }
 */
export function imported(id: string): { props: Props; inputs: Props } {
  // An id with no ASCII form, or one ending in a number, is kept as written, for check to refuse by name.
  const domain = asciiDomain(id) || id;
  return { props: { domain }, inputs: { domain } };
}
