/**
 * What DNS hosts write in the comments of their exports, as a user of the import meets it: each
 * Route 53 routing policy cli53 writes (`; AWS routing="..." ...`, cli53's export of
 * ResourceRecordSets with a SetIdentifier) skipped with what Route 53 does and why the API cannot,
 * and Cloudflare's record tags (`; cf_tags=cf-proxied:true`, its export) dropped from an imported
 * record, each said.
 */
import { describe, expect, it } from "vitest";
import { importZones } from "../../../provider/import";

const TAIL =
  "; the API publishes every record at a name at once, so merging it into a plain set would answer all of them; declare the answer you want at that name by hand";

function read(records: string[]) {
  const [t] = importZones([
    { text: `$ORIGIN example.net.\n${records.join("\n")}\n`, file: "example.net.zone" },
  ]);
  if (!t) throw new Error("no template");
  return t;
}

const reasons = (records: string[]) => read(records).skipped.map((s) => s.reason);

describe("Route 53 routing policies, as cli53 writes them", () => {
  it("says what each policy does, with its weight, role, region or location and identifier", () => {
    expect(
      reasons([
        'w\t60\tIN\tA\t192.0.2.1 ; AWS routing="WEIGHTED" weight=10 identifier="blue"',
        'a\t60\tIN\tA\t192.0.2.2 ; AWS routing="FAILOVER" failover="SECONDARY" identifier="s"',
        'b\t60\tIN\tA\t192.0.2.3 ; AWS routing="LATENCY" region="eu-west-1" identifier="dublin"',
        'c\t60\tIN\tA\t192.0.2.4 ; AWS routing="GEOLOCATION" identifier="default"',
        'd\t60\tIN\tA\t192.0.2.5 ; AWS routing="GEOLOCATION" continentCode="EU" countryCode="DE" subdivisionCode="BY" identifier="by"',
        'e\t60\tIN\tA\t192.0.2.6 ; AWS routing="MULTIVALUE" identifier="one"',
        'f\t60\tIN\tA\t192.0.2.7 ; AWS routing="CIDR" identifier="office"',
      ]),
    ).toEqual([
      `a Route 53 weighted record (weight 10): Route 53 answers one record of the set at a time, in proportion to the weights (identifier "blue")${TAIL}`,
      `a Route 53 failover record (SECONDARY): Route 53 answers the secondary only while the primary fails its health check (identifier "s")${TAIL}`,
      `a Route 53 latency record (region eu-west-1): Route 53 answers the region with the lowest latency to the client (identifier "dublin")${TAIL}`,
      `a Route 53 geolocation record (default location): Route 53 answers by the client's location (identifier "default")${TAIL}`,
      `a Route 53 geolocation record (continentCode EU, countryCode DE, subdivisionCode BY): Route 53 answers by the client's location (identifier "by")${TAIL}`,
      `a Route 53 multivalue answer record: Route 53 answers only the records whose health checks pass (identifier "one")${TAIL}`,
      `a Route 53 record with the CIDR routing policy (identifier "office")${TAIL}`,
    ]);
  });

  it("reads the policy in any case, and says ? for a value cli53 left out", () => {
    expect(
      reasons([
        'g\t60\tIN\tA\t192.0.2.8 ; AWS routing="weighted"',
        'h\t60\tIN\tA\t192.0.2.9 ; AWS routing="FAILOVER"',
        'k\t60\tIN\tA\t192.0.2.11 ; AWS routing="LATENCY" identifier="q\\"u\\"ote"',
      ]),
    ).toEqual([
      `a Route 53 weighted record (weight ?): Route 53 answers one record of the set at a time, in proportion to the weights${TAIL}`,
      `a Route 53 failover record (?): Route 53 answers the secondary only while the primary fails its health check${TAIL}`,
      `a Route 53 latency record (region ?): Route 53 answers the region with the lowest latency to the client (identifier "q\\"u\\"ote")${TAIL}`,
    ]);
  });

  it("imports a record whose comment names no policy, or is no AWS comment", () => {
    const t = read([
      'i\t60\tIN\tA\t192.0.2.1 ; AWS identifier="x"',
      'j\t60\tIN\tA\t192.0.2.2 ; note AWS routing="WEIGHTED"',
      "k\t60\tIN\tA\t192.0.2.3 ; AWSrouting=1",
    ]);
    expect(t.records.map((r) => r.record.name)).toEqual(["i", "j", "k"]);
    expect(t.skipped).toEqual([]);
  });

  it("reads the AWS comment with any blanks before AWS, a tab or several after it", () => {
    const t = read([
      'a\t60\tIN\tA\t192.0.2.1 ;AWS routing="WEIGHTED" weight=1 identifier="x"',
      'b\t60\tIN\tA\t192.0.2.2 ;\t  AWS\t routing="LATENCY" region="us-east-1"',
    ]);
    expect(t.records).toEqual([]);
    expect(t.skipped.map((s) => s.reason.split(":")[0])).toEqual([
      "a Route 53 weighted record (weight 1)",
      "a Route 53 latency record (region us-east-1)",
    ]);
  });

  it("skips a weighted record whose identifier holds a line separator", () => {
    const t = read(['w\t60\tIN\tA\t192.0.2.1 ; AWS routing="WEIGHTED" weight=1 identifier="a\u2028b"']);
    expect(t.records).toEqual([]);
    expect(t.skipped[0]?.reason).toContain('(identifier "a\u2028b")');
  });

  it("reads the policy from a later comment of a record spread over lines", () => {
    const t = read(['w\t60\tIN\tTXT\t( "x" ; first\n "y" ) ; AWS routing="MULTIVALUE"']);
    expect(t.skipped[0]?.reason).toMatch(/^a Route 53 multivalue answer record/);
  });
});

