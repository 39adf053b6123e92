/**
 * Reading a DMARC record (RFC 7489 §6.3, formal definition §6.4): its tags and what in it a
 * receiver cannot parse, each with the fix.
 *
 * This module knows neither HTTP nor Pulumi.
 */
import { DOMAIN_PLACEHOLDER } from "../dns/model";

/** A DMARC policy (RFC 7489 §6.3, `p` and `sp`). */
export type DmarcPolicy = "none" | "quarantine" | "reject";

/** Something a receiver cannot parse, with what to write instead. */
export interface DmarcProblem {
  readonly problem: string;
  readonly fix: string;
}

/** A DMARC record as read: its tags in order (names lower-cased) and its problems. */
export interface DmarcReading {
  readonly tags: ReadonlyArray<readonly [name: string, value: string]>;
  readonly problems: readonly DmarcProblem[];
}

/**
 * Whether a TXT content presents itself as a DMARC record (its first tag is `v=DMARC1`); at a
 * `_dmarc` name any TXT is read as one, since a receiver takes every record there.
 *
 * @example
 * isDmarcRecord("v=DMARC1; p=none"); // true
 */
export function isDmarcRecord(content: string): boolean {
  return /^v[ \t]*=[ \t]*DMARC1[ \t]*(;|$)/.test(content);
}

/** Why one reporting URI (RFC 7489 §6.2, §6.4 `dmarc-uri`) will not be used, or `undefined`. */
function uriProblem(tag: string, raw: string): DmarcProblem | undefined {
  // The URI and what follows its first "!" (§6.4: a "!" inside the URI itself is encoded). The
  // patterns of this module are written where they are used, not as module constants: each is then
  // made when its check runs, which is what mutation testing needs to change it.
  // Every part of the pattern may be empty and (.*) with s runs to the end: it always matches the
  // whole text from its start, so it needs no anchors.
  const [, uri, size] = /([^!]*)(?:!(.*))?/s.exec(raw)!;
  const concrete = uri!.replaceAll(DOMAIN_PLACEHOLDER, "example.com");
  if (/^[^:@\s]+@[^@\s]+$/.test(concrete)) {
    return {
      problem: `${tag} address "${raw}" is not a URI`,
      fix: `write ${tag}=mailto:${raw}`,
    };
  }
  if (!URL.canParse(concrete)) {
    return {
      problem: `${tag} value "${raw}" is not a URI`,
      fix: `give a mailto: URI, e.g. ${tag}=mailto:dmarc@example.com`,
    };
  }
  const url = new URL(concrete);
  if (url.protocol === "mailto:") {
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(decodeURIComponent(url.pathname))) {
      return {
        problem: `${tag} URI "${raw}" names no e-mail address`,
        fix: `write ${tag}=mailto:dmarc@example.com`,
      };
    }
  } else if (url.protocol !== "https:" && url.protocol !== "http:") {
    return {
      problem: `${tag} URI "${raw}" has the scheme ${url.protocol}, which receivers do not send reports to (RFC 7489 §6.2: mailto: is the one every receiver supports)`,
      fix: `use a mailto: URI, e.g. ${tag}=mailto:dmarc@example.com`,
    };
  }
  // §6.2: a whole number, then optionally k, m, g or t (ABNF letters match either case).
  if (size !== undefined && !/^\d+[kmgt]?$/i.test(size)) {
    return {
      problem: `${tag} URI "${raw}" has a malformed size limit "!${size}"`,
      fix: 'write "!" then a whole number and optionally k, m, g or t, e.g. !10m, or drop the "!"',
    };
  }
  return undefined;
}

