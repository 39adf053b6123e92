/**
 * What a domain publishes compared with what its template declares: the read the API lacks
 * (docs/behaviour.md, "Refresh by DNS"). Pure: declared records and the answers of an
 * authoritative server in, a verdict out; the questions to ask come from here too.
 *
 * Compared as DNS compares them: names and host names without case and trailing dot, IPv6 in one
 * form, TXT strings joined (a server splits long text at 255 bytes), CAA tags without case, TLSA
 * data as hex without case. `{domainname}` is the domain. A URL forward is served as an A and an
 * AAAA at its name (which addresses is the service's). A CNAME at a name answers for every type
 * there, so declared records of another type at a CNAME are not served. A wildcard's values at a
 * declared name are the wildcard's (an authoritative server synthesizes them where the name does
 * not exist), never another record's change or an extra. An NS record below the apex is a
 * delegation, which an authoritative server answers with a referral, not with the record: it is
 * not compared.
 */
import type { PublishedType, PublishedValue, RRset } from "../client/resolver";
import { canonicalIPv6 } from "../dns/ipv6";
import { canonicalOrder, DOMAIN_PLACEHOLDER, RECORD_MODEL, type RecordSpec } from "../dns/model";

/** One question to ask: an absolute name and a type. */
export interface Question {
  name: string;
  type: PublishedType;
}

/** A declared record whose published values differ: the first published value it pairs with. */
export interface Difference<R extends RecordSpec = RecordSpec> {
  declared: R;
  /** What is published in its place, as a record (host names under the domain as `{domainname}`). */
  published: RecordSpec;
}

/** The comparison of one domain. */
export interface Verdict<R extends RecordSpec = RecordSpec> {
  domain: string;
  /** Declared records the domain serves as declared. */
  served: R[];
  /** Declared records it does not serve, and nothing in their place. */
  missing: R[];
  /** Declared records served with other values. */
  different: Difference<R>[];
  /** Values at a declared name and type that no declared record accounts for (only with `purge`). */
  extra: RecordSpec[];
  /** Declared records DNS cannot show, with why. */
  unchecked: { record: R; reason: string }[];
}

const URL_FORWARDS = new Set(["URLFWD", "URLFWD301", "URLCLO"]);

function bare(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

/** `name` of a record as an absolute owner in `domain`. */
export function ownerName(name: string, domain: string): string {
  const lower = name.toLowerCase();
  return lower === "@" || lower === "" ? domain : `${lower}.${domain}`;
}

function relativeName(owner: string, domain: string): string {
  return owner === domain ? "@" : owner.slice(0, -(domain.length + 1));
}

/** True for an NS record below the apex: a delegation, answered by a referral. */
function isDelegation(r: RecordSpec): boolean {
  return r.type === "NS" && r.name !== "@";
}

const key = (name: string, type: string) => `${name} ${type}`;

/**
 * The questions that show what `records` publish on `domain`: each declared name and type (A and
 * AAAA for a URL forward), and the CNAME of every name declared with another type.
 *
 * @example
 * questionsFor([{ name: "www", type: "A", content: "192.0.2.1" }], "shop.example");
 * // [{ name: "www.shop.example", type: "A" }, { name: "www.shop.example", type: "CNAME" }]
 */
export function questionsFor(records: readonly RecordSpec[], domain: string): Question[] {
  const seen = new Set<string>();
  const questions: Question[] = [];
  const add = (name: string, type: PublishedType) => {
    if (seen.has(key(name, type))) return;
    seen.add(key(name, type));
    questions.push({ name, type });
  };
  for (const r of records) {
    if (isDelegation(r)) continue;
    const owner = ownerName(r.name, domain);
    if (URL_FORWARDS.has(r.type)) {
      add(owner, "A");
      add(owner, "AAAA");
    } else add(owner, r.type as PublishedType);
    add(owner, "CNAME"); // asked once, a CNAME record's own question included
  }
  return questions;
}

/** The one spelling of a published value that compares equal with a declared one. */
function valueKey(v: PublishedValue): string {
  switch (v.type) {
    // Stryker disable next-line ConditionalExpression: an IPv4 address is not IPv6, which canonicalIPv6 returns unchanged
    case "A":
      return v.value;
    case "AAAA":
      return canonicalIPv6(v.value);
    case "CNAME":
    case "NS":
      return bare(v.value);
    case "MX":
      return `${v.priority} ${bare(v.exchange)}`;
    case "SRV":
      return `${v.priority} ${v.weight} ${v.port} ${bare(v.target)}`;
    case "TXT":
      return v.strings.join("");
    case "CAA":
      return `${v.flags} ${v.tag.toLowerCase()} "${v.value}"`;
    case "TLSA":
      return `${v.usage} ${v.selector} ${v.matchingType} ${v.data.toLowerCase()}`;
  }
}

/** The published value a declared record (not a URL forward) makes on `domain`, as {@link valueKey} spells it. */
function declaredKey(r: RecordSpec, domain: string): string {
  const content = r.content.replaceAll(DOMAIN_PLACEHOLDER, domain);
  switch (r.type) {
    case "AAAA":
      return canonicalIPv6(content);
    case "CNAME":
    case "NS":
      return bare(content);
    case "MX":
      return `${r.priority ?? 0} ${bare(content)}`;
    case "SRV":
      return `${r.priority ?? 0} ${r.weight ?? 0} ${r.port ?? 0} ${bare(content)}`;
    case "CAA": {
      const m = /^(\d{1,3})\s+([A-Za-z0-9]+)\s+"([^"]*)"$/.exec(content);
      return m ? `${Number(m[1])} ${m[2]!.toLowerCase()} "${m[3]}"` : content;
    }
    case "TLSA": {
      const m = /^(\d+)\s+(\d+)\s+(\d+)\s+([0-9A-Fa-f]*)$/.exec(content);
      return m ? `${Number(m[1])} ${Number(m[2])} ${Number(m[3])} ${m[4]!.toLowerCase()}` : content;
    }
    default:
      return content;
  }
}

