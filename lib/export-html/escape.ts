/**
 * Escaping for the HTML export. Pure: no network, disk or database access.
 *
 * Session text is hostile by default (tool output, pasted web pages). It reaches the document
 * in exactly two ways, each with its own escaping:
 * - markup text and attribute values: `escapeHtml` (`& < > " '`);
 * - the data block `<script type="application/json">`: `embedJson`, which escapes `<`, `>`
 *   and `&` as `\u003c`, `\u003e`, `\u0026` so no `</script>` or `<!--` can ever appear in
 *   the block, and U+2028/U+2029 as `\u2028`/`\u2029`. These characters only occur inside
 *   JSON strings, where the escape decodes to the same character, so `JSON.parse` of the
 *   block's text gives back exactly the serialized value.
 */

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const JSON_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** `JSON.stringify(value)` made safe to place between `<script type="application/json">` tags. */
export function embedJson(value: unknown): string {
  const json = JSON.stringify(value) ?? "null";
  return json.replace(/[<>&\u2028\u2029]/g, (c) => JSON_ESCAPES[c] ?? c);
}
