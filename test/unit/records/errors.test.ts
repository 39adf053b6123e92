/**
 * The errors of the records path as the user reads them: what happened, that a request applied
 * even when its answer cannot be used, and what to do; each with its stable code and brand.
 */
import { describe, expect, it } from "vitest";
import { DomainApiBaseError } from "../../../provider/errors";
import { putOf } from "../../../provider/records/corrections";
import { RecoveryLimitError, UnattributableAnswerError } from "../../../provider/records/errors";
import { foldOutcome } from "../../../provider/records/fold";

describe("UnattributableAnswerError", () => {
  it("says the answer cannot be attributed, why, and that the request applied all the same", () => {
    const put = putOf([{ name: "www", type: "A", content: "192.0.2.1", key: "www/A" }]);
    const { failure } = foldOutcome({ held: [], untracked: [] }, put, {
      kind: "accepted",
      ids: ["n1", "n2"],
    });
    expect(failure).toBeInstanceOf(UnattributableAnswerError);
    expect(failure).toBeInstanceOf(DomainApiBaseError);
    expect(failure?.code).toBe("DOMAINAPI_UNATTRIBUTABLE_ANSWER");
    expect(failure?.message).toBe(
      "the service's answer cannot be attributed to the request: the PUT of 1 record(s) was answered with " +
        '2 record id(s) (["n1","n2"]); the request has applied all the same',
    );
  });
});

describe("RecoveryLimitError", () => {
  it("names the template and the recoveries, says what to do, and keeps the last refusal as its cause", () => {
    const refusal = new Error("PATCH /v2/dns/templates/web/records returned 404 Not Found");
    const error = new RecoveryLimitError("web", 3, refusal);
    expect(error).toBeInstanceOf(DomainApiBaseError);
    expect(error.code).toBe("DOMAINAPI_RECOVERY_LIMIT");
    expect(error.message).toBe(
      "template web: records kept vanishing while 3 recoveries were carried out; run `pulumi up` again",
    );
    expect(error.cause).toBe(refusal);
  });

  it("is told apart from the other errors of the records path by its brand", () => {
    const error = new RecoveryLimitError("web", 3, undefined);
    expect(error).not.toBeInstanceOf(UnattributableAnswerError);
    expect(new UnattributableAnswerError("two ids for one record")).not.toBeInstanceOf(RecoveryLimitError);
  });
});

describe("instanceof across copies of the package", () => {
  // Another copy (another version, installed beside this one) knows each class by its brand's key
  // alone: the keys are the contract between copies.
  const ofAnotherCopy = (key: string) => Object.assign(new Error("theirs"), { [Symbol.for(key)]: true });

  it("an error of another copy is an instance of this copy's class of the same name, and of no other", () => {
    const recovery = ofAnotherCopy("pulumi-domainapi.RecoveryLimitError");
    const unattributable = ofAnotherCopy("pulumi-domainapi.UnattributableAnswerError");
    expect(recovery).toBeInstanceOf(RecoveryLimitError);
    expect(recovery).not.toBeInstanceOf(UnattributableAnswerError);
    expect(unattributable).toBeInstanceOf(UnattributableAnswerError);
    expect(unattributable).not.toBeInstanceOf(RecoveryLimitError);
  });
});
