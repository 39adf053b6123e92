/**
 * The masking of secret record values in what the provider says (records/masking.ts): for random
 * plans (creates, updates, deletes, rewrites, adds of unknown outcome), no line of the plan's
 * announcement, of a correction carried out, of a PUT's records or of the free-text warnings holds
 * a secret value; what is not secret reads exactly as before; the plan itself is untouched.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeRecord, normalizeRecord, type RecordSpec } from "../../../provider/dns/model";
import type { HeldRecord, KeyedRecord, ShownCorrection } from "../../../provider/records/corrections";
import { keyRecords } from "../../../provider/records/keys";
import {
  describeMasked,
  MASK,
  maskedMessage,
  maskText,
  NO_SECRETS,
  planAnnouncement,
  type Secrets,
  secretRecordKeys,
  secretRecordsProperty,
  secretsOf,
  secretsOfRecords,
  unionOf,
} from "../../../provider/records/masking";
import { type Plan, planResource, type Settings } from "../../../provider/records/plan";
import { held as heldOf, keyed, recordArb } from "./arbitraries";

/** A secret text: long enough and random enough that no fixed word of a message can hold it. */
const secretTextArb = fc.stringMatching(/^[A-Za-z0-9+/=]{12,24}$/);
/** A secret number: larger than any count a summary says. */
const secretNumberArb = fc.integer({ min: 1000, max: 65535 });

/** A record the program marks secret: a TXT with secret content, an MX with a secret host and priority, a secret name. */
const secretRecordArb: fc.Arbitrary<RecordSpec> = fc.oneof(
  fc.record({
    name: fc.constantFrom("@", "_k", "_acme-challenge", "www"),
    type: fc.constant("TXT" as const),
    content: secretTextArb,
  }),
  fc
    .record({ host: secretTextArb, priority: secretNumberArb })
    .map(({ host, priority }) => ({ name: "@", type: "MX" as const, content: host, priority })),
  secretTextArb.map((label) => ({
    name: `s${label.toLowerCase().replace(/[^a-z0-9]/g, "x")}`,
    type: "TXT" as const,
    content: "v=spf1 -all",
  })),
);

interface Case {
  held: { record: RecordSpec; secret: boolean }[];
  declared: { record: RecordSpec; secret: boolean }[];
  purge: boolean;
  create: boolean;
  remove: boolean;
  unknownAdds: number;
}

const entryArb = (secret: boolean) =>
  (secret ? secretRecordArb : recordArb).map((record) => ({ record, secret }));
const entriesArb = fc.array(
  fc.boolean().chain((secret) => entryArb(secret)),
  { maxLength: 10 },
);

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    held: entriesArb,
    declared: entriesArb,
    // Some held secret records are declared again, changed or not: MODIFY lines quote both sides.
    carried: fc.array(fc.tuple(fc.nat(), fc.option(secretTextArb, { nil: undefined })), { maxLength: 4 }),
    purge: fc.boolean(),
    create: fc.boolean(),
    remove: fc.boolean(),
    unknownAdds: fc.nat({ max: 3 }),
  })
  .map(({ held, declared, carried, ...rest }) => {
    const secretHeld = held.filter((e) => e.secret);
    const carriedOver =
      secretHeld.length === 0
        ? []
        : carried.map(([i, content]) => {
            const { record } = secretHeld[i % secretHeld.length]!;
            return { record: content === undefined ? record : { ...record, content }, secret: true };
          });
    return { held, declared: [...declared, ...carriedOver], ...rest };
  });

const settings = (purge: boolean): Settings => ({ templateId: "web", purge, safetyThreshold: false });

