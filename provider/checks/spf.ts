/**
 * Reading an SPF record (RFC 7208) as receivers read it: its terms, what in it is a permanent error
 * (§4.6.1 and the ABNF of §12), and the DNS lookups it costs itself (§4.6.4: each `include`, `a`,
 * `mx`, `ptr`, `exists` and `redirect` is one; what an include costs further needs DNS, which a
 * preview does not query).
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { isIPv4, isIPv6 } from "node:net";
import { DOMAIN_PLACEHOLDER } from "../dns/model";

/** RFC 7208 §4.6.4: more DNS-querying terms than this make the record a permanent error. */
export const SPF_LOOKUP_LIMIT = 10;

/** A qualifier: `+` pass (the default), `-` fail, `~` softfail, `?` neutral (RFC 7208 §4.6.2). */
export type SpfQualifier = "+" | "-" | "~" | "?";

/** The mechanisms RFC 7208 §5 defines; any other name is a permanent error. */
export const SPF_MECHANISMS = ["all", "include", "a", "mx", "ptr", "ip4", "ip6", "exists"] as const;

/** The name of one of the mechanisms of RFC 7208 §5, lower-cased. */
type SpfMechanism = (typeof SPF_MECHANISMS)[number];

function isMechanism(name: string): name is SpfMechanism {
  return (SPF_MECHANISMS as readonly string[]).includes(name);
}

/** One term of an SPF record, as written and as read. */
export interface SpfTerm {
  /** The term as written, e.g. `-all`, `include:_spf.example.net`, `redirect=_spf.example.net`. */
  readonly text: string;
  readonly kind: "mechanism" | "modifier";
  /** The mechanism or modifier name, lower-cased. */
  readonly name: string;
  /** Mechanisms only: the qualifier, `+` when none is written. */
  readonly qualifier?: SpfQualifier;
  /** What follows the name and its `:` or `=`, when anything does (a CIDR length included). */
  readonly value?: string;
}

/** Something in a record that makes it a permanent error, with what to write instead. */
export interface SpfProblem {
  readonly problem: string;
  readonly fix: string;
}

/** An SPF record as read: its terms, its problems, and the terms that cost a DNS lookup. */
export interface SpfReading {
  readonly terms: readonly SpfTerm[];
  readonly problems: readonly SpfProblem[];
  /** The terms that each cost one DNS lookup (RFC 7208 §4.6.4), in record order. */
  readonly lookups: readonly string[];
}

// The patterns of this module are written where they are used, not as module constants: a module
// constant is made before any test runs, where mutation testing cannot change it.

/**
 * Whether a TXT content is an SPF record: it starts with the version `v=spf1` followed by a space
 * or nothing (RFC 7208 §4.5; `v=spf10` is not one).
 *
 * @example
 * isSpfRecord("v=spf1 -all"); // true
 */
export function isSpfRecord(content: string): boolean {
  return /^v=spf1(?: |$)/i.test(content);
}

/** Why a macro-string (RFC 7208 §7.1) is malformed, or `undefined`; and whether it ends in a macro. */
function macroString(text: string): { problem?: string; endsInMacro: boolean } {
  // Stryker disable next-line BooleanLiteral: it is read only when the scan of a non-empty domain-spec ends without a problem, and each character sets it
  let endsInMacro = false;
  for (let i = 0; i < text.length; ) {
    const ch = text[i]!;
    if (ch === "%") {
      const next = text[i + 1];
      if (next === "%" || next === "_" || next === "-") {
        i += 2;
        endsInMacro = true;
        continue;
      }
      const macro = /^%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}/i.exec(text.slice(i));
      if (!macro) {
        return {
          problem: `"%" starts a macro such as %{d} or %{ir}, or is written "%%" for a literal "%" (RFC 7208 §7.1)`,
          endsInMacro,
        };
      }
      i += macro[0].length;
      endsInMacro = true;
      continue;
    }
    const code = ch.charCodeAt(0);
    if (code < 0x21 || code > 0x7e) {
      return {
        problem: `it holds ${JSON.stringify(ch)}, which no SPF domain can (RFC 7208 §7.1)`,
        endsInMacro,
      };
    }
    endsInMacro = false;
    i += 1;
  }
  return { endsInMacro };
}

