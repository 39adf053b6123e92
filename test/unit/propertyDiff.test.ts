/**
 * The plugin's detailed diff as `pulumi preview --diff` shows it: each changed input property, a
 * record's change as one entry under its key, the engine's kind of each change
 * (`PropertyDiff.Kind`: ADD, DELETE, UPDATE and their _REPLACE forms), and the top-level
 * properties named once in the diff's list.
 */
import { describe, expect, it } from "vitest";
import {
  changedProperties,
  detailedDiff,
  engineKind,
  type PropertyChange,
} from "../../provider/propertyDiff";

describe("detailedDiff", () => {
  it("nothing changed, nothing listed: equal values compared deeply, not by reference", () => {
    const olds = {
      templateId: "t",
      records: { "www/A": { content: "1", tags: ["a"] } },
      list: [1, { x: 2 }],
    };
    const news = structuredClone(olds);
    expect(detailedDiff(olds, news, ["templateId"])).toEqual([]);
  });

  it("a property added, deleted and updated at the top, each replacing only when listed", () => {
    expect(detailedDiff({ a: 1, b: "x" }, { a: 2, c: true }, ["b", "c"])).toEqual([
      { path: "a", kind: "update", replace: false },
      { path: "b", kind: "delete", replace: true },
      { path: "c", kind: "add", replace: true },
    ]);
  });

  it("a change of kind of value (object, scalar, null, list) is one update of the property", () => {
    expect(
      detailedDiff({ a: { x: 1 }, b: 5, c: null, d: {} }, { a: 5, b: { x: 1 }, c: {}, d: null }, []),
    ).toEqual([
      { path: "a", kind: "update", replace: false },
      { path: "b", kind: "update", replace: false },
      { path: "c", kind: "update", replace: false },
      { path: "d", kind: "update", replace: false },
    ]);
  });

  it("lists are compared as wholes, never element by element", () => {
    expect(detailedDiff({ a: [1, 2] }, { a: [1, 3] }, ["a"])).toEqual([
      { path: "a", kind: "update", replace: true },
    ]);
    expect(detailedDiff({ a: [1] }, { a: { 0: 1 } }, [])).toEqual([
      { path: "a", kind: "update", replace: false },
    ]);
  });

  it("an object is compared key by key, one level down, its replace flag that of its property", () => {
    const olds = { records: { "www/A": { content: "1" }, gone: { content: "2" }, same: 1 } };
    const news = { records: { "www/A": { content: "1", extra: true }, same: 1, _new: { content: "3" } } };
    expect(detailedDiff(olds, news, ["records"])).toEqual([
      { path: 'records["www/A"]', kind: "update", replace: true },
      { path: "records.gone", kind: "delete", replace: true },
      { path: "records._new", kind: "add", replace: true },
    ]);
  });

  it("a key that is not an identifier is written in brackets, so that the path stays a path", () => {
    const keys = ["plain", "_x", "Ab_9", "9lives", "a-b", "a.b", "a b", "", "é", "$x"];
    const changes = detailedDiff({ r: {} }, { r: Object.fromEntries(keys.map((k) => [k, 1])) }, []);
    expect(changes.map((c) => c.path)).toEqual([
      "r.plain",
      "r._x",
      "r.Ab_9",
      'r["9lives"]',
      'r["a-b"]',
      'r["a.b"]',
      'r["a b"]',
      'r[""]',
      'r["é"]',
      'r["$x"]',
    ]);
    expect(changes.every((c) => c.kind === "add")).toBe(true);
  });
});

describe("engineKind", () => {
  it.each([
    ["add", false, "ADD"],
    ["add", true, "ADD_REPLACE"],
    ["delete", false, "DELETE"],
    ["delete", true, "DELETE_REPLACE"],
    ["update", false, "UPDATE"],
    ["update", true, "UPDATE_REPLACE"],
  ] as const)("%s, replace %s: %s", (kind, replace, name) => {
    expect(engineKind({ path: "p", kind, replace })).toBe(name);
  });
});

describe("changedProperties", () => {
  it("the top-level property of each change, each once, in the order of the changes", () => {
    const changes: PropertyChange[] = [
      { path: 'records["www/A"]', kind: "update", replace: false },
      { path: "templateId", kind: "update", replace: true },
      { path: "records.api", kind: "add", replace: false },
      { path: "settings.retry.max", kind: "delete", replace: false },
    ];
    expect(changedProperties(changes)).toEqual(["records", "templateId", "settings"]);
    expect(changedProperties([])).toEqual([]);
  });
});
