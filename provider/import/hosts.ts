/**
 * What DNS hosts write into comments of their exports, read: Route 53's routing policies as cli53
 * writes them (`; AWS routing="WEIGHTED" weight=10 identifier="a"`), and Cloudflare's record flags
 * (`; cf_tags=cf-proxied:true`). A record with a routing policy is skipped (merging it into a plain
 * set would publish every answer at once); a host's flag is dropped from an imported record, said.
 */

/** The key=value pairs of a cli53 `AWS` comment, strings unquoted. */
function awsKeyValues(comment: string): Map<string, string> | undefined {
  if (!/^\s*AWS\s/.test(comment)) return undefined;
  const values = new Map<string, string>();
  // "AWS" itself is no key=value pair: the whole comment can be scanned.
  for (const [, key, quoted, number] of comment.matchAll(/([A-Za-z]+)=(?:"((?:[^"\\]|\\.)*)"|(\d+))/g)) {
    values.set(key as string, quoted === undefined ? (number as string) : quoted.replace(/\\(.)/g, "$1"));
  }
  return values;
}

const ROUTING: Record<string, (kv: Map<string, string>) => string> = {
  WEIGHTED: (kv) =>
    `a Route 53 weighted record (weight ${kv.get("weight") ?? "?"}): Route 53 answers one record of the set at a time, in proportion to the weights`,
  FAILOVER: (kv) =>
    `a Route 53 failover record (${kv.get("failover") ?? "?"}): Route 53 answers the secondary only while the primary fails its health check`,
  LATENCY: (kv) =>
    `a Route 53 latency record (region ${kv.get("region") ?? "?"}): Route 53 answers the region with the lowest latency to the client`,
  GEOLOCATION: (kv) => {
    const where = ["continentCode", "countryCode", "subdivisionCode"]
      .filter((k) => kv.has(k))
      .map((k) => `${k} ${kv.get(k)}`)
      .join(", ");
    return `a Route 53 geolocation record (${where || "default location"}): Route 53 answers by the client's location`;
  },
  MULTIVALUE: () =>
    "a Route 53 multivalue answer record: Route 53 answers only the records whose health checks pass",
};

/**
 * Why a record is skipped for its routing policy, or undefined when it has none.
 *
 * @param comments the `;` comments of the record's lines (cli53 writes the policy there)
 * @example
 * routingPolicy([' AWS routing="WEIGHTED" weight=10 identifier="a"']); // "a Route 53 weighted record ..."
 */
export function routingPolicy(comments: readonly string[]): string | undefined {
  for (const comment of comments) {
    const kv = awsKeyValues(comment);
    const routing = kv?.get("routing");
    if (kv === undefined || routing === undefined) continue;
    const what =
      ROUTING[routing.toUpperCase()]?.(kv) ?? `a Route 53 record with the ${routing} routing policy`;
    const identifier = kv.has("identifier") ? ` (identifier ${JSON.stringify(kv.get("identifier"))})` : "";
    return (
      `${what}${identifier}; the API publishes every record at a name at once, so merging it into a plain ` +
      "set would answer all of them; declare the answer you want at that name by hand"
    );
  }
  return undefined;
}

/** Cloudflare's tags of a record comment: the text after the last `cf_tags=`, split at commas outside quotes. */
function cloudflareTags(comments: readonly string[]): Map<string, string> {
  const tags = new Map<string, string>();
  const comment = comments.findLast((c) => c.includes("cf_tags="));
  if (comment === undefined) return tags;
  // Each item is trimmed: the list needs not be.
  const list = comment.slice(comment.lastIndexOf("cf_tags=") + "cf_tags=".length);
  for (const [item] of list.matchAll(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g)) {
    const colon = item.indexOf(":");
    // Stryker disable next-line EqualityOperator: an item starting with ":" names no flag, read either way
    const name = (colon < 0 ? item : item.slice(0, colon)).trim();
    // Stryker disable next-line EqualityOperator,ConditionalExpression,StringLiteral: an item starting with ":" has the empty name, which is no flag; the value of an item without ":" is never read as "true" (only cf-proxied's value is read, and "cf-proxied" is not "true")
    let value = colon < 0 ? "" : item.slice(colon + 1).trim();
    try {
      const parsed: unknown = JSON.parse(value);
      // A quoted value is unquoted; `true` unquoted stays the text it is.
      if (typeof parsed === "string") value = parsed;
    } catch {
      // A value that is no JSON is kept as written.
    }
    tags.set(name, value);
  }
  return tags;
}

/**
 * The DNS host's own settings of a record that the import drops, each said with what it changes.
 *
 * @param comments the `;` comments of the record's lines (Cloudflare writes `cf_tags=` there)
 * @example
 * hostFlags([" cf_tags=cf-proxied:true"], "A"); // ["Cloudflare's proxying (cf-proxied:true) dropped: ..."]
 */
export function hostFlags(comments: readonly string[], type: string): string[] {
  const tags = cloudflareTags(comments);
  const flags: string[] = [];
  if (tags.get("cf-proxied")?.toLowerCase() === "true") {
    flags.push(
      "Cloudflare's proxying (cf-proxied:true) dropped: the API has no proxy, so this name will answer " +
        `with the ${type} record's own value instead of Cloudflare's addresses, and the server behind it is no longer hidden`,
    );
  }
  if (tags.has("cf-flatten-cname")) {
    flags.push(
      "Cloudflare's CNAME flattening (cf-flatten-cname) dropped: the name will answer with the CNAME itself, " +
        "not the addresses of its target",
    );
  }
  return flags;
}
