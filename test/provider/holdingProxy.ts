/**
 * A proxy in front of a sandbox that can hold an answer: it forwards a chosen request, waits until
 * the sandbox has applied it and answered, and then keeps that answer from the client. What a run
 * killed between "the API applied the request" and "the answer reached the provider" leaves is
 * then exactly reproducible, with no sleeps: the test acts while the answer is held.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the proxy received. */
export interface Seen {
  method: string;
  path: string;
  at: number;
}

/** The proxy; see the module comment. */
export interface HoldingProxy {
  /** The address to configure instead of the sandbox's. */
  url: string;
  /** Every request received, in order. */
  seen: Seen[];
  /**
   * Holds the answer of the `nth` next request (default the next) whose method is `method`:
   * resolves once the sandbox has applied it and answered (the answer is kept from the client).
   */
  holdNext(method: string, nth?: number): Promise<void>;
  /**
   * Holds the `nth` next `method` request before it reaches the sandbox: resolves once it has been
   * received (the sandbox has applied nothing of it); `drop` then loses it, `release` forwards it.
   */
  holdBefore(method: string, nth?: number): Promise<void>;
  /** Drops the held request's connection without an answer (the client sees a reset). */
  drop(): void;
  /** Lets the held answer through, late. */
  release(): void;
  close(): Promise<void>;
}

/** Starts a holding proxy on loopback in front of `target` (a base address). */
export async function holdingProxy(target: string): Promise<HoldingProxy> {
  const upstream = new URL(target);
  const seen: Seen[] = [];
  let hold: { method: string; left: number; held: () => void; before?: boolean } | undefined;
  let heldResponse: ServerResponse | undefined;
  let release: (() => void) | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? "", path: req.url ?? "", at: Date.now() });
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const matches = hold !== undefined && hold.method === req.method && --hold.left === 0;
      const holding = matches ? hold : undefined;
      if (holding) hold = undefined;
      const forward = () => {
        const out = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: upstream.host },
          },
          (answer) => {
            const body: Buffer[] = [];
            answer.on("data", (c: Buffer) => body.push(c));
            answer.on("end", () => {
              const answerIt = () => {
                res.writeHead(answer.statusCode ?? 502, answer.headers);
                res.end(Buffer.concat(body));
              };
              if (holding && !holding.before) {
                heldResponse = res;
                release = answerIt;
                holding.held();
                return;
              }
              answerIt();
            });
          },
        );
        out.on("error", () => res.destroy());
        out.end(Buffer.concat(chunks));
      };
      if (holding?.before) {
        heldResponse = res;
        release = forward;
        holding.held();
        return;
      }
      forward();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    holdNext(method, nth = 1) {
      return new Promise<void>((held) => {
        hold = { method, left: nth, held };
      });
    },
    holdBefore(method, nth = 1) {
      return new Promise<void>((held) => {
        hold = { method, left: nth, held, before: true };
      });
    },
    drop() {
      heldResponse?.socket?.destroy();
      heldResponse = undefined;
      release = undefined;
    },
    release() {
      release?.();
      heldResponse = undefined;
      release = undefined;
    },
    async close() {
      heldResponse?.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
