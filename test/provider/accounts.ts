/**
 * Many accounts for one sandbox, for the tests of a process that serves many (docs/design.md,
 * "Clients"): a small front server on 127.0.0.1 takes `/acct-<n>/v2/...`, strips the prefix and
 * passes the request on to the sandbox, counting the connections open to it. With `anyKey`, it
 * accepts any bearer key and hands the sandbox its own, so each account can have a key of its own
 * as real accounts do.
 */
import { createServer, Agent as HttpAgent, request as httpRequest, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** The front server of {@link startFront}. */
export interface Front {
  url: string;
  /** The connections open to the front server now. */
  open: Set<Socket>;
  close(): Promise<void>;
}

/**
 * The front server: many base URLs (`<url>/acct-<n>`) for one sandbox.
 *
 * @param anyKey the sandbox's key, sent in place of whatever key a request carries
 */
export async function startFront(sandboxUrl: string, anyKey?: string): Promise<Front> {
  const upstream = new URL(sandboxUrl);
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 4 });
  const open = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").replace(/^\/acct-\d+/, "");
    if (anyKey !== undefined && req.headers.authorization !== undefined) {
      req.headers.authorization = `Bearer ${anyKey}`;
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, path, method: req.method, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  // Longer than the client's own keep-alive (4 s), so that only the client closes idle sockets.
  server.keepAliveTimeout = 60_000;
  server.on("connection", (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    open,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** The heap in use after full collections: `gc` exposed through V8's flags for this process. */
export function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
}