/** The plan of a case, and the secrets the provider would read from the state and the inputs. */
function planOf(c: Case): { plan: Plan; secrets: Secrets; secretValues: string[]; secretNumbers: number[] } {
  // The state's records are normalized as the provider decodes them.
  const held = heldOf(c.held.map((e) => normalizeRecord(e.record)));
  // `heldOf` gives the i-th record the id `cur-i` (and keys in its own order).
  const heldKeys = held.filter((r) => c.held[Number(r.recordId.slice(4))]!.secret).map((r) => r.key);
  const heldMap = Object.fromEntries(held.map((r) => [r.key, normalizeRecord(r)]));
  const declared: KeyedRecord[] = keyed(c.declared.map((e) => normalizeRecord(e.record)));
  const secretIndexes = c.declared.flatMap((e, i) => (e.secret ? [i] : []));
  const secrets = unionOf(
    secretsOf({ records: heldMap, secretRecords: heldKeys }),
    secretsOf({ records: c.declared.map((e) => e.record), secretRecords: secretIndexes }),
  );
  // Adds of unknown outcome: the first declared records, as messages write them.
  const untracked = declared.slice(0, c.unknownAdds).map(describeRecord);
  const holding = { settings: settings(c.purge), held, untracked };
  const declaration = { settings: settings(c.purge), declared };
  const plan = c.remove
    ? planResource(holding, undefined)
    : planResource(c.create ? undefined : holding, declaration);
  const secretRecords = [...c.held, ...c.declared].filter((e) => e.secret).map((e) => e.record);
  return {
    plan,
    secrets,
    secretValues: secretRecords.flatMap((r) =>
      [r.content, r.name].filter(
        (v) => v !== "@" && v !== "_k" && v !== "_acme-challenge" && v !== "www" && v !== "v=spf1 -all",
      ),
    ),
    secretNumbers: secretRecords.flatMap((r) => (r.priority === undefined ? [] : [r.priority])),
  };
}

/** Every line the provider says about a plan: its announcement, and what the run says as it goes. */
function linesOf(plan: Plan, secrets: Secrets): string[] {
  const lines = planAnnouncement(plan, secrets).split("\n");
  for (const request of plan.requests) {
    if (request.method === "PUT")
      lines.push(...request.records.map((r) => `+ CREATE ${describeMasked(r, secrets)}`));
    else
      for (const c of request.corrections)
        lines.push(c.kind === "verify" ? describeMasked(c.from, secrets) : maskedMessage(c, secrets));
  }
  lines.push(maskText(plan.untracked.join("; "), secrets), maskText(plan.forgotten.join("; "), secrets));
  return lines;
}

function holdsNumber(line: string, n: number): boolean {
  return new RegExp(`(?<![\\w.])${n}(?![\\w.])`).test(line);
}

