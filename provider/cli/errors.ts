/** The errors of `domainapi-plan`. */
import { DomainApiBaseError } from "../errors";

/**
 * The input is not a preview: the command exits with status 2 and this message. Its code is
 * `DOMAINAPI_PREVIEW_INPUT`.
 */
export class PreviewInputError extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.PreviewInputError");

  constructor(message: string) {
    super(message, "DOMAINAPI_PREVIEW_INPUT");
  }
}
