/**
 * The DomainRestore resource class.
 */
import * as pulumi from "@pulumi/pulumi";
import { warnIfApiKeyInPlainText } from "../host/keyInState";
import { domainRestoreProvider } from "./index";

/** Inputs of {@link DomainRestore}. */
export interface DomainRestoreArgs {
  /**
   * The domain name to take out of quarantine, e.g. `shop.example`. An internationalized name may be
   * given in Unicode (`bücher.example`): it is sent, and kept, in its xn-- form
   * (`xn--bcher-kva.example`), mapped as Node's `url.domainToASCII` maps it (UTS #46, so
   * `shop。example` is `shop.example`). A new value restores again.
   */
  domain: pulumi.Input<string>;
  /** Any values; when they change the domain is restored again (like `command.local.Command`'s triggers). */
  triggers?: pulumi.Input<unknown[]>;
}

/**
 * Restores a domain from quarantine (`POST /v2/domains/{domain}/restore`) when created. A restore
 * cannot be undone: deleting the resource makes no request and leaves the domain as it is.
 *
 * @example
 * const restored = new DomainRestore("restore-shop", { domain: "shop.example" });
 * export const restoredAt = restored.restoredAt;
 */
export class DomainRestore extends pulumi.dynamic.Resource {
  /** The restored domain as sent to the API: lower case, internationalized labels in their xn-- form. */
  declare readonly domain: pulumi.Output<string>;
  /** When the API accepted the restore, RFC 3339 UTC (`2026-11-21T21:30:00Z`). */
  declare readonly restoredAt: pulumi.Output<string>;
  /** The triggers of the last restore. */
  declare readonly triggers: pulumi.Output<unknown[] | undefined>;

  constructor(name: string, args: DomainRestoreArgs, opts?: pulumi.CustomResourceOptions) {
    warnIfApiKeyInPlainText();
    super(
      domainRestoreProvider,
      name,
      { domain: args.domain, triggers: args.triggers, restoredAt: undefined },
      opts,
      "domainapi",
      "DomainRestore",
    );
  }
}
