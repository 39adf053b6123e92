/**
 * The command line's personality flags: each flag becomes its option, and a bad value is a usage
 * error (exit status 2) that names the flag, not the option.
 */
import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../src/cli";

describe("personality flags", () => {
  it("a bad flag is a usage error (exit 2) naming the flag", () => {
    const parse =
      (...argv: string[]) =>
      () =>
        parseCommandLine(["--api-key", "k", ...argv], {});
    expect(parse("--per-page-cap", "0")).toThrow(UsageError);
    expect(parse("--per-page-cap", "0")).toThrow(/--per-page-cap: must be an integer from 1/);
    expect(parse("--per-page-cap", "many")).toThrow(/--per-page-cap: expected an integer/);
    expect(parse("--null-strings=yes")).toThrow(UsageError);
    expect(parse("--error-body", "xml")).toThrow(/--error-body: must be one of error, message/);
    expect(parse("--retry-after", "minutes")).toThrow(
      /--retry-after: must be one of seconds, date, fraction/,
    );
    expect(parse("--patch-apply", "partial")).toThrow(/--patch-apply: must be one of atomic, itemwise/);
    expect(parse("--cut-bodies", "-1")).toThrow(/--cut-bodies/);
    expect(parse("--keep-alive-idle-ms", "0")).toThrow(/--keep-alive-idle-ms: must be an integer from 1/);
    expect(parse("--error-body")).toThrow(UsageError);
  });

  it("flags become options", () => {
    const command = parseCommandLine(
      [
        ...["--api-key", "k", "--per-page-cap", "25", "--null-strings", "--error-body", "problem"],
        ...[
          "--numeric-ids",
          "--no-url-forward-creates-records",
          "--retry-after",
          "fraction",
          "--cut-bodies",
          "3",
        ],
        ...[
          "--ignore-range",
          "--keep-alive-idle-ms",
          "250",
          "--patch-apply",
          "itemwise",
          "--contacts-growth",
          "2",
        ],
      ],
      {},
    );
    expect(command).toEqual({
      help: false,
      keyFromEnv: false,
      options: {
        apiKey: "k",
        port: 8080,
        perPageCap: 25,
        nullStrings: true,
        errorBody: "problem",
        numericIds: true,
        urlForwardCreatesRecords: false,
        retryAfter: "fraction",
        cutBodies: 3,
        ignoreRange: true,
        keepAliveIdleMs: 250,
        patchApply: "itemwise",
        contactsGrowth: 2,
      },
    });
  });
});
