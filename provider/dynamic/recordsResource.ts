/**
 * The DnsTemplateRecords resource class: the program-facing types and the wiring to the serialized
 * shim. No logic lives here beyond exposing the stored, keyed state in its documented array shape,
 * and the claim of its template (owners.ts: one template, one owner in a program run).
 */
import * as pulumi from "@pulumi/pulumi";
import type { RuleName } from "../checks/rules";
import type { RecordType } from "../client/wire";
import type { RecordSpec } from "../dns/model";
import { warnIfApiKeyInPlainText } from "../host/keyInState";
import { SECRET_RECORDS_INPUT } from "../records/masking";
import { recordsOfOutputs } from "../records/state";
import { dnsTemplateRecordsProvider } from "./index";
import { ownershipGuard, withGuard } from "./owners";

/**
 * One DNS record of a template, as declared in a program. There is no TTL: the API's records have
 * none, and a `ttl` is refused.
 *
 * @example
 * const mx: DnsRecordArgs = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };
 */
export interface DnsRecordArgs {
  /**
   * Host name relative to the domain the template is applied to: `@` for the apex, `www`, `*.dev`,
   * `_sip._tcp`; never a full host name (`www.example.com.` is refused: write `www`), and in ASCII
   * (`xn--bcher-kva` for `bücher`, as Node's `url.domainToASCII` gives it).
   */
  name: pulumi.Input<string>;
  /** Record type (case-insensitive): A, AAAA, CNAME, MX, SRV, TXT, NS, CAA, TLSA, URLFWD, URLFWD301, URLCLO. */
  type: pulumi.Input<RecordType | Lowercase<RecordType>>;
  /** Content; may contain `{domainname}`, replaced by the domain where the template is applied. */
  content: pulumi.Input<string>;
  /** MX and SRV only (required there): 0-65535. */
  priority?: pulumi.Input<number>;
  /** SRV only (required there): 0-65535. */
  weight?: pulumi.Input<number>;
  /** SRV only (required there): 0-65535. */
  port?: pulumi.Input<number>;
}

/**
 * The safety threshold of an update, as octoDNS has it: when the template holds at least
 * `minExistingRecords` records and an update would change or delete more than `maxChangePercent`
 * of them, `pulumi preview` and `pulumi up` stop before any request.
 */
export interface SafetyThresholdArgs {
  /** Below this many existing records the threshold does not apply. Default 10. */
  minExistingRecords?: pulumi.Input<number>;
  /** Largest share of existing records an update may change or delete, in percent. Default 30. */
  maxChangePercent?: pulumi.Input<number>;
}

/** Inputs of {@link DnsTemplateRecords}. */
export interface DnsTemplateRecordsArgs {
  /** The DNS template whose records this resource manages. A new value replaces the resource. */
  templateId: pulumi.Input<string>;
  /** The records. Order does not matter: they are kept in a canonical order. */
  records: pulumi.Input<pulumi.Input<DnsRecordArgs>[]>;
  /**
   * `true` (default): the resource owns the whole template; create replaces every record with one
   * PUT. `false`: it adds and removes only its own records, so other records of the template survive.
   */
  purge?: pulumi.Input<boolean>;
  /** Guard against mass changes; `false` turns it off. Default `{ minExistingRecords: 10, maxChangePercent: 30 }`. */
  safetyThreshold?: pulumi.Input<SafetyThresholdArgs | false>;
  /**
   * Error rules of the template checks (docs/checks.md) this resource lifts for itself, e.g.
   * `["spf-lookup-limit"]` for an SPF record whose extra lookups are known to be fine. A lifted
   * finding is still shown, as a warning that names the lift.
   */
  liftedChecks?: pulumi.Input<pulumi.Input<RuleName>[]>;
  /**
   * A domain that uses this template (a witness): `pulumi refresh` then reads the records it
   * publishes from its authoritative servers (the provider setting `dnsServers`, by default its
   * NS) instead of keeping the state as it is, and sends nothing to the API
   * (docs/behaviour.md, "Refresh by DNS").
   */
  verifyDomain?: pulumi.Input<string>;
}

/** A managed record with the id the API gave it. */
export interface DnsRecord extends RecordSpec {
  /** The API's id of the record; unchanged records keep it across updates. */
  recordId: string;
  /**
   * Every id the record owns: its own, and for a URL forward those of the A and AAAA records the
   * service made for it (the answer to its add names them all, in an order not shown).
   */
  recordIds: string[];
}

/**
 * Which records the program marked secret, as the `secretRecords` input reads it: `"i:field"` for
 * a field made with `pulumi.secret` (`"1:content"`), `i` for a record that is a secret Output as a
 * whole, every index when the whole list is. The dynamic provider receives secrets as plain values
 * and cannot tell; this input tells it, so that its announcements show those values as `[secret]`
 * (records/masking.ts). Indexes and field names only, and not secret themselves: nothing of a
 * secret reaches the state through them.
 */
