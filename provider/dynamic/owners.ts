/**
 * One template, one owner, in a Node program: each DnsTemplateRecords claims its template when its
 * `templateId` and `purge` are known, and declares its records when they are known; a claim that
 * conflicts (provider/checks/ownership.ts) fails that resource's registration, naming both
 * resources, before anything is sent.
 *
 * The dynamic provider's `check()` runs in the engine's plugin process and is given no URN, so the
 * claims are kept here, in the program. They are scoped to one program run: an Automation API host
 * runs the same inline program many times in one process, each run in the SDK's own run store
 * (AsyncLocalStorage) with its own root stack resource, which keys the claims. Outside a stack
 * (unit tests with `pulumi.runtime.setMocks`) there is no run to scope them to, and none is kept.
 */
import * as pulumi from "@pulumi/pulumi";
import { TemplateClaims } from "../checks/ownership";
import { validateRecords } from "../dns/validate";

/**
 * The claims of each program run, by the run's root stack resource.
 *
 * Bound: weak: a run's claims go with its stack resource when the run ends.
 */
const runs = new WeakMap<pulumi.Resource, TemplateClaims>();

function claimsOfThisRun(): TemplateClaims | undefined {
  const stack = pulumi.runtime.getStackResource();
  if (stack === undefined) return undefined;
  let claims = runs.get(stack);
  if (claims === undefined) {
    claims = new TemplateClaims();
    runs.set(stack, claims);
  }
  return claims;
}

/** What a resource's claim is made of: its inputs, any of which may be an Output. */
export interface ClaimInputs {
  templateId: pulumi.Input<string>;
  purge?: pulumi.Input<boolean>;
  records: pulumi.Input<pulumi.Input<object>[]>;
}

/** Throws the refusal as the SDK shows it best: on the resource, without a stack trace. */
function refused(refusal: string | undefined, owner: () => pulumi.Resource | undefined): pulumi.Resource[] {
  if (refusal === undefined) return [];
  let resource: pulumi.Resource | undefined;
  try {
    resource = owner();
  } catch {
    // The resource is not constructed yet (its constructor threw): the refusal stands on its own.
  }
  throw resource ? new pulumi.ResourceError(refusal, resource, true) : new pulumi.RunError(refusal);
}

/**
 * A value for the resource's `dependsOn` that adds no dependency of its own and fails the resource's
 * registration when its claim conflicts with another resource's in this run; `undefined` outside a
 * program run. Values not known in a preview are claimed at `up`, when they are.
 *
 * @param owner the resource, once constructed: the refusal is shown on it
 * @example
 * const guard = ownershipGuard(name, args, () => this);
 * super(provider, name, inputs, guard ? { ...opts, dependsOn: withGuard(opts?.dependsOn, guard) } : opts);
 */
export function ownershipGuard(
  name: string,
  inputs: ClaimInputs,
  owner: () => pulumi.Resource | undefined,
): pulumi.Output<pulumi.Resource[]> | undefined {
  const claims = claimsOfThisRun();
  if (claims === undefined) return undefined;
  const claimed = pulumi.all([inputs.templateId, inputs.purge]).apply(([templateId, purge]) =>
    typeof templateId === "string"
      ? refused(claims.claim({ resource: name, account: "", templateId, purge: purge !== false }), owner)
      : // Stryker disable next-line ArrayDeclaration: the guard's value is [] whatever this is (the last apply)
        [],
  );
  const declared = pulumi.output(inputs.records).apply((records) => {
    // Records that fail validation are refused by check() with their own message.
    const { records: valid, issues } = validateRecords(records);
    // Stryker disable next-line ArrayDeclaration,ConditionalExpression: the guard's value is [] whatever this is (the last apply); with issues, `valid` is [] (validateRecords), which declares nothing
    return issues.length > 0 ? [] : refused(claims.declareRecords(name, valid), owner);
  });
  return pulumi.all([claimed, declared]).apply(() => []);
}

/** `dependsOn` as the program gave it, plus the guard. */
export function withGuard(
  dependsOn: pulumi.CustomResourceOptions["dependsOn"],
  guard: pulumi.Output<pulumi.Resource[]>,
): pulumi.Input<pulumi.Resource>[] {
  // The SDK gathers dependsOn recursively: a list, an Output of a list, or one resource.
  return [dependsOn, guard].filter((d) => d !== undefined) as pulumi.Input<pulumi.Resource>[];
}
