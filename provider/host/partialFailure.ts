/**
 * The error that tells the engine "part of this happened". The dynamic-provider host turns an error
 * carrying `id` and `properties` into a partial-failure result: the engine records the resource
 * with those properties (and an initialization error) instead of forgetting it, so the state says
 * exactly what the API holds and the next `pulumi up` can finish the job.
 */
import { DomainApiBaseError } from "../errors";
import { PROVIDER_KEY } from "./engine";

type Props = Record<string, unknown>;

/**
 * A failure after part of the work was applied, with the state that was reached. Its code is
 * `DOMAINAPI_PARTIAL_FAILURE`; its `cause` says what stopped the work.
 */
export class PartialFailure extends DomainApiBaseError {
  static override readonly brand: symbol = Symbol.for("pulumi-domainapi.PartialFailure");
  /** The resource's id. */
  readonly id: string;
  /** The outputs to record, `__provider` included. */
  readonly properties: Props;
  /** Shown by the engine as the resource's initialization errors. */
  readonly reasons: string[];

  /**
   * @param inputs the inputs of the operation: their `__provider` is copied into the properties, or
   *   later operations on the resource could not find their provider.
   * @param cause the error that stopped the work (a DomainApiError with its status and outcome)
   * @example
   * throw new PartialFailure("2nd PATCH failed: 500", "tpl-1", outputsSoFar, news, err);
   */
  constructor(message: string, id: string, properties: Props, inputs: Props, cause?: unknown) {
    super(message, "DOMAINAPI_PARTIAL_FAILURE", cause === undefined ? undefined : { cause });
    this.id = id;
    this.properties = { ...properties, [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
    this.reasons = [message];
  }
}