function secretRecordMarks(records: DnsTemplateRecordsArgs["records"]): pulumi.Output<(number | string)[]> {
  const secret = (value: unknown): Promise<boolean> => pulumi.isSecret(pulumi.output(value));
  if (Array.isArray(records)) {
    const marks = records.map(async (r, i): Promise<(number | string)[]> => {
      if (!(await secret(r))) return [];
      // A record given as an object: name the secret fields; one that is an Output or a Promise: all
      // of it (only an object, an Output or a Promise shows a secret).
      if (pulumi.Output.isInstance(r) || r instanceof Promise) return [i];
      const fields = await Promise.all(
        Object.entries(r).map(async ([field, value]) => ((await secret(value)) ? [`${i}:${field}`] : [])),
      );
      return fields.flat();
    });
    return pulumi.output(Promise.all(marks).then((m) => m.flat()));
  }
  const list = pulumi.output(records);
  return pulumi
    .output(pulumi.isSecret(list))
    .apply((isSecret) =>
      isSecret
        ? pulumi.unsecret(list.apply((rs) => rs.map((_, i): number | string => i)))
        : pulumi.output<(number | string)[]>([]),
    );
}

/**
 * The records of one DNS template, managed as a set: `pulumi up` makes the template match with the
 * fewest requests (one PUT on create, a minimal PATCH plan on update), and the ids the API returns
 * become outputs.
 *
 * @example
 * const web = new DnsTemplateRecords("web", {
 *   templateId: "tpl-1",
 *   records: [
 *     { name: "@", type: "A", content: "192.0.2.10" },
 *     { name: "www", type: "CNAME", content: "{domainname}." },
 *     { name: "@", type: "MX", content: "mx1.example.net", priority: 10 },
 *   ],
 * });
 * export const ids = web.recordIds;
 */
export class DnsTemplateRecords extends pulumi.dynamic.Resource {
  /** The template's id. */
  declare readonly templateId: pulumi.Output<string>;
  /** Whether the resource owns the whole template. */
  declare readonly purge: pulumi.Output<boolean>;
  /** The records in canonical order (name, type, content, numbers), each with its `recordId`. */
  declare readonly records: pulumi.Output<DnsRecord[]>;
  /** Every record id the resource owns, record by record in the order of {@link DnsTemplateRecords.records} (a URL forward brings the ids of the records made for it). */
  declare readonly recordIds: pulumi.Output<string[]>;
  /** Summary of the last create or update, e.g. `1 to create, 1 to update, 0 to delete, 8 unchanged (1 request)`. */
  declare readonly lastPlan: pulumi.Output<string>;

  constructor(name: string, args: DnsTemplateRecordsArgs, opts?: pulumi.CustomResourceOptions) {
    warnIfApiKeyInPlainText();
    // Called only once the apply of a claim runs, after construction: `this` is bound by then.
    const guard = ownershipGuard(name, args, () => this);
    super(
      dnsTemplateRecordsProvider,
      name,
      {
        templateId: args.templateId,
        records: args.records,
        purge: args.purge,
        safetyThreshold: args.safetyThreshold,
        liftedChecks: args.liftedChecks,
        verifyDomain: args.verifyDomain,
        [SECRET_RECORDS_INPUT]: secretRecordMarks(args.records),
        ids: undefined,
        lastPlan: undefined,
      },
      guard ? { ...opts, dependsOn: withGuard(opts?.dependsOn, guard) } : opts,
      "domainapi",
      "DnsTemplateRecords",
    );
    // The state keeps records keyed (for readable previews) with their ids beside them; expose
    // them in the documented shape: an array in canonical order, ids aligned. Made when first
    // read: each Output costs the program promises and stack traces, and a stack of 1,000
    // templates rarely reads them all.
    const stored = this as unknown as { records: pulumi.Output<unknown>; ids: pulumi.Output<unknown> };
    const { records, ids } = stored;
    let joined: pulumi.Output<DnsRecord[]> | undefined;
    let recordIds: pulumi.Output<string[]> | undefined;
    const joinedRecords = (): pulumi.Output<DnsRecord[]> => {
      joined ??= pulumi.all([records, ids]).apply(([rs, is]) => recordsOfOutputs(rs, is));
      return joined;
    };
    Object.defineProperty(this, "records", { get: joinedRecords, enumerable: true });
    Object.defineProperty(this, "recordIds", {
      get: () => {
        recordIds ??= joinedRecords().apply((rs) => rs.flatMap((r) => r.recordIds));
        return recordIds;
      },
      enumerable: true,
    });
  }
}
