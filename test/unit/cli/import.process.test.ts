/**
 * `domainapi-import` as its binary runs it, in this process with a process of its own: the
 * arguments after `node` and the script, the exit status it sets (0 written, 2 refused, 1 a failure
 * it did not foresee, said), and a reader that closes the pipe ending it quietly with that status.
 */
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CommandProcess, runAsCommand, runImportCommand } from "../../../provider/cli/import";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A stream that keeps what is written to it; `fail` makes its writes throw. */
class Stream extends EventEmitter {
  text = "";
  fail?: Error;
  write(text: string): boolean {
    if (this.fail) throw this.fail;
    this.text += text;
    return true;
  }
}

/** A process running `domainapi-import args...`, its exits recorded. */
function fakeProcess(args: string[]): CommandProcess & { stdout: Stream; stderr: Stream; exits: number[] } {
  const exits: number[] = [];
  return {
    argv: ["/usr/bin/node", "/usr/lib/node_modules/pulumi-domainapi/dist/provider/cli/import.js", ...args],
    stdout: new Stream(),
    stderr: new Stream(),
    exitCode: undefined,
    exits,
    exit: (code) => {
      exits.push(code);
    },
  };
}

// As Cloudflare's "Export DNS records" writes a zone: the SOA first, its owner without the final dot.
const CLOUDFLARE =
  ";; Domain:     example.com.\n;; Exported:   2024-05-01 10:00:00\n" +
  "example.com\t3600\tIN\tSOA\tada.ns.cloudflare.com. dns.cloudflare.com. 2047000000 10000 2400 604800 3600\n" +
  ";; A Records\nwww.example.com.\t1\tIN\tA\t192.0.2.7 ; cf_tags=cf-proxied:false\n";

describe("the binary's process", () => {
  it("is only the binary's: a program that imports the command's module is not run as the command", () => {
    // This process imported it above: had the command run, it would have set an exit status.
    expect(process.exitCode).toBeUndefined();
  });

  it("reads the arguments after node and the script; exit status 0 once the program is written", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-process-"));
    dirs.push(dir);
    const zone = path.join(dir, "example.com.txt");
    fs.writeFileSync(zone, CLOUDFLARE);
    const out = path.join(dir, "dns");
    const proc = fakeProcess([zone, "--lang", "yaml", "--out", out]);
    await runAsCommand(proc);
    expect(proc.exitCode).toBe(0);
    expect(proc.stderr.text).toBe("");
    expect(proc.stdout.text).toContain(`wrote Pulumi.yaml, import-report.md to ${out}`);
    expect(fs.readFileSync(path.join(out, "Pulumi.yaml"), "utf8")).toContain(
      '- { name: "www", type: "A", content: "192.0.2.7" }',
    );
  });

  it("sets exit status 2 for arguments it refuses, the usage on stderr", async () => {
    const proc = fakeProcess([]);
    await runAsCommand(proc);
    expect(proc.exitCode).toBe(2);
    expect(proc.stderr.text).toMatch(/^domainapi-import: expected at least one zone file\n\nUsage: /);
    expect(proc.stdout.text).toBe("");
  });

  it("a failure it did not foresee is said on stderr, exit status 1", async () => {
    const proc = fakeProcess(["--help"]);
    proc.stdout.fail = new Error("write EIO");
    await runAsCommand(proc);
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.text).toBe("domainapi-import: write EIO\n");
  });

  it("a stream that throws a value that is no Error: the value is said, exit status 1", async () => {
    const proc = fakeProcess(["--help"]);
    proc.stdout.fail = "stdout is gone" as unknown as Error;
    await runAsCommand(proc);
    expect(proc.exitCode).toBe(1);
    expect(proc.stderr.text).toBe("domainapi-import: stdout is gone\n");
  });

  it("a reader that closes either pipe ends it quietly: 0 for stdout, its exit status (1 if none yet) for stderr", async () => {
    const proc = fakeProcess(["--help"]);
    await runAsCommand(proc);
    const epipe = (): Error => Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    proc.exitCode = 2;
    proc.stdout.emit("error", epipe());
    proc.stderr.emit("error", epipe());
    proc.exitCode = undefined;
    proc.stderr.emit("error", epipe());
    expect(proc.exits).toEqual([0, 2, 1]);
  });
});

describe("runImportCommand with streams of a program's own", () => {
  it("a write that throws a value that is no Error, once the program is written: the value is said, exit 1", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-import-process-"));
    dirs.push(dir);
    const zone = path.join(dir, "example.com.txt");
    fs.writeFileSync(zone, CLOUDFLARE);
    let stderr = "";
    const code = await runImportCommand([zone, "--lang", "go", "--out", path.join(dir, "dns")], {
      stdout: {
        write: () => {
          throw "the log is full";
        },
      },
      stderr: { write: (t: string) => (stderr += t) },
    });
    expect(code).toBe(1);
    expect(stderr).toBe("domainapi-import: the log is full\n");
    expect(fs.readdirSync(path.join(dir, "dns")).sort()).toEqual([
      "Pulumi.yaml",
      "go.mod",
      "import-report.md",
      "main.go",
    ]);
  });
});
