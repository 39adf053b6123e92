/**
 * A zone of 40 imported records as a DNS host exports it (every record type, split TXT, `$ORIGIN`,
 * relative and absolute names, a blank owner, comments, parentheses), plus the records the import
 * must skip, and the records it must give, written out by hand: shared by the import's unit tests
 * and its engine test.
 */

/** The zone file. Line numbers matter to the tests: add lines at the end only. */
export const ZONE_40 = `; example.com, exported from a DNS host's UI
$ORIGIN example.com.
$TTL 1h
@   IN  SOA ns1.dns-host.net. hostmaster.example.com. (
        2024010101 ; serial
        7200       ; refresh
        3600 1209600 300 )
    IN  NS  ns1.dns-host.net.
    IN  NS  ns2.dns-host.net.
@       300 IN A     192.0.2.10
        IN 300 AAAA  2001:DB8:0:0:0:0:0:10
www     A     192.0.2.11
www     AAAA  2001:db8::11
Api.Example.COM. 600 A 192.0.2.12
blog    CNAME www
shop    CNAME shops.myshopify.com.
docs    CNAME www.example.com.
*.dev   A     192.0.2.13
@       MX    10 mail
@       MX    20 mx2.example.net.
mail    A     192.0.2.25
@       TXT   "v=spf1 include:_spf.example.com ~all"
@       TXT   "google-site-verification=abc123"
_dmarc  TXT   "v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com"
sel1._domainkey TXT ( "v=DKIM1; k=rsa; "
        "p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAv3" ; split by the host
        "Xk2Q7pTn0XyZ" )
quote   TXT   "she said \\"hi\\"; back\\\\slash\\065\\066C"
_sip._tcp SRV 10 60 5060 sip.example.com.
_sip._udp.example.com. SRV 20 0 5060 sipudp
_xmpp-server._tcp SRV 5 0 5269 xmpp.example.net.
@       CAA   0 issue "letsencrypt.org"
@       CAA   0 iodef "mailto:security@example.com"
_443._tcp.www TLSA 3 1 1 ( 2a3b4c5d6e7f8091
        a2b3c4d5e6f70819 )
_25._tcp.mail TLSA 3 1 1 0123456789abcdef
sub     NS    ns1.sub-host.net.
sub     NS    ns2.sub-host.net.
go      URLFWD    "https://www.example.com/start"
old     URLFWD301 https://example.org/
frame   URLCLO    "https://app.example.net/"
; the host's records the API lacks
www     PTR   host.example.net.
@       SSHFP 1 1 123456789abcdef67890123456789abcdef67890
@       HTTPS 1 . alpn=h2
$ORIGIN staging.example.com.
@       A     192.0.2.40
api     A     192.0.2.41
www     CNAME @
cdn.example.com. CNAME cdn.provider.net.
media   TXT   unquotedwords
ipv6only AAAA 2001:db8:0:1::1
ttl-units 1d2h IN A 192.0.2.42
blog.example.com. CNAME elsewhere.example.net. ; conflicts with the CNAME of line 15
_ldap._tcp SRV 0 100 389 ldap.example.com.
other.example.org. A 192.0.2.99
ftp     CNAME www.example.com.
price   TXT   "from \${5} a month"
@       CAA   0 issuewild ";"
`;

/** A record as the program must declare it. */
export interface ExpectedRecord {
  name: string;
  type: string;
  content: string;
  priority?: number;
  weight?: number;
  port?: number;
}

