/**
 * A stand-in for the `process` a command's binary runs in (`runAsCommand(proc)`): its arguments, its
 * stdin, what it writes and the exit status it sets, in this test's own process.
 */
import { PassThrough } from "node:stream";

const NODE = "/usr/bin/node";

/** What the command wrote to stdout and stderr, and the status it set. */
export interface CommandProcess {
  readonly argv: readonly string[];
  readonly stdin: PassThrough & { isTTY: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  exitCode: number | string | null | undefined;
  out: string;
  err: string;
}

/**
 * The process of `node <script> args...`, with `stdin` as its input (a terminal when `tty`); its
 * stderr throws `failFirst` on its first write (a pipe that refuses a write once: EAGAIN).
 */
export function fakeProcess(
  script: string,
  args: readonly string[],
  options: { stdin?: string; tty?: boolean; failFirst?: unknown } = {},
): CommandProcess {
  const input = Object.assign(new PassThrough(), { isTTY: options.tty ?? false });
  input.end(options.stdin ?? "");
  let failFirst = options.failFirst;
  const proc: CommandProcess = {
    argv: [NODE, script, ...args],
    stdin: input,
    out: "",
    err: "",
    exitCode: undefined,
    stdout: { write: (t: string) => (proc.out += t) },
    stderr: {
      write: (t: string) => {
        if (failFirst !== undefined) {
          const thrown = failFirst;
          failFirst = undefined;
          throw thrown;
        }
        proc.err += t;
      },
    },
  };
  return proc;
}