/** A host name as a template writes it: absolute, the domain as `{domainname}`. */
function templated(host: string, domain: string): string {
  const name = bare(host);
  if (name === domain) return `${DOMAIN_PLACEHOLDER}.`;
  if (name.endsWith(`.${domain}`)) return `${name.slice(0, -domain.length)}${DOMAIN_PLACEHOLDER}.`;
  return `${name}.`;
}

/**
 * A published value as a record of the template at `name` (relative), host names under the domain
 * written with `{domainname}`.
 */
export function publishedRecord(name: string, v: PublishedValue, domain: string): RecordSpec {
  switch (v.type) {
    case "A":
      return { name, type: "A", content: v.value };
    case "AAAA":
      return { name, type: "AAAA", content: canonicalIPv6(v.value) };
    case "CNAME":
    case "NS":
      return { name, type: v.type, content: templated(v.value, domain) };
    case "MX":
      return { name, type: "MX", content: templated(v.exchange, domain), priority: v.priority };
    case "SRV":
      return {
        name,
        type: "SRV",
        content: templated(v.target, domain),
        priority: v.priority,
        weight: v.weight,
        port: v.port,
      };
    case "TXT":
      return { name, type: "TXT", content: v.strings.join("") };
    case "CAA":
      return { name, type: "CAA", content: `${v.flags} ${v.tag.toLowerCase()} "${v.value}"` };
    case "TLSA":
      return {
        name,
        type: "TLSA",
        content: `${v.usage} ${v.selector} ${v.matchingType} ${v.data.toLowerCase()}`,
      };
  }
}

/**
 * The nearest declared wildcard above `owner` (`*.a.b` covers `x.a.b` and `y.x.a.b`), if any:
 * `owners` are the declared owners, all under the domain, so no wildcard is found above it.
 */
function coveringWildcard(owner: string, owners: ReadonlySet<string>): string | undefined {
  let at = owner;
  while (at.includes(".")) {
    at = at.slice(at.indexOf(".") + 1);
    if (owners.has(`*.${at}`)) return `*.${at}`;
  }
  return undefined;
}

/**
 * Compares what `declared` (normalized records of a template, `{domainname}` unreplaced) publish on
 * `domain` with `answers` (one per question of {@link questionsFor}). With `purge`, values at a
 * declared name and type that no declared record accounts for are extras; without, they may be
 * another resource's and are left alone.
 *
 * @example
 * const verdict = comparePublished(records, "shop.example", answers, true);
 * verdict.missing; // declared records the domain does not serve
 */