/** Why a domain-spec (RFC 7208 §7.1: a macro-string ending in a top label or a macro) is malformed. */
function domainSpecProblem(spec: string): string | undefined {
  if (spec === "") return "it names no domain";
  const text = spec.replaceAll(DOMAIN_PLACEHOLDER, "example.com");
  const { problem, endsInMacro } = macroString(text);
  if (problem) return problem;
  if (endsInMacro) return undefined;
  const bare = text.endsWith(".") ? text.slice(0, -1) : text;
  const dot = bare.lastIndexOf(".");
  const toplabel = /^(?:[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]*|[A-Za-z0-9]+-[A-Za-z0-9-]*[A-Za-z0-9])$/;
  if (dot < 0 || !toplabel.test(bare.slice(dot + 1))) {
    return `"${spec}" is not a domain: it must end in a dot and a top label, e.g. "_spf.example.net" or "${DOMAIN_PLACEHOLDER}"`;
  }
  return undefined;
}

function cidrProblem(length: string, max: number): string | undefined {
  if (!/^(0|[1-9]\d{0,2})$/.test(length) || Number(length) > max) {
    return `/${length} is not a prefix length: it goes from 0 to ${max} without leading zeros`;
  }
  return undefined;
}

/** `a` and `mx`: `[":" domain-spec] [ip4-cidr-length] ["/" ip6-cidr-length]` (RFC 7208 §5.3, §5.4). */
function hostMechanismProblem(rest: string): string | undefined {
  // No ^ is needed: with the s flag, (.*?) can take everything, so the leftmost match starts at 0.
  const match = /(.*?)(?:\/(\d*))?(?:\/\/(\d*))?$/s.exec(rest)!;
  // Stryker disable next-line StringLiteral: group 1 always takes part in the match, so the default is never used
  const [, spec = "", v4, v6] = match;
  if (spec !== "") {
    if (!spec.startsWith(":")) return `it is followed by ${JSON.stringify(spec)}; write ":" before a domain`;
    const problem = domainSpecProblem(spec.slice(1));
    if (problem) return problem;
  }
  return (
    (v4 !== undefined ? cidrProblem(v4, 32) : undefined) ??
    (v6 !== undefined ? cidrProblem(v6, 128) : undefined)
  );
}

function networkProblem(name: "ip4" | "ip6", rest: string): string | undefined {
  if (!rest.startsWith(":"))
    return `${name} needs ":" and an address, e.g. ${name === "ip4" ? "ip4:192.0.2.0/24" : "ip6:2001:db8::/32"}`;
  const value = rest.slice(1);
  const slash = value.lastIndexOf("/");
  const address = slash < 0 ? value : value.slice(0, slash);
  const valid = name === "ip4" ? isIPv4(address) : isIPv6(address);
  if (!valid) return `${JSON.stringify(address)} is not an ${name === "ip4" ? "IPv4" : "IPv6"} address`;
  // Stryker disable next-line EqualityOperator: a "/" at 0 leaves an empty address, refused above
  return slash < 0 ? undefined : cidrProblem(value.slice(slash + 1), name === "ip4" ? 32 : 128);
}

/** Why a mechanism's part after its name is malformed (RFC 7208 §5), or `undefined`. */
function mechanismProblem(name: SpfMechanism, rest: string): string | undefined {
  switch (name) {
    case "all":
      return rest === "" ? undefined : `"all" takes nothing after it; got ${JSON.stringify(rest)}`;
    case "include":
    case "exists":
      if (!rest.startsWith(":")) return `${name} needs ":" and a domain, e.g. ${name}:_spf.example.net`;
      return domainSpecProblem(rest.slice(1));
    case "ptr":
      if (rest === "") return undefined;
      if (!rest.startsWith(":"))
        return `it is followed by ${JSON.stringify(rest)}; write ":" before a domain`;
      return domainSpecProblem(rest.slice(1));
    case "a":
    case "mx":
      return hostMechanismProblem(rest);
    case "ip4":
    case "ip6":
      return networkProblem(name, rest);
  }
}