/** Why a tag's value is not what RFC 7489 §6.4 allows, or `undefined`. */
function valueProblem(name: string, value: string): DmarcProblem | undefined {
  const lower = value.toLowerCase();
  switch (name) {
    case "p":
    case "sp":
      return lower === "none" || lower === "quarantine" || lower === "reject"
        ? undefined
        : {
            problem: `${name}=${value} is not a policy`,
            fix: `write ${name}=none, ${name}=quarantine or ${name}=reject`,
          };
    case "adkim":
    case "aspf":
      return lower === "r" || lower === "s"
        ? undefined
        : {
            problem: `${name}=${value} is not an alignment mode`,
            fix: `write ${name}=r (relaxed) or ${name}=s (strict)`,
          };
    case "pct":
      return /^\d{1,3}$/.test(value) && Number(value) <= 100
        ? undefined
        : {
            problem: `pct=${value} is not a percentage`,
            fix: "write pct= with a whole number from 0 to 100",
          };
    case "ri":
      return /^\d+$/.test(value) && Number(value) <= 0xffffffff
        ? undefined
        : {
            problem: `ri=${value} is not a number of seconds`,
            fix: "write ri= with whole seconds, e.g. ri=86400",
          };
    case "fo":
      return /^[01ds](?:[ \t]*:[ \t]*[01ds])*$/i.test(value)
        ? undefined
        : {
            problem: `fo=${value} is not a list of failure options`,
            fix: "write fo= with 0, 1, d or s, separated by ':', e.g. fo=1:d",
          };
    case "rf":
      return /^[A-Za-z0-9-]+(?:[ \t]*:[ \t]*[A-Za-z0-9-]+)*$/.test(value)
        ? undefined
        : { problem: `rf=${value} is not a list of report formats`, fix: "write rf=afrf" };
    case "rua":
    case "ruf":
      if (value === "")
        return {
          problem: `${name}= is empty`,
          fix: `give a URI, e.g. ${name}=mailto:dmarc@example.com, or remove the tag`,
        };
      for (const uri of value.split(",")) {
        const problem = uriProblem(name, uri.trim());
        if (problem) return problem;
      }
      return undefined;
  }
  return undefined; // v, and the tags a receiver ignores
}

/**
 * Reads a DMARC record: `v=DMARC1` first, then `p` (required), each tag at most once, each value
 * of its form. Unknown tags are kept and not a problem: receivers ignore them (RFC 7489 §6.3).
 *
 * @example
 * readDmarc("v=DMARC1; p=quarantine; pct=150").problems;
 * // [{ problem: "pct=150 is not a percentage", fix: "write pct= with a whole number from 0 to 100" }]
 */
export function readDmarc(content: string): DmarcReading {
  const problems: DmarcProblem[] = [];
  const tags: Array<[string, string]> = [];
  const parts = content.split(";").map((part) => part.trim());
  for (const [index, part] of parts.entries()) {
    if (part === "") {
      if (index === parts.length - 1) continue; // a trailing ";" is allowed (and "" is no empty tag)
      problems.push({ problem: 'an empty tag (";;" or a leading ";")', fix: 'separate tags with one ";"' });
      continue;
    }
    // (.*) with the s flag runs to the end of the part, so no "$" is needed.
    const match = /^([A-Za-z0-9_]+)[ \t]*=[ \t]*(.*)/s.exec(part);
    if (!match) {
      problems.push({
        problem: `"${part}" is not a tag=value pair`,
        fix: `write it as tag=value, or remove it`,
      });
      continue;
    }
    tags.push([match[1]!.toLowerCase(), match[2]!.trim()]);
  }
  const [first] = tags;
  if (first === undefined || first[0] !== "v" || first[1] !== "DMARC1") {
    problems.unshift({
      problem: `a DMARC record starts with v=DMARC1 (exactly so), and this one starts with "${content.slice(0, 20)}"`,
      fix: 'start it with "v=DMARC1; p=none" (or quarantine or reject)',
    });
  }
  if (!tags.some(([name]) => name === "p")) {
    problems.push({
      problem: "the record has no policy (p=)",
      fix: 'add "p=none" (or quarantine or reject) right after v=DMARC1',
    });
  }
  // The tags §6.3 defines: one of them twice is an error; a receiver ignores any other tag.
  const defined = new Set(["v", "p", "sp", "rua", "ruf", "adkim", "aspf", "ri", "fo", "rf", "pct"]);
  const seen = new Set<string>();
  for (const [name, value] of tags) {
    if (seen.has(name) && defined.has(name)) {
      problems.push({ problem: `the tag ${name} appears more than once`, fix: `keep one ${name}=` });
    }
    seen.add(name);
    const problem = valueProblem(name, value);
    if (problem) problems.push(problem);
  }
  return { tags, problems };
}
