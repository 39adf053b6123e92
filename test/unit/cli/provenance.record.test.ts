/**
 * The record directory the apply action fills with `gh` (docs/previews.md): `pull.json`, `run.json`,
 * `reviews.json` (`gh api --paginate`: pages one after the other), `edits.json` (GraphQL),
 * `artifact/meta.json` and `artifact/comment.md`. A file missing leaves its part out, so the check
 * names it; a file there but not of its form is refused, naming the file.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PreviewInputError } from "../../../provider/cli/errors";
import { readPlanRecord } from "../../../provider/cli/provenance";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "domainapi-plan-record-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A record directory holding `files` (path → text). */
function dir(files: Record<string, string>): string {
  const d = path.join(root, String(n++));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(d, name)), { recursive: true });
    fs.writeFileSync(path.join(d, name), text);
  }
  fs.mkdirSync(d, { recursive: true });
  return d;
}

const pull = { number: 7, user: { login: "author" }, head: { sha: "abc" }, merged_at: null, title: "t" };
const run = {
  id: 42,
  event: "workflow_run",
  status: "completed",
  conclusion: "success",
  created_at: "2026-11-26T10:00:00Z",
};
const review = (login: string) => ({
  user: { login },
  state: "APPROVED",
  commit_id: "abc",
  submitted_at: "2026-11-26T11:00:00Z",
});
const edits = {
  data: {
    node: { id: "IC_1", author: null, lastEditedAt: null, userContentEdits: { totalCount: 0, nodes: [] } },
  },
};
const meta = { pullRequest: 7, commit: "abc", run: 42 };

/** The message `readPlanRecord` refuses `d` with. */
async function refusal(d: string): Promise<string> {
  try {
    await readPlanRecord(d);
  } catch (err) {
    expect(err).toBeInstanceOf(PreviewInputError);
    return (err as Error).message;
  }
  throw new Error("read");
}

