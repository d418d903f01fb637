/** Escaping for markup and for the JSON data block. */
import { describe, expect, it } from "vitest";
import { embedJson, escapeHtml } from "@/lib/export-html/escape";

describe("escapeHtml", () => {
  it("escapes the five characters that can start markup or end an attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  });
});

describe("embedJson", () => {
  const value = {
    a: "</script><!-- <script> & \u2028 \u2029",
    lone: "\ud800 x \udfff",
    "</key>": [1, null, true, { nested: "<b>" }],
  };

  it("contains no <, >, &, U+2028 or U+2029", () => {
    expect(embedJson(value)).not.toMatch(/[<>&\u2028\u2029]/);
  });

  it("parses back to the same value", () => {
    expect(JSON.parse(embedJson(value))).toEqual(value);
    expect(JSON.parse(embedJson(undefined))).toBeNull();
  });
});
