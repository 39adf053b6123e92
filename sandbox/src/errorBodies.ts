/**
 * The shapes an error body can take (the spec leaves it "not shown"): the sandbox's own
 * `{"error":{"code","message"}}` and the others a client meets in the wild. Every shape but
 * `empty` carries the sandbox's message word for word (HTML escaped in `html`), so a client can be
 * checked to surface the API's own words whatever the shape.
 */
import { STATUS_CODES } from "node:http";
import type { ErrorShape } from "./personality";

/** What an error reply is made of before it has a shape. */
export interface ErrorContent {
  code: string;
  message: string;
}

/** An error body in a shape: JSON `body`, or `raw` text with its content type, or nothing. */
export type ShapedError =
  | { body: unknown }
  | { raw: string; contentType: string }
  | { raw: ""; contentType?: undefined };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The body of an error reply of `status` in `shape`.
 *
 * @example
 * shapeError(404, { code: "not_found", message: "template x does not exist" }, "problem");
 * // { raw: '{"type":"about:blank","title":"Not Found","status":404,"detail":"template x does not exist"}', contentType: "application/problem+json" }
 */
export function shapeError(status: number, error: ErrorContent, shape: ErrorShape): ShapedError {
  const title = STATUS_CODES[status] ?? "Error";
  switch (shape) {
    case "error":
      return { body: { error: { code: error.code, message: error.message } } };
    case "message":
      return { body: { message: error.message } };
    case "errors":
      return { body: { errors: [{ message: error.message }] } };
    case "problem":
      return {
        raw: JSON.stringify({ type: "about:blank", title, status, detail: error.message }),
        contentType: "application/problem+json",
      };
    case "html":
      // What a reverse proxy in front of the API might send: a page, not JSON.
      return {
        raw:
          `<!DOCTYPE html>\n<html><head><title>${status} ${title}</title></head>\n` +
          `<body><h1>${status} ${title}</h1>\n<p>${escapeHtml(error.message)}</p>\n<hr><address>gateway</address></body></html>\n`,
        contentType: "text/html; charset=utf-8",
      };
    case "empty":
      return { raw: "" };
  }
}
