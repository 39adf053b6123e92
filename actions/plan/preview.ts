/**
 * The pull-request half of the plan action: `pulumi preview --json` of the stack, written with its
 * exit status into a directory the action uploads as an artifact. It runs the pull request's
 * program, so it holds no API key (a preview sends nothing) and renders nothing: the comment is made
 * from this artifact by a run the pull request cannot change. A failed preview still leaves its
 * JSON (the plan then shows its error); the action fails the job after the upload.
 *
 * Environment: STACK, WORK_DIR, OUT_DIR; `pulumi` on PATH.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { env, output, run, step } from "../lib/run.ts";

step(() => {
  const out = env("OUT_DIR");
  fs.mkdirSync(out, { recursive: true });
  const fd = fs.openSync(path.join(out, "preview.json"), "w");
  let status: number;
  try {
    status = run("pulumi", ["preview", "--stack", env("STACK"), "--json", "--non-interactive"], {
      cwd: env("WORK_DIR"),
      stdout: fd,
    }).status;
  } finally {
    fs.closeSync(fd);
  }
  fs.writeFileSync(path.join(out, "status.json"), `${JSON.stringify({ exitCode: status })}\n`);
  output("exit-code", String(status));
  process.stdout.write(`pulumi preview exited ${status}; its JSON is in ${path.join(out, "preview.json")}\n`);
  return 0;
});
