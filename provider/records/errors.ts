/**
 * The errors of the records path, as undici keeps its errors: classes only, each with its brand
 * and a stable code (see `errors/index.ts` for the base and how to test for them).
 */
import { DomainApiBaseError } from "../errors";

/** A request applied, but the ids it was answered with cannot be attributed to its records. */
export class UnattributableAnswerError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.UnattributableAnswerError");

  /** @param detail what came back and why it cannot be attributed */
  constructor(detail: string) {
    super(
      `the service's answer cannot be attributed to the request: ${detail}; the request has applied all the same`,
      "DOMAINAPI_UNATTRIBUTABLE_ANSWER",
    );
  }
}

export { UnreviewedPlanError } from "../errors";

/** Records kept vanishing while the provider recovered from records removed outside Pulumi. */
export class RecoveryLimitError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.RecoveryLimitError");

  constructor(templateId: string, recoveries: number, cause: unknown) {
    super(
      `template ${templateId}: records kept vanishing while ${recoveries} recoveries were carried out; run \`pulumi up\` again`,
      "DOMAINAPI_RECOVERY_LIMIT",
      { cause },
    );
  }
}
