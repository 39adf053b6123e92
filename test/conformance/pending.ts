/**
 * Personality x case pairs that fail today, each with why: they run only from
 * pending-provider.test.ts (outside the default include) until the provider handles them or the
 * lead decides the case expects the wrong thing.
 */
import { forwardCaseName } from "./cases";
import { PERSONALITIES } from "./personalities";

/** Why the provider fails the URL-forward cases against a service whose forwards bring records. */
const FORWARD_OWNERSHIP = {
  put:
    "The create PUTs the forwards with the other records; the PUT is answered, as the spec says, with one id " +
    "per submitted record, so the A and AAAA the service made for each forward are in no answer and the " +
    "resource never owns them (its ids are not the template's; removing the forward leaves nothing to say which " +
    "records were its). DECISIONS (Record ids, URL forwards): a PUT never carries a forward; each forward is added " +
    "by its own PATCH and owns every id of that answer. Provider side of issue 21 (parts 1 and 2).",
  patch:
    "Without purge each record is added by its own PATCH; a forward's add is answered with three ids (its own, " +
    "its A's and its AAAA's, in an order not shown) and the client refuses any answer of another count than the " +
    "adds sent: the add is of unknown outcome and the create fails. DECISIONS (URL forwards): all the ids of a " +
    "forward's add belong to the forward. Provider side of issue 21 (part 2).",
};

/** Every personality whose forwards bring their A and AAAA records: all but the one-id one. */
const FORWARDS_MAKE_RECORDS = PERSONALITIES.filter((p) => p.options.urlForwardCreatesRecords !== false);

export const PENDING_REASONS: Record<string, string> = {
  ...Object.fromEntries(
    FORWARDS_MAKE_RECORDS.flatMap((p) => [
      [`${p.name} :: ${forwardCaseName(true)}`, FORWARD_OWNERSHIP.put],
      [`${p.name} :: ${forwardCaseName(false)}`, FORWARD_OWNERSHIP.patch],
    ]),
  ),
  [`cutBodies 1 :: ${forwardCaseName(false)}`]:
    "Without purge the create adds record by record; the first PATCH's answer (200) is cut, so that add is of " +
    "unknown outcome and the create fails, as designed (never added twice): the same cause as the drift-without-" +
    "purge pair below. A case of its own for this personality would have to expect that failure.",
  "cutBodies 1 :: drift without purge: the vanished record is re-added and nothing else is touched":
    "The first PATCH add of the purge:false create is answered 200 with its body cut; the client reports the " +
    "outcome as unknown (not resent: right) although the status line proved it applied; the id is lost, so the " +
    "create fails and, without purge, is not healed by the next update. By design (DECISIONS, Record ids: never " +
    "added twice): without purge the provider cannot see the record, so it keeps it listed as untracked and " +
    "warns on every up instead of re-adding it; the case expects a convergence only purge can give.",
};

/** The names of the pending pairs (`"<personality> :: <case>"`). */
export const PENDING: ReadonlySet<string> = new Set(Object.keys(PENDING_REASONS));
