/**
 * The benchmark templates' ids and records, apart from the stacks so that a benchmark that talks
 * to a plugin directly can use them without installing the package (bench/lib/package.ts installs
 * on import).
 */
import type { RecordArgs } from "./records.ts";

/** The records of benchmark resource `i`: ten, of the common types. */
export function resourceRecords(i: number): RecordArgs[] {
  return [
    { name: "@", type: "A", content: `192.0.2.${(i % 250) + 1}` },
    { name: "@", type: "AAAA", content: `2001:db8::${(i + 1).toString(16)}` },
    { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
    { name: "@", type: "MX", content: "mx2.example.net", priority: 20 },
    { name: "@", type: "TXT", content: `v=spf1 include:_spf${i}.example.net -all` },
    { name: "www", type: "CNAME", content: "{domainname}." },
    { name: "api", type: "A", content: `198.51.100.${(i % 250) + 1}` },
    { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=quarantine" },
    { name: "_sip._tcp", type: "SRV", content: "sip.example.net", priority: 10, weight: 5, port: 5060 },
    { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  ];
}

/** The template id of benchmark resource `i`. */
export function templateOf(i: number): string {
  return `bench-${String(i).padStart(4, "0")}`;
}

/**
 * The checked inputs DnsTemplateRecords stores for benchmark resource `i` (settings with their
 * defaults, records keyed `name/type`, or `name/type/content` where two share a name and type):
 * the inputs of the "state floor", which stores the same state as the real resource. The
 * benchmark checks them against the real resource's exported inputs, so a change of the key scheme
 * cannot make the two drift apart unseen.
 */
export function checkedInputsOf(i: number): Record<string, unknown> {
  const records = resourceRecords(i);
  const shared = (r: RecordArgs): boolean =>
    records.filter((o) => o.name === r.name && o.type === r.type).length > 1;
  const keyed = records.map((r) => [
    shared(r) ? `${r.name}/${r.type}/${r.content}` : `${r.name}/${r.type}`,
    r,
  ]);
  return {
    purge: true,
    records: Object.fromEntries(keyed),
    safetyThreshold: { maxChangePercent: 30, minExistingRecords: 10 },
    templateId: templateOf(i),
  };
}
