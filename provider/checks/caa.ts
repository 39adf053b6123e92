/**
 * Reading a CAA record (RFC 8659): its flags, tag and value, what in them a CA cannot parse (and
 * so refuses to issue on), and whether the tag is one the IANA registry holds.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { DOMAIN_PLACEHOLDER } from "../dns/model";

/**
 * The tags of the IANA "Certification Authority Restriction Properties" registry (RFC 8659 §7.2,
 * with `contactemail` and `contactphone` of the CA/Browser Forum, `issuevmc` and `issuemail` of
 * RFC 9495).
 */
export const CAA_TAGS = [
  "issue",
  "issuewild",
  "iodef",
  "contactemail",
  "contactphone",
  "issuevmc",
  "issuemail",
] as const;

/** A tag of the registry: the only tags a builder makes. */
export type CaaTag = (typeof CAA_TAGS)[number];

/** The issuer critical flag (RFC 8659 §4.1): a CA that does not know the tag must not issue. */
export const CAA_CRITICAL = 128;

/** Something in a CAA record that a CA cannot parse, with what to write instead. */
export interface CaaProblem {
  readonly problem: string;
  readonly fix: string;
}

/** A CAA record as read. */
export interface CaaReading {
  readonly flags: number;
  readonly tag: string;
  readonly value: string;
  readonly problems: readonly CaaProblem[];
  /** Whether the tag is in the registry ({@link CAA_TAGS}), compared without case. */
  readonly known: boolean;
}

/** RFC 8659 §4.2: `[issuer-domain-name] [";" [parameters]]`, whitespace around each part. */
function issueValueProblem(tag: string, value: string): CaaProblem | undefined {
  // The patterns of this module are made where they are used, not as module constants, so that
  // mutation testing can change them (a module constant is made before any test runs).
  const label = "[A-Za-z0-9](?:-*[A-Za-z0-9])*";
  const [first, ...rest] = value.split(";");
  const issuer = first!.trim();
  const name = issuer.replaceAll(DOMAIN_PLACEHOLDER, "example.com");
  if (name !== "" && !new RegExp(`^${label}(?:\\.${label})*$`).test(name)) {
    return {
      problem: `"${issuer}" is not a CA's domain name, so no CA can read this ${tag} property`,
      fix: `write the CA's domain, e.g. ${tag} "letsencrypt.org", or ${tag} ";" to allow no CA`,
    };
  }
  const parameters = rest.join(";").trim();
  if (parameters === "") return undefined;
  for (const parameter of parameters.split(";").map((p) => p.trim())) {
    if (!new RegExp(`^(${label})[ \\t]*=[ \\t]*([\\x21-\\x3a\\x3c-\\x7e]*)$`).test(parameter)) {
      return {
        problem: `the parameter "${parameter}" is not key=value (letters, digits and "-" in the key; no spaces or ";" in the value)`,
        fix: `write parameters as ${tag} "ca.example.net; account=12345"`,
      };
    }
  }
  return undefined;
}

function valueProblem(tag: string, value: string): CaaProblem | undefined {
  switch (tag) {
    case "issue":
    case "issuewild":
    case "issuevmc":
    case "issuemail":
      return issueValueProblem(tag, value);
    case "iodef": {
      const url = URL.parse(value.replaceAll(DOMAIN_PLACEHOLDER, "example.com"));
      if (
        url !== null &&
        (url.protocol === "mailto:" || url.protocol === "http:" || url.protocol === "https:")
      )
        return undefined;
      return {
        problem: `iodef "${value}" is not a mailto:, http: or https: URL (RFC 8659 §4.4)`,
        fix: 'write iodef "mailto:security@example.com" or iodef "https://iodef.example.com/"',
      };
    }
    case "contactemail":
      return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)
        ? undefined
        : {
            problem: `contactemail "${value}" is not an e-mail address`,
            fix: 'write contactemail "security@example.com"',
          };
  }
  return undefined; // contactphone, and the tags outside the registry
}

/**
 * Reads a CAA content `flags tag "value"`. Problems: reserved flag bits set (only 128, the issuer
 * critical flag, is defined), and a value that is not of its tag's form.
 *
 * @example
 * readCaa('0 issue "%%%%%"').problems; // the issuer is not a domain name (RFC 8659 §4.2)
 */
export function readCaa(content: string): CaaReading {
  const match = /^(\d{1,3}) ([A-Za-z0-9]+) "([^"]*)"$/.exec(content);
  if (!match) {
    return {
      flags: 0,
      tag: "",
      value: "",
      known: false,
      problems: [
        { problem: 'the content is not flags tag "value"', fix: 'write e.g. 0 issue "letsencrypt.org"' },
      ],
    };
  }
  const flags = Number(match[1]);
  const tag = match[2]!.toLowerCase();
  const value = match[3]!;
  const problems: CaaProblem[] = [];
  // Any flags above 255 set a bit other than 128, so this also refuses what is no octet.
  if ((flags & ~CAA_CRITICAL) !== 0) {
    problems.push({
      problem: `the flags ${flags} set reserved bits: only 128 (issuer critical) is defined, every other bit must be 0`,
      fix: `write flags 0, or 128 to make the property critical`,
    });
  }
  const problem = valueProblem(tag, value);
  if (problem) problems.push(problem);
  return { flags, tag, value, problems, known: (CAA_TAGS as readonly string[]).includes(tag) };
}
