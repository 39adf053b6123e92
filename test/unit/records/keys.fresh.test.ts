/**
 * The key of a record new to a resource (`freshKey`, records/keys.ts): the most readable one no
 * previous record used (`name/type` only when it is alone of its name and type, then with its
 * content, then with its numbers too, then `#2`, `#3`), so that a new record is never shown as a
 * deleted one come back.
 */
import { describe, expect, it } from "vitest";
import type { RecordSpec } from "../../../provider/dns/model";
import { freshKey } from "../../../provider/records/keys";

const www: RecordSpec = { name: "www", type: "A", content: "192.0.2.2" };
const mx: RecordSpec = { name: "@", type: "MX", content: "mx1.example.net", priority: 10 };

describe("freshKey", () => {
  it("gives name/type to a record alone of its name and type, and never to one with siblings", () => {
    expect(freshKey(www, new Set(), true)).toBe("www/A");
    expect(freshKey(www, new Set(), false)).toBe("www/A/192.0.2.2");
    expect(freshKey(www, new Set(["www/A"]), true)).toBe("www/A/192.0.2.2");
  });

  it("adds the numbers when the content's key was used, then counts from #2 past every used key", () => {
    expect(freshKey(mx, new Set(["@/MX/mx1.example.net"]), false)).toBe("@/MX/10 mx1.example.net");
    const used = new Set([
      "@/MX",
      "@/MX/mx1.example.net",
      "@/MX/10 mx1.example.net",
      "@/MX/10 mx1.example.net#2",
    ]);
    expect(freshKey(mx, used, true)).toBe("@/MX/10 mx1.example.net#3");
    expect(freshKey(www, new Set(["www/A/192.0.2.2"]), false)).toBe("www/A/192.0.2.2#2");
  });

  it("takes the key it gives, so that the next record of the same values gets another", () => {
    const used = new Set<string>();
    expect([freshKey(www, used, true), freshKey(www, used, true), freshKey(www, used, true)]).toEqual([
      "www/A",
      "www/A/192.0.2.2",
      "www/A/192.0.2.2#2",
    ]);
    expect([...used].sort()).toEqual(["www/A", "www/A/192.0.2.2", "www/A/192.0.2.2#2"]);
  });
});