export function comparePublished<R extends RecordSpec>(
  declared: readonly R[],
  domain: string,
  answers: readonly RRset[],
  purge: boolean,
): Verdict<R> {
  const verdict: Verdict<R> = { domain, served: [], missing: [], different: [], extra: [], unchecked: [] };
  const byQuestion = new Map(answers.map((a) => [key(a.name, a.type), a]));
  const answerOf = (name: string, type: string) => byQuestion.get(key(name, type));
  const owners = new Set(declared.map((r) => ownerName(r.name, domain)));
  // The declared records of each owner and type, and the values a wildcard accounts for there.
  const groups = new Map<string, { owner: string; type: string; records: R[] }>();
  for (const r of canonicalOrder(declared)) {
    if (isDelegation(r)) {
      verdict.unchecked.push({
        record: r,
        reason:
          "an NS record below the apex is a delegation: servers answer it with a referral, not the record",
      });
      continue;
    }
    const owner = ownerName(r.name, domain);
    const group = groups.get(key(owner, r.type)) ?? { owner, type: r.type, records: [] };
    group.records.push(r);
    groups.set(key(owner, r.type), group);
  }
  const wildcardValues = (owner: string, type: string): Set<string> => {
    const wildcard = coveringWildcard(owner, owners);
    const values = wildcard === undefined ? [] : (answerOf(wildcard, type)?.values ?? []);
    return new Set(values.map(valueKey));
  };
  for (const { owner, type, records } of groups.values()) {
    // A CNAME answers for every type at its name: a record of another type there is not served.
    const cname = type === "CNAME" ? undefined : answerOf(owner, "CNAME");
    const wildCname = wildcardValues(owner, "CNAME");
    const aliased = (cname?.values ?? []).filter((v) => !wildCname.has(valueKey(v)));
    if (aliased.length > 0) {
      const target = publishedRecord(relativeName(owner, domain), aliased[0]!, domain);
      for (const r of records) verdict.different.push({ declared: r, published: target });
      if (purge && !URL_FORWARDS.has(type)) {
        // The CNAME is at a declared name: an extra unless the template declares it.
        const declaredCname = groups.get(key(owner, "CNAME"));
        if (declaredCname === undefined) verdict.extra.push(target);
      }
      continue;
    }
    if (URL_FORWARDS.has(type)) {
      // Served when the name has an A and an AAAA (the addresses are the service's).
      const a = answerOf(owner, "A")?.values.length ?? 0;
      const aaaa = answerOf(owner, "AAAA")?.values.length ?? 0;
      for (const r of records) {
        if (a > 0 && aaaa > 0) verdict.served.push(r);
        else verdict.missing.push(r);
      }
      continue;
    }
    const answer = answerOf(owner, type);
    const published = [...(answer?.values ?? [])];
    const left: R[] = [];
    for (const r of records) {
      const wanted = declaredKey(r, domain);
      const at = published.findIndex((v) => valueKey(v) === wanted);
      if (at >= 0) {
        published.splice(at, 1);
        verdict.served.push(r);
      } else left.push(r);
    }
    const fromWildcard = owner.startsWith("*.") ? new Set<string>() : wildcardValues(owner, type);
    const unexplained = published.filter((v) => !fromWildcard.has(valueKey(v)));
    const name = relativeName(owner, domain);
    const shown = canonicalOrder(unexplained.map((v) => publishedRecord(name, v, domain)));
    left.forEach((r, i) => {
      const instead = shown[i];
      if (instead === undefined) verdict.missing.push(r);
      else verdict.different.push({ declared: r, published: instead });
    });
    if (purge) verdict.extra.push(...shown.slice(left.length));
  }
  // A and AAAA at a forward's name are the forward's; the rest of the verdict is in canonical order.
  verdict.extra = canonicalOrder(verdict.extra);
  return verdict;
}

/** True when the domain serves every declared record as declared and nothing extra. */
export function verdictPasses(verdict: Verdict): boolean {
  return verdict.missing.length === 0 && verdict.different.length === 0 && verdict.extra.length === 0;
}

/** Whether `type` is a record type a template declares (not a forward). */
export function isPublishedType(type: string): type is PublishedType {
  return Object.hasOwn(RECORD_MODEL, type) && !URL_FORWARDS.has(type);
}
