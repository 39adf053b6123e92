/**
 * The API's own words in an error body (docs/design.md, "Errors": the body's shape is not shown):
 * which field wins when several are there, what is skipped (empty or non-string messages), and how
 * a raw body is made fit for a terminal (control characters out, whitespace collapsed, cut at 500
 * characters with an ellipsis).
 */
import { describe, expect, test } from "vitest";
import { extractApiMessage } from "../../../provider/client/body";

describe("which field speaks for the API", () => {
  test.each([
    ["message before error", '{"message":"m","error":"e"}', "m"],
    [
      "error (a string) before error.message of another field",
      '{"error":"e","errors":[{"message":"x"}]}',
      "e",
    ],
    ["error.message before errors[]", '{"error":{"message":"em"},"errors":[{"message":"x"}]}', "em"],
    ["errors[] before detail", '{"errors":[{"message":"x"}],"detail":"d"}', "x"],
    ["detail before title", '{"title":"t","detail":"d"}', "d"],
    ["an empty message gives way", '{"message":"  ","error":"e"}', "e"],
    ["a message that is not a string gives way", '{"message":42,"title":"t"}', "t"],
    ["an empty error string gives way", '{"error":" ","title":"t"}', "t"],
    ["an error object without a message gives way", '{"error":{"code":"x"},"detail":"d"}', "d"],
    ["an error list is not an error object", '{"error":["x"],"detail":"d"}', "d"],
    [
      "errors[] skips empty and non-string messages",
      '{"errors":[{"message":" "},{"message":7},{"code":1},3,"s",{"message":"m"}]}',
      "s; m",
    ],
    ["errors[] of nothing usable gives way", '{"errors":[{"message":""},{}],"title":"t"}', "t"],
    ["errors that is no list gives way", '{"errors":{"message":"x"},"title":"t"}', "t"],
    ["a JSON string is the message", '"plain words"', "plain words"],
  ])("%s", (_, body, expected) => {
    expect(extractApiMessage(body, 400)).toBe(expected);
  });

  test("a body of JSON without any of them is shown as sent", () => {
    expect(extractApiMessage('{"code":"E42"}', 400)).toBe('{"code":"E42"}');
    expect(extractApiMessage("null", 400)).toBe("null");
    expect(extractApiMessage('""', 400)).toBe('""');
    expect(extractApiMessage("  42  ", 400)).toBe("42");
  });

  test("the field's text is shown whole: its own spaces collapsed, no quotes added", () => {
    expect(extractApiMessage('{"message":"  two\\n  lines  "}', 400)).toBe("two lines");
  });
});

describe("an empty body", () => {
  test("gives the status's text, or the bare status for one HTTP does not name", () => {
    expect(extractApiMessage("", 429)).toBe("Too Many Requests");
    expect(extractApiMessage("\n", 502)).toBe("Bad Gateway");
    expect(extractApiMessage("", 299)).toBe("HTTP 299");
  });
});

describe("a raw body fit for a terminal", () => {
  test("control characters (a terminal escape, DEL) become spaces, runs of whitespace one space", () => {
    expect(extractApiMessage("\u001b[31mred\u001b[0m\u007f  alert\r\n\tnow", 500)).toBe(
      "[31mred [0m alert now",
    );
  });

  test("a message of 500 characters is shown whole; a longer one is cut at 500 and marked", () => {
    const exactly = "y".repeat(500);
    expect(extractApiMessage(exactly, 500)).toBe(exactly);
    expect(extractApiMessage(`${exactly}z`, 500)).toBe(`${exactly}…`);
    expect(extractApiMessage(JSON.stringify({ message: `${exactly}zz` }), 500)).toBe(`${exactly}…`);
  });

  test("an HTML error page comes out as one line", () => {
    const page = "<html>\n  <body>\n    <h1>502 Bad Gateway</h1>\n  </body>\n</html>\n";
    expect(extractApiMessage(page, 502)).toBe("<html> <body> <h1>502 Bad Gateway</h1> </body> </html>");
  });
});