describe("readPlanRecord", () => {
  it("reads every part, the comment as it is, the reviews' pages in order", async () => {
    const d = dir({
      "pull.json": JSON.stringify(pull, null, 2),
      "run.json": JSON.stringify(run),
      "reviews.json": `${JSON.stringify([review("a"), review("b")])}\n${JSON.stringify([review("c")])}`,
      "edits.json": JSON.stringify(edits),
      "artifact/meta.json": JSON.stringify(meta),
      "artifact/comment.md": "### DNS record plan\r\n\nbody  \n",
    });
    const record = await readPlanRecord(d);
    expect(record.pull).toEqual(pull);
    expect(record.run).toEqual(run);
    expect(record.edits).toEqual(edits);
    expect(record.meta).toEqual(meta);
    expect(record.comment).toBe("### DNS record plan\r\n\nbody  \n");
    expect(record.reviews?.map((r) => r.user?.login)).toEqual(["a", "b", "c"]);
  });

  it("reviews fetched with --slurp (an array of pages) read the same", async () => {
    const d = dir({ "reviews.json": JSON.stringify([[review("a")], [review("b")]]) });
    expect((await readPlanRecord(d)).reviews?.map((r) => r.user?.login)).toEqual(["a", "b"]);
  });

  it("an empty directory: nothing, each part absent for the checks to name", async () => {
    expect(await readPlanRecord(dir({}))).toEqual({});
    const some = await readPlanRecord(dir({ "run.json": JSON.stringify(run) }));
    expect(Object.keys(some)).toEqual(["run"]);
  });

  it("a file that is not JSON, or not one value: refused, naming it", async () => {
    const d1 = dir({ "pull.json": "<html>rate limited</html>" });
    expect(await refusal(d1)).toBe(`${path.join(d1, "pull.json")} is not JSON: unexpected "<" at position 0`);
    const d2 = dir({ "run.json": `${JSON.stringify(run)}${JSON.stringify(run)}` });
    expect(await refusal(d2)).toBe(`${path.join(d2, "run.json")} is not JSON: 2 JSON values, expected one`);
    const d3 = dir({ "artifact/meta.json": "" });
    expect(await refusal(d3)).toBe(
      `${path.join(d3, "artifact", "meta.json")} is not JSON: 0 JSON values, expected one`,
    );
    const d4 = dir({ "reviews.json": "[" });
    expect(await refusal(d4)).toBe(
      `${path.join(d4, "reviews.json")} is not JSON: the input ends inside a value`,
    );
  });

  it("a file of another form (an error answer of the API): refused, naming it and what does not fit", async () => {
    const d = dir({ "edits.json": JSON.stringify({ errors: [{ message: "Could not resolve to a node" }] }) });
    const message = await refusal(d);
    expect(
      message.startsWith(`${path.join(d, "edits.json")} is not what the GitHub API returns for it: `),
    ).toBe(true);
    expect(message).toMatch(/data/);
    expect(message).not.toContain("\n");
    const r = dir({ "reviews.json": JSON.stringify([{ state: 1 }]) });
    expect(await refusal(r)).toMatch(/reviews\.json is not what the GitHub API returns for it: .*state/);
  });

  it("every field the checks read, of another type at any depth: refused, naming the file", async () => {
    const node = edits.data.node;
    const edit = {
      editedAt: "2026-11-26T10:30:00Z",
      deletedAt: null,
      editor: { __typename: "Bot", login: "b" },
    };
    const wrong: [string, unknown][] = [
      ["pull.json", { ...pull, number: "7" }],
      ["pull.json", { ...pull, head: {} }],
      ["pull.json", { ...pull, user: { login: 1 } }],
      ["pull.json", { ...pull, merged_at: 1 }],
      ["run.json", { ...run, id: "42" }],
      ["run.json", { ...run, event: undefined }],
      ["run.json", { ...run, created_at: undefined }],
      ["run.json", { ...run, status: 1 }],
      ["artifact/meta.json", { ...meta, pullRequest: "7" }],
      ["artifact/meta.json", { ...meta, commit: 1 }],
      ["artifact/meta.json", { ...meta, run: undefined }],
      ["artifact/meta.json", { ...meta, previewRun: "1" }],
      ["edits.json", { data: {} }],
      ["edits.json", { data: { node: { ...node, id: undefined } } }],
      ["edits.json", { data: { node: { ...node, author: { login: 1 } } } }],
      ["edits.json", { data: { node: { ...node, lastEditedAt: 1 } } }],
      ["edits.json", { data: { node: { ...node, userContentEdits: { nodes: [] } } } }],
      [
        "edits.json",
        {
          data: { node: { ...node, userContentEdits: { totalCount: 1, nodes: [{ ...edit, editedAt: 1 }] } } },
        },
      ],
      [
        "edits.json",
        {
          data: {
            node: { ...node, userContentEdits: { totalCount: 1, nodes: [{ ...edit, deletedAt: 1 }] } },
          },
        },
      ],
      [
        "edits.json",
        {
          data: { node: { ...node, userContentEdits: { totalCount: 1, nodes: [{ ...edit, editor: {} }] } } },
        },
      ],
      ["reviews.json", [{ ...review("a"), user: { login: 1 } }]],
      ["reviews.json", [{ ...review("a"), commit_id: 1 }]],
      ["reviews.json", [{ ...review("a"), submitted_at: 1 }]],
      ["reviews.json", [{ ...review("a"), author_association: 1 }]],
    ];
    for (const [name, value] of wrong) {
      const d = dir({ [name]: JSON.stringify(value) });
      expect(await refusal(d), `${name} ${JSON.stringify(value)}`).toMatch(
        new RegExp(
          `^${path.join(d, name).replaceAll(".", "\\.")} is not what the GitHub API returns for it: `,
        ),
      );
    }
  });

  it("a part that cannot be read (a directory where the file should be): refused, naming it", async () => {
    const d = dir({ "pull.json/x": "" });
    expect(await refusal(d)).toMatch(
      new RegExp(`^cannot read ${path.join(d, "pull.json").replaceAll(".", "\\.")}: Error: EISDIR`),
    );
    const c = dir({ "artifact/comment.md/x": "" });
    expect(await refusal(c)).toMatch(/^cannot read .*comment\.md: Error: EISDIR/);
  });
});
