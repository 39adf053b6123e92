/**
 * A server is one address and at most one port: text around a bracketed address, a second port, or
 * a port that is not all digits makes it no address at all, never a server read from part of it.
 */
import { describe, expect, it } from "vitest";
import { parseDnsServer } from "../../../provider/settings/dnsServers";

describe("nothing but the address and its port", () => {
  it.each(["x[::1]:53", "[::1]:53x", "[::1]]:53", "1.2.3.4:5:6", "1.2.3.4:53a", "1.2.3.4 :53", "[::1]::53"])(
    "%j is refused whole",
    (text) => {
      expect(parseDnsServer(text)).toEqual({
        problem: `${JSON.stringify(text)} is not an IP address (with an optional port): give the authoritative server's address, e.g. 192.0.2.53 or 127.0.0.1:5353 or [2001:db8::53]:53`,
      });
    },
  );
});
