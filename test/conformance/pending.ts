/**
 * Personality x case pairs that fail today, each with why: they run only from
 * pending-provider.test.ts (outside the default include) until the provider handles them or the
 * lead decides the case expects the wrong thing.
 */
import { forwardCaseName } from "./cases";

export const PENDING_REASONS: Record<string, string> = {
  [`cutBodies 1 :: ${forwardCaseName(false)}`]:
    "Without purge the create adds record by record; the first PATCH's answer (200) is cut, so that add is of " +
    "unknown outcome and the create fails, as designed (never added twice): the same cause as the drift-without-" +
    "purge pair below. A case of its own for this personality would have to expect that failure.",
  "cutBodies 1 :: drift without purge: the vanished record is re-added and nothing else is touched":
    "The first PATCH add of the purge:false create is answered 200 with its body cut; the client reports the " +
    "outcome as unknown (not resent: right) although the status line proved it applied; the id is lost, so the " +
    'create fails and, without purge, is not healed by the next update. By design (docs/design.md, "Record ids": never ' +
    "added twice): without purge the provider cannot see the record, so it keeps it listed as untracked and " +
    "warns on every up instead of re-adding it; the case expects a convergence only purge can give.",
};

/** The names of the pending pairs (`"<personality> :: <case>"`). */
export const PENDING: ReadonlySet<string> = new Set(Object.keys(PENDING_REASONS));