/** The 40 records the import of {@link ZONE_40} must give, written out by hand. */
export const ZONE_40_RECORDS: ExpectedRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "@", type: "AAAA", content: "2001:db8::10" },
  { name: "www", type: "A", content: "192.0.2.11" },
  { name: "www", type: "AAAA", content: "2001:db8::11" },
  { name: "api", type: "A", content: "192.0.2.12" },
  { name: "blog", type: "CNAME", content: "www.{domainname}." },
  { name: "shop", type: "CNAME", content: "shops.myshopify.com." },
  { name: "docs", type: "CNAME", content: "www.{domainname}." },
  { name: "*.dev", type: "A", content: "192.0.2.13" },
  { name: "@", type: "MX", content: "mail.{domainname}.", priority: 10 },
  { name: "@", type: "MX", content: "mx2.example.net.", priority: 20 },
  { name: "mail", type: "A", content: "192.0.2.25" },
  { name: "@", type: "TXT", content: "v=spf1 include:_spf.{domainname} ~all" },
  { name: "@", type: "TXT", content: "google-site-verification=abc123" },
  { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=quarantine; rua=mailto:dmarc@{domainname}" },
  {
    name: "sel1._domainkey",
    type: "TXT",
    content: "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAv3Xk2Q7pTn0XyZ",
  },
  { name: "quote", type: "TXT", content: 'she said "hi"; back\\slashABC' },
  { name: "_sip._tcp", type: "SRV", content: "sip.{domainname}.", priority: 10, weight: 60, port: 5060 },
  { name: "_sip._udp", type: "SRV", content: "sipudp.{domainname}.", priority: 20, weight: 0, port: 5060 },
  {
    name: "_xmpp-server._tcp",
    type: "SRV",
    content: "xmpp.example.net.",
    priority: 5,
    weight: 0,
    port: 5269,
  },
  { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  { name: "@", type: "CAA", content: '0 iodef "mailto:security@{domainname}"' },
  { name: "_443._tcp.www", type: "TLSA", content: "3 1 1 2a3b4c5d6e7f8091a2b3c4d5e6f70819" },
  { name: "_25._tcp.mail", type: "TLSA", content: "3 1 1 0123456789abcdef" },
  { name: "sub", type: "NS", content: "ns1.sub-host.net." },
  { name: "sub", type: "NS", content: "ns2.sub-host.net." },
  { name: "go", type: "URLFWD", content: "https://www.{domainname}/start" },
  { name: "old", type: "URLFWD301", content: "https://example.org/" },
  { name: "frame", type: "URLCLO", content: "https://app.example.net/" },
  { name: "staging", type: "A", content: "192.0.2.40" },
  { name: "api.staging", type: "A", content: "192.0.2.41" },
  { name: "www.staging", type: "CNAME", content: "staging.{domainname}." },
  { name: "cdn", type: "CNAME", content: "cdn.provider.net." },
  { name: "media.staging", type: "TXT", content: "unquotedwords" },
  { name: "ipv6only.staging", type: "AAAA", content: "2001:db8:0:1::1" },
  { name: "ttl-units.staging", type: "A", content: "192.0.2.42" },
  {
    name: "_ldap._tcp.staging",
    type: "SRV",
    content: "ldap.{domainname}.",
    priority: 0,
    weight: 100,
    port: 389,
  },
  { name: "ftp.staging", type: "CNAME", content: "www.{domainname}." },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML interpolation syntax, on purpose
  { name: "price.staging", type: "TXT", content: "from ${5} a month" },
  { name: "staging", type: "CAA", content: '0 issuewild ";"' },
];

/** The lines of {@link ZONE_40} the import must skip, and a word of each reason. */
export const ZONE_40_SKIPPED: { line: number; reason: RegExp }[] = [
  { line: 4, reason: /SOA/ },
  { line: 8, reason: /apex NS/ },
  { line: 9, reason: /apex NS/ },
  { line: 43, reason: /no PTR/ },
  { line: 44, reason: /no SSHFP/ },
  { line: 45, reason: /no HTTPS/ },
  { line: 54, reason: /check\(\) refuses it.*CNAME/ },
  { line: 56, reason: /outside the zone's domain/ },
];

/**
 * A zone as Cloudflare exports it (DNS > Records > Import and Export > Export, or the API's
 * `GET /zones/{zone_id}/dns_records/export`): the `;;` header, the SOA first with its owner
 * without the final dot, no `$ORIGIN`, absolute owners, TTL 1 for "automatic", and the proxy
 * status as `cf_tags` comments.
 */
export const CLOUDFLARE_EXPORT = `;;
;; Domain:     example.com.
;; Exported:   2026-11-20 09:12:44
;;
;; This file is intended for use for informational and archival
;; purposes ONLY and MUST be edited before use on a production
;; DNS server.  In particular, you must:
;;   -- update the SOA record with the correct authoritative name server
;;   -- update the SOA record with the contact e-mail address information
;;   -- update the NS record(s) with the authoritative name servers for this domain.
;;
;; For further information, please consult the BIND documentation
;; located on the following website:
;;
;; http://www.isc.org/
;;
;; And RFC 1035:
;;
;; http://www.ietf.org/rfc/rfc1035.txt
;;
;; Please note that we do NOT offer technical support for any use
;; of this zone data, the BIND daemon, or its documentation.
;;
;; We hope you find these files useful.
;;

;; SOA Record
example.com	3600	IN	SOA	kate.ns.cloudflare.com. dns.cloudflare.com. 2049251346 10000 2400 604800 3600

;; NS Records
example.com.	86400	IN	NS	kate.ns.cloudflare.com.
example.com.	86400	IN	NS	noah.ns.cloudflare.com.

;; A Records
example.com.	1	IN	A	192.0.2.10 ; cf_tags=cf-proxied:true
api.example.com.	300	IN	A	192.0.2.20 ; cf_tags=cf-proxied:false

;; AAAA Records
example.com.	1	IN	AAAA	2001:db8::10 ; cf_tags=cf-proxied:true

;; CAA Records
example.com.	1	IN	CAA	0 issue "letsencrypt.org"

;; CNAME Records
www.example.com.	1	IN	CNAME	example.com. ; cf_tags=cf-proxied:true
docs.example.com.	1	IN	CNAME	example-docs.pages.dev. ; cf_tags=cf-flatten-cname,cf-proxied:false

;; MX Records
example.com.	1	IN	MX	10 mx1.mail.example.net.
example.com.	1	IN	MX	20 mx2.mail.example.net.

;; SRV Records
_sip._tls.example.com.	1	IN	SRV	100 1 443 sipdir.online.lync.com.

;; TXT Records
_dmarc.example.com.	1	IN	TXT	"v=DMARC1; p=reject; rua=mailto:dmarc@example.com"
example.com.	1	IN	TXT	"v=spf1 include:_spf.mx.cloudflare.net ~all"
price.example.com.	1	IN	TXT	"from $\${5}, $$ or $ a month"
`;

/** The records the import of {@link CLOUDFLARE_EXPORT} must give: all but the SOA and the apex NS set. */
export const CLOUDFLARE_RECORDS: ExpectedRecord[] = [
  { name: "@", type: "A", content: "192.0.2.10" },
  { name: "api", type: "A", content: "192.0.2.20" },
  { name: "@", type: "AAAA", content: "2001:db8::10" },
  { name: "@", type: "CAA", content: '0 issue "letsencrypt.org"' },
  { name: "www", type: "CNAME", content: "{domainname}." },
  { name: "docs", type: "CNAME", content: "example-docs.pages.dev." },
  { name: "@", type: "MX", content: "mx1.mail.example.net.", priority: 10 },
  { name: "@", type: "MX", content: "mx2.mail.example.net.", priority: 20 },
  { name: "_sip._tls", type: "SRV", content: "sipdir.online.lync.com.", priority: 100, weight: 1, port: 443 },
  { name: "_dmarc", type: "TXT", content: "v=DMARC1; p=reject; rua=mailto:dmarc@{domainname}" },
  { name: "@", type: "TXT", content: "v=spf1 include:_spf.mx.cloudflare.net ~all" },
  { name: "price", type: "TXT", content: "from $${5}, $$ or $ a month" },
];
