/**
 * The change the demo makes to the quickstart, as a pull request would, in the `web` template: one
 * record changed, one added, one removed. It is data: the quickstart reads the records of `web`
 * from the stack config `webRecords` when it is set, so the demo changes that value, not the source.
 */
import type { ShownRecord } from "./output.ts";

/** A record as a program declares it. */
export type DeclaredRecord = Omit<ShownRecord, "recordId" | "recordIds">;

/** The stack config key the quickstart reads the records of `web` from. */
export const WEB_RECORDS_CONFIG = "webRecords";

/** What the change does, as the demo says it. */
export const CHANGE_SAYS = ["~ @ A 192.0.2.10 -> 192.0.2.11", "+ api A 192.0.2.20", "- @ AAAA 2001:db8::10"];

const is =
  (name: string, type: string) =>
  (r: DeclaredRecord): boolean =>
    r.name === name && r.type === type;

/**
 * The records of `web` after the change, from those the first up made (in the stack's outputs).
 *
 * @throws Error when the quickstart no longer holds the records the change is about
 */
export function changedWebRecords(current: readonly ShownRecord[]): DeclaredRecord[] {
  const declared = current.map(({ recordId: _id, recordIds: _ids, ...r }) => r);
  for (const [name, type] of [
    ["@", "A"],
    ["@", "AAAA"],
  ] as const) {
    if (declared.filter(is(name, type)).length !== 1) {
      throw new Error(
        `the quickstart's web template no longer holds exactly one ${name} ${type}: update scripts/demo/change.ts`,
      );
    }
  }
  const changed = declared
    .filter((r) => !is("@", "AAAA")(r))
    .map((r) => (is("@", "A")(r) ? { ...r, content: "192.0.2.11" } : r));
  return [...changed, { name: "api", type: "A", content: "192.0.2.20" }];
}