describe("announcements of random plans", () => {
  it("hold no secret value in any line", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { plan, secrets, secretValues, secretNumbers } = planOf(c);
        for (const line of linesOf(plan, secrets)) {
          for (const value of secretValues) expect(line.toLowerCase()).not.toContain(value.toLowerCase());
          for (const n of secretNumbers) expect(holdsNumber(line, n), `${n} in ${line}`).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("show every secret record's change, with [secret] in place of its values", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { plan, secrets } = planOf(c);
        const lines = planAnnouncement(plan, secrets).split("\n");
        // One line per correction, whatever is secret: the change is shown, its values are not.
        expect(lines).toHaveLength(1 + plan.corrections.length + plan.setAside.length);
        const secretChanges = plan.corrections.filter((k) => maskedMessage(k, secrets) !== k.message);
        for (const k of secretChanges) expect(maskedMessage(k, secrets)).toContain(MASK);
      }),
      { numRuns: 200 },
    );
  });

  it("read as before where nothing is secret, and leave the plan as it was", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { plan, secrets } = planOf(c);
        const before = structuredClone(plan);
        const plain = planAnnouncement(plan, NO_SECRETS).split("\n");
        expect(plain).toEqual([
          `template ${plan.templateId}: ${plan.text}`,
          ...plan.corrections.map((k) => `  ${k.message}`),
          ...plan.setAside.map((r) => `  (set aside: ${r}: its earlier add is of unknown outcome)`),
        ]);
        linesOf(plan, secrets);
        expect(plan).toEqual(before);
        // A correction none of whose values holds a secret reads exactly as its message.
        const values = (k: ShownCorrection): RecordSpec[] =>
          k.kind === "update" ? [k.from, k.to] : [k.record];
        for (const k of plan.corrections) {
          const touched = values(k).some((r) => describeMasked(r, secrets) !== describeRecord(r));
          if (!touched) expect(maskedMessage(k, secrets)).toBe(k.message);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("which records are secret", () => {
  const txt = { name: "_k", type: "TXT", content: "tok-a1b2c3d4e5" };
  const www = { name: "www", type: "A", content: "192.0.2.1" };

  it("masks only the field marked secret (`index:field`, `key:field`)", () => {
    const secrets = secretsOf({ records: [www, txt], secretRecords: ["1:content"] });
    expect(describeMasked(txt as RecordSpec, secrets)).toBe(`_k TXT ${MASK}`);
    const keyedSecrets = secretsOf({ records: { "_k/TXT": txt }, secretRecords: ["_k/TXT:name"] });
    expect(describeMasked(txt as RecordSpec, keyedSecrets)).toBe(`${MASK} TXT tok-a1b2c3d4e5`);
    // The type is never secret: a mark of it names nothing.
    expect(secretsOf({ records: [txt], secretRecords: ["0:type"] })).toBe(NO_SECRETS);
  });

  it("reads indexes into the program's list and keys of keyed records; other marks name nothing", () => {
    expect(secretsOf({ records: [www, txt], secretRecords: [1] }).texts).toContain("tok-a1b2c3d4e5");
    expect(secretsOf({ records: [www, txt], secretRecords: [1] }).texts).not.toContain("192.0.2.1");
    expect(secretsOf({ records: { "_k/TXT": txt }, secretRecords: ["_k/TXT"] }).texts).toContain("_k");
    for (const marks of [[7], ["www/A"], [1.5], "1", null, [{}]]) {
      expect(secretsOf({ records: [www, txt], secretRecords: marks }).pattern).toBeUndefined();
    }
    expect(secretsOf({ records: [www, txt] })).toBe(NO_SECRETS);
  });

  it("masks a secret value as normalized (a lower-cased name, an IPv6 address in RFC 5952 form)", () => {
    const aaaa = { name: "VPN", type: "AAAA", content: "2001:DB8:0:0:0:0:0:1" };
    const secrets = secretsOf({ records: [aaaa], secretRecords: [0] });
    expect(describeMasked(normalizeRecord(aaaa as RecordSpec), secrets)).toBe(`${MASK} AAAA ${MASK}`);
  });

  it("masks the longer words of a secret content in free text (a lookup list of a secret SPF record)", () => {
    const spf = {
      name: "@",
      type: "TXT",
      content: "v=spf1 include:_spf.hidden.example ip4:192.0.2.0/24 -all",
    };
    const secrets = secretsOf({ records: [spf], secretRecords: [0] });
    const warning =
      "records[0].content: the record itself needs 11 DNS lookups (include:_spf.hidden.example, a, mx)";
    expect(maskText(warning, secrets)).toBe(
      `records[0].content: the record itself needs 11 DNS lookups (${MASK}, a, mx)`,
    );
  });

  it("masks a secret number as a whole number only", () => {
    const mx = { name: "@", type: "MX", content: "mx.example.net", priority: 10 };
    const secrets = secretsOfRecords([{ ...mx, content: "" }]);
    expect(describeMasked(mx as RecordSpec, secrets)).toBe(`${MASK} MX ${MASK} mx.example.net`);
    expect(maskText("www A 192.0.2.10 (id r10)", secrets)).toBe("www A 192.0.2.10 (id r10)");
  });

  it("keeps the keys of the secret records beside the keyed records, and nothing when none is", () => {
    const records = keyed([www, txt] as RecordSpec[]);
    const secrets = secretsOf({ records: [www, txt], secretRecords: [1] });
    const key = records.find((r) => r.type === "TXT")!.key;
    // A whole record marked secret: each of its fields that holds a value.
    expect(secretRecordKeys(records, secrets)).toEqual([`${key}:name`, `${key}:content`]);
    const content = secretsOf({ records: [www, txt], secretRecords: ["1:content"] });
    expect(secretRecordsProperty(records, content)).toEqual({ secretRecords: [`${key}:content`] });
    expect(secretRecordsProperty(records, NO_SECRETS)).toEqual({});
    const stored = Object.fromEntries(Object.entries(keyRecords([www, txt] as RecordSpec[])));
    expect(secretsOf({ records: stored, ...secretRecordsProperty(records, secrets) }).texts).toContain(
      txt.content,
    );
  });

  it("masks a secret that starts with another secret whole, not as a mask and a visible tail", () => {
    const short = { name: "_a", type: "TXT", content: "token-abcdef" };
    const long = { name: "_b", type: "TXT", content: "token-abcdef-9876543" };
    // Either order of the records: the longer secret is matched first.
    for (const records of [
      [short, long],
      [long, short],
    ]) {
      const secrets = secretsOfRecords(records);
      expect(maskText("was token-abcdef-9876543, now token-abcdef", secrets)).toBe(
        `was ${MASK}, now ${MASK}`,
      );
    }
  });

  it("masks secrets whatever their letter case, and characters of a pattern as themselves", () => {
    const secrets = secretsOfRecords([{ name: "_k", type: "TXT", content: "Key(1)+[x].*|y/z-q^$?{2}" }]);
    expect(maskText("content KEY(1)+[X].*|Y/Z-Q^$?{2} at _K", secrets)).toBe(`content ${MASK} at ${MASK}`);
    // Its characters are not a pattern: a text they would match as one is not masked.
    expect(maskText("Key1xxxx", secrets)).toBe("Key1xxxx");
  });

  it("keeps blank values, record types and ids out of the secrets, and words shorter than 7 characters", () => {
    const secrets = secretsOfRecords([
      { name: " ", type: "TXT", content: "v=spf1 a:mail.hidden.example -all", key: "k1", recordId: "r42" },
    ]);
    expect(maskText("TXT r42 k1 v=spf1 -all", secrets)).toBe("TXT r42 k1 v=spf1 -all");
    expect(maskText("a:mail.hidden.example", secrets)).toBe(MASK);
    // A record given as a bare text is itself the secret.
    expect(maskText("a s3cret-text here", secretsOfRecords(["s3cret-text", 5, null]))).toBe(`a ${MASK} here`);
  });

  it("joins the secrets of the state and of the program: each masks, and none when neither has any", () => {
    const a = secretsOfRecords([{ name: "_a", type: "TXT", content: "old-secret-1" }]);
    const b = secretsOfRecords([{ name: "_b", type: "MX", content: "new-secret.example", priority: 7 }]);
    const both = unionOf(a, b);
    expect(maskText("old-secret-1 -> new-secret.example (7)", both)).toBe(`${MASK} -> ${MASK} (${MASK})`);
    expect(unionOf(NO_SECRETS, b)).toBe(b);
    expect(unionOf(a, NO_SECRETS)).toBe(a);
    expect(maskText("old-secret-1", unionOf(NO_SECRETS, NO_SECRETS))).toBe("old-secret-1");
  });

  it("masks a secret number in a correction, and leaves the same number of another field shown", () => {
    const srv = {
      name: "_sip._tcp",
      type: "SRV",
      content: "sip.example.net",
      priority: 10,
      weight: 5,
      port: 5060,
    };
    const secrets = secretsOf({ records: [srv], secretRecords: ["0:port"] });
    expect(describeMasked(srv as RecordSpec, secrets)).toBe(`_sip._tcp SRV 10 5 ${MASK} sip.example.net`);
  });

  it("says a held record's change and a vanished record without its secret", () => {
    const [held] = heldOf([txt as RecordSpec]) as [HeldRecord];
    const secrets = secretsOfRecords([txt]);
    expect(describeMasked(held, secrets)).toBe(`${MASK} TXT ${MASK}`);
  });
});

describe("masking at its edges", () => {
  it("writes a secret as the text [secret]", () => {
    expect(maskText("token s3cret-text", secretsOfRecords(["s3cret-text"]))).toBe("token [secret]");
  });

  it("a secret record of blank values only masks nothing, and garbles no line", () => {
    const secrets = secretsOfRecords([{ name: " ", type: "TXT", content: "  " }]);
    expect(maskText("www A 192.0.2.1", secrets)).toBe("www A 192.0.2.1");
  });

  it("masks a word of a secret content from 7 characters on, not one of 6", () => {
    const secrets = secretsOfRecords([{ name: "@", type: "TXT", content: "v=spf1 mx:host -all" }]);
    expect(maskText("lookups: mx:host", secrets)).toBe(`lookups: ${MASK}`);
    expect(maskText("v=spf1 first", secrets)).toBe("v=spf1 first");
  });

  it("reads a mark of a record past the tenth (`10:content`)", () => {
    const records = Array.from({ length: 11 }, (_, i) => ({
      name: `n${i}`,
      type: "TXT",
      content: `value-${i}-text`,
    }));
    const secrets = secretsOf({ records, secretRecords: ["10:content"] });
    expect(maskText("value-10-text and value-9-text", secrets)).toBe(`${MASK} and value-9-text`);
  });
});
