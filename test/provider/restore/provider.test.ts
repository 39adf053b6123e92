/**
 * What DomainRestore's provider says and decides beyond restore.test.ts: the lines a user reads on
 * a restore, on its confirmation and on its removal from the stack; which refusal of a confirming
 * repeat is read as "no longer in quarantine" (a 4xx about the domain) and which is passed on (a
 * server error, a dropped connection); and the advice for a name with a trailing dot that is still
 * wrong without it. Against the sandbox.
 */
import { describe, expect, it } from "vitest";
import { DomainApiError } from "../../../provider/errors";
import * as restore from "../../../provider/restore/provider";
import { API_KEY, useSandbox } from "../../../sandbox/test/helpers";
import { configureFor, useConsoleLines } from "../helpers";

type Props = Record<string, unknown>;
const sandbox = useSandbox();
const said = useConsoleLines();
const configure = () => configureFor(restore, sandbox, API_KEY, { maxRetries: 0, timeoutMs: 2000 });

/** A restore whose answer was lost after it took effect: its state, unconfirmed. */
async function unconfirmed(domain: string): Promise<Props> {
  configure();
  sandbox.addFault({ method: "POST", drop: "before" });
  const err = await restore.create({ domain }).then(
    () => expect.fail("the create answered"),
    (e: unknown) => e as { properties: Props },
  );
  sandbox.reset();
  return err.properties;
}

describe("what a restore says", () => {
  it("a restore says when it took effect", async () => {
    configure();
    const created = await restore.create({ domain: "shop.example" });
    expect(said.join("\n")).toContain(
      `domain shop.example restored from quarantine at ${created.outs.restoredAt}`,
    );
  });

  it("a confirmation that restores says the earlier attempt had not taken effect", async () => {
    const olds = await unconfirmed("shop.example");
    said.length = 0;
    const confirmed = await restore.update("shop.example", olds, { domain: "shop.example" });
    expect(confirmed.outs).toMatchObject({ domain: "shop.example", restoredAt: expect.any(String) });
    expect(said.join("\n")).toContain(
      "domain shop.example restored from quarantine (the earlier attempt had not taken effect)",
    );
  });

  it("removing a restore from the stack says that a restore cannot be undone, and sends nothing", async () => {
    await restore.delete("shop.example", { domain: "shop.example" });
    expect(said.join("\n")).toContain(
      "DomainRestore shop.example: a restore cannot be undone; removing it from the stack leaves the domain as it is",
    );
    expect(sandbox.requests).toEqual([]);
  });
});

describe("a confirming repeat that fails", () => {
  it("on a server error is no confirmation: the error is passed on, and nothing is recorded as restored", async () => {
    const olds = await unconfirmed("shop.example");
    sandbox.addFault({ method: "POST", respond: { status: 500 } });
    const err = await restore.update("shop.example", olds, { domain: "shop.example" }).then(
      () => expect.fail("the update answered"),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainApiError);
    expect((err as DomainApiError).status).toBe(500);
    expect(said.join("\n")).not.toMatch(/refused a second restore/);
  });

  it("on a dropped connection is no confirmation either", async () => {
    const olds = await unconfirmed("shop.example");
    sandbox.addFault({ method: "POST", drop: "before" });
    const err = await restore.update("shop.example", olds, { domain: "shop.example" }).then(
      () => expect.fail("the update answered"),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainApiError);
    expect((err as DomainApiError).kind).not.toBe("http");
    expect(said.join("\n")).not.toMatch(/refused a second restore/);
  });

  it("on a 499 of the API is read as the domain no longer being in quarantine", async () => {
    const olds = await unconfirmed("shop.example");
    sandbox.addFault({ method: "POST", respond: { status: 499, body: JSON.stringify({ message: "gone" }) } });
    const confirmed = await restore.update("shop.example", olds, { domain: "shop.example" });
    expect(confirmed.outs).toMatchObject({ domain: "shop.example" });
    expect(said.join("\n")).toContain(
      'domain shop.example: the API refused a second restore with 499 ("gone"), read as "not in quarantine"',
    );
  });
});

describe("a trailing dot", () => {
  it("on a name still wrong without it says both fixes", () => {
    expect(restore.domainProblem("shop.")).toBe(
      'drop the trailing dot, and "shop" has no top-level domain; give the full name, e.g. "shop.example"',
    );
  });
});