function readTerm(text: string, problems: SpfProblem[]): SpfTerm | undefined {
  // With the s flag, (.*) takes the rest of the term whatever it holds: no end anchor is needed.
  const modifier = /^([A-Za-z][A-Za-z0-9._-]*)=(.*)/s.exec(text);
  if (modifier) {
    // Stryker disable next-line StringLiteral: both groups always take part in the match, so the defaults are never used
    const [, rawName = "", value = ""] = modifier;
    const name = rawName.toLowerCase();
    const problem =
      name === "redirect" || name === "exp" ? domainSpecProblem(value) : macroString(value).problem;
    if (problem) {
      problems.push({
        problem: `the modifier "${text}" is malformed: ${problem}`,
        fix: `correct or remove "${text}"`,
      });
    }
    return { text, kind: "modifier", name, value };
  }
  // No ^ is needed: every group can match empty, so the leftmost match starts at 0.
  // Stryker disable next-line StringLiteral: every group takes part in the match, so the defaults are never used
  const [, qualifier = "", rawName = "", rest = ""] = /([+\-~?]?)([A-Za-z0-9]*)(.*)/s.exec(text)!;
  const name = rawName.toLowerCase();
  if (!isMechanism(name)) {
    problems.push({
      problem: `"${text}" is not a mechanism: an SPF record holds only ${SPF_MECHANISMS.join(", ")} (each with an optional +, -, ~ or ? before it) and name=value modifiers`,
      fix: `correct or remove "${text}"`,
    });
    return undefined;
  }
  const problem = mechanismProblem(name, rest);
  if (problem) problems.push({ problem: `"${text}" is malformed: ${problem}`, fix: `correct "${text}"` });
  const term: SpfTerm = {
    text,
    kind: "mechanism",
    name,
    qualifier: (qualifier || "+") as SpfQualifier,
    ...(rest === "" ? {} : { value: rest.startsWith(":") ? rest.slice(1) : rest }),
  };
  return term;
}

/**
 * Reads an SPF record: its terms, its permanent errors (each with the fix), and the terms that cost
 * a DNS lookup. A content that is no SPF record (see {@link isSpfRecord}) reads as one problem.
 *
 * @example
 * readSpf("v=spf1 mx include:_spf.example.net -all").lookups; // ["mx", "include:_spf.example.net"]
 */
export function readSpf(content: string): SpfReading {
  if (!isSpfRecord(content)) {
    return {
      terms: [],
      lookups: [],
      problems: [{ problem: "the record does not start with v=spf1", fix: 'start it with "v=spf1 "' }],
    };
  }
  const problems: SpfProblem[] = [];
  const terms: SpfTerm[] = [];
  for (const text of content.slice("v=spf1".length).split(" ")) {
    if (text === "") continue; // terms are separated by one or more spaces (RFC 7208 §12)
    const term = readTerm(text, problems);
    if (term) terms.push(term);
  }
  for (const modifier of ["redirect", "exp"]) {
    // No mechanism is named redirect or exp: the name alone finds the modifier.
    const uses = terms.filter((t) => t.name === modifier);
    if (uses.length > 1) {
      problems.push({
        problem: `${modifier}= appears ${uses.length} times; it may appear at most once (RFC 7208 §6)`,
        fix: `keep one of ${uses.map((t) => `"${t.text}"`).join(", ")}`,
      });
    }
  }
  const all = terms.find((t) => t.kind === "mechanism" && t.name === "all");
  const redirect = terms.find((t) => t.name === "redirect"); // a modifier, as above
  if (all && redirect) {
    problems.push({
      problem: `"${redirect.text}" is never followed: "${all.text}" matches every sender first (RFC 7208 §6.1)`,
      fix: `remove "${all.text}" to use the redirect, or remove "${redirect.text}"`,
    });
  }
  const lookups = terms
    .filter((t) =>
      t.kind === "mechanism"
        ? ["include", "a", "mx", "ptr", "exists"].includes(t.name)
        : t.name === "redirect",
    )
    .map((t) => t.text);
  return { terms, problems, lookups };
}

/**
 * The `all` that decides a record, when it passes every host: RFC 7208 §5.1, `all` matches every
 * sender, so with the `+` qualifier (written, or implied by a bare `all`) the record authorises any
 * host on the Internet to send as the name. Only the first `all` counts: the terms after it are
 * never evaluated.
 *
 * @example
 * passingAll(readSpf("v=spf1 include:_spf.example.net all")); // { text: "all", ... }
 * passingAll(readSpf("v=spf1 mx -all +all")); // undefined
 */
export function passingAll(reading: SpfReading): SpfTerm | undefined {
  const all = reading.terms.find((t) => t.kind === "mechanism" && t.name === "all");
  // A malformed `all` (`all:x`) is a syntax error already, not a pass.
  return all?.qualifier === "+" && all.value === undefined ? all : undefined;
}