describe("Cloudflare's record tags", () => {
  const PROXIED = (type: string) =>
    `Cloudflare's proxying (cf-proxied:true) dropped: the API has no proxy, so this name will answer with the ${type} record's own value instead of Cloudflare's addresses, and the server behind it is no longer hidden`;
  const FLATTENED =
    "Cloudflare's CNAME flattening (cf-flatten-cname) dropped: the name will answer with the CNAME itself, not the addresses of its target";

  it("drops proxying and CNAME flattening from the record, each said with its line", () => {
    const t = read([
      "www.example.net.\t1\tIN\tA\t192.0.2.1 ; cf_tags=cf-proxied:true",
      "v6.example.net.\t1\tIN\tAAAA\t2001:db8::1 ; cf_tags=cf-proxied:TRUE",
      "app.example.net.\t1\tIN\tCNAME\tfoo.example.org. ; cf_tags=cf-proxied:true,cf-flatten-cname",
      "off.example.net.\t1\tIN\tA\t192.0.2.2 ; cf_tags=cf-proxied:false",
    ]);
    expect(t.records.map((r) => r.record.name)).toEqual(["www", "v6", "app", "off"]);
    expect(t.dropped).toEqual([
      { line: 2, change: PROXIED("A") },
      { line: 3, change: PROXIED("AAAA") },
      { line: 4, change: PROXIED("CNAME") },
      { line: 4, change: FLATTENED },
    ]);
  });

  it("reads the last cf_tags= of the record, quoted values and blanks around them", () => {
    const t = read([
      'a.example.net.\t1\tIN\tA\t192.0.2.1 ; cf_tags=cf-proxied:false ; cf_tags= team:"a,b" , cf-proxied : "true" ',
      'b.example.net.\t1\tIN\tA\t192.0.2.2 ; cf_tags=cf-proxied:true ; cf_tags=cf-proxied:"no"',
      'c.example.net.\t1\tIN\tA\t192.0.2.3 ; cf_tags=cf-proxied:"tru',
      "d.example.net.\t1\tIN\tA\t192.0.2.4 ; cf_tags=cf-proxied",
      "e.example.net.\t1\tIN\tA\t192.0.2.5 ; cf-proxied:true",
      // One comment, two lists: the last.
      "f.example.net.\t1\tIN\tA\t192.0.2.6 ; cf_tags=cf-proxied:false cf_tags=cf-proxied:true",
      "g.example.net.\t1\tIN\tA\t192.0.2.7 ; cf_tags=cf-proxied:true cf_tags=team:web",
      // A comma or an escaped quote inside a quoted value ends no item.
      'h.example.net.\t1\tIN\tA\t192.0.2.8 ; cf_tags=note:"x,cf-proxied:true,y"',
      'i.example.net.\t1\tIN\tA\t192.0.2.9 ; cf_tags=note:"say \\",cf-proxied:true,\\""',
      // Spread over lines, the record's last comment with cf_tags= is read.
      "j.example.net.\t1\tIN\tA\t( 192.0.2.10 ; cf_tags=cf-proxied:true\n ) ; cf_tags=cf-proxied:false",
    ]);
    expect(t.dropped).toEqual([
      { line: 2, change: PROXIED("A") },
      { line: 7, change: PROXIED("A") },
    ]);
  });

  it("reads the tags of a record spread over lines whose last comment is the user's own", () => {
    const t = read([
      "app.example.net.\t1\tIN\tCNAME\t( lb.example.org. ; cf_tags=cf-flatten-cname\n ) ; moved from the old host",
      "www.example.net.\t1\tIN\tA\t( 192.0.2.1 ; cf_tags=cf-proxied:true\n ) ; the web server",
    ]);
    expect(t.dropped).toEqual([
      { line: 2, change: FLATTENED },
      { line: 4, change: PROXIED("A") },
    ]);
  });

  it("reads a value written with blanks after its colon, as a hand-edited export has it", () => {
    const t = read([
      "www.example.net.\t1\tIN\tA\t192.0.2.1 ; cf_tags=cf-proxied: true",
      "api.example.net.\t1\tIN\tA\t192.0.2.2 ; cf_tags=cf-proxied:\ttrue ,cf-flatten-cname",
    ]);
    expect(t.dropped).toEqual([
      { line: 2, change: PROXIED("A") },
      { line: 3, change: PROXIED("A") },
      { line: 3, change: FLATTENED },
    ]);
  });
});
