/**
 * The HTML export document: self-contained (no external URL, strict CSP), safe against hostile
 * session text (asserted on the raw HTML), and its data block round-trips.
 */
import { describe, expect, it } from "vitest";
import type { ExportData } from "@/lib/export-html/export-data";
import {
  CONTENT_SECURITY_POLICY,
  htmlExportFileName,
  renderSessionHtml,
} from "@/lib/export-html/render-session-html";
import { generateSession } from "@/test/generators/session";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";

const DATA_BLOCK = /<script id="session-data" type="application\/json">([\s\S]*?)<\/script>/;

function dataBlock(html: string): string {
  const m = DATA_BLOCK.exec(html);
  if (!m) throw new Error("no data block");
  return m[1]!;
}
function parseData(html: string): ExportData {
  return JSON.parse(dataBlock(html)) as ExportData;
}
/** The document without its data block: everything the browser parses as markup or code. */
function markupOnly(html: string): string {
  return html.replace(DATA_BLOCK, "");
}

const HOSTILE = [
  "</script><script>alert(1)</script>",
  '<img src=x onerror="alert(2)">',
  '<a href="javascript:alert(3)">click</a>',
  "<!-- comment --> & \u2028line\u2029para ' \"",
].join("\n");

const header: SessionHeader = {
  type: "session",
  version: 3,
  id: 'sess"<b>id</b>',
  timestamp: "2025-02-01T10:00:00.000Z",
  cwd: "/tmp/<cwd>",
};
const entries: SessionEntry[] = [
  { type: "message", id: "a1", parentId: null, timestamp: "2025-02-01T10:00:01.000Z", message: { role: "user", content: HOSTILE, timestamp: 1 } },
  {
    type: "message",
    id: "a2",
    parentId: "a1",
    timestamp: "2025-02-01T10:00:02.000Z",
    message: {
      role: "assistant",
      content: [
        { type: "thinking", thinking: HOSTILE },
        { type: "text", text: HOSTILE },
        { type: "toolCall", id: "t1", name: "<script>", arguments: { path: HOSTILE } },
      ],
      provider: "p<",
      model: "m>",
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
      stopReason: "toolUse",
      timestamp: 2,
    },
  },
  { type: "label", id: "a3", parentId: "a2", timestamp: "2025-02-01T10:00:03.000Z", targetId: "a1", label: "<b>lbl</b>" },
  { type: "custom_message", id: "a4", parentId: "a3", timestamp: "2025-02-01T10:00:04.000Z", customType: "<x>", content: HOSTILE, display: true },
];
const input = { header, entries, leafId: "a4", title: "<script>alert('t')</script>", exportedAt: "2025-02-02T00:00:00.000Z" };

describe("renderSessionHtml: self-contained", () => {
  const s = generateSession({ seed: 11, entries: 200, branches: 3, compactions: true, labels: 5 });
  const html = renderSessionHtml({ header: s.header, entries: s.entries, leafId: s.entries.at(-1)!.id, title: "Generated" });

  it("is one document with the strict CSP first in <head>", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:");
    const head = html.slice(0, html.indexOf("<style>"));
    expect(head).toContain(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`);
  });

  it("references no external URL: no http(s), every src/href is a data: URL", () => {
    expect(html).not.toMatch(/https?:/i);
    expect(html).not.toMatch(/url\(|@import|<link(?![^>]*href="data:)/i);
    const refs = [...markupOnly(html).matchAll(/\b(?:src|href)\s*=\s*["'`]?([^"'`\s>]*)/gi)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref).toMatch(/^data:/);
    expect(markupOnly(html)).not.toMatch(/\bfetch\(|XMLHttpRequest|WebSocket|EventSource|innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it("has exactly two scripts: the JSON data block and the inline page script", () => {
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html).toContain('<script id="session-data" type="application/json">');
  });
});

describe("renderSessionHtml: hostile session text", () => {
  const html = renderSessionHtml(input);

  it("produces no markup from session text", () => {
    const markup = markupOnly(html);
    expect(markup).not.toMatch(/<script>\s*alert/i);
    expect(markup).not.toContain("<img");
    expect(markup).not.toContain("<a ");
    expect(markup).not.toContain("javascript:");
    expect(markup).not.toContain("onerror");
    expect(markup).not.toContain("<b>");
    expect(html.match(/<script\b/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
  });

  it("escapes the title and header values placed in markup", () => {
    expect(html).toContain("<h1>&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;</h1>");
    expect(html).toContain("<title>&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; · Arbor session</title>");
    expect(html).toContain("sess&quot;&lt;b&gt;id&lt;/b&gt;");
  });

  it("keeps <, >, & and U+2028/2029 out of the data block", () => {
    const block = dataBlock(html);
    expect(block).not.toMatch(/[<>&\u2028\u2029]/);
    expect(block).toContain("\\u003c/script\\u003e\\u003cscript\\u003ealert(1)");
    expect(block).toContain("\\u2028line\\u2029para");
  });

  it("round-trips the embedded JSON: header, entries, title and rows", () => {
    const data = parseData(html);
    expect(data.entries).toEqual(entries);
    expect(data.header).toEqual(header);
    expect(data.title).toBe(input.title);
    expect(data.exportedAt).toBe(input.exportedAt);
    expect(data.labels).toEqual([["a1", "<b>lbl</b>"]]);
    expect(data.rows.map((r) => r[5])).toEqual([
      `[<b>lbl</b>] user: ${HOSTILE.replace(/[\n\t]/g, " ").slice(0, 200).trim()}`,
      `assistant: ${HOSTILE.replace(/[\n\t]/g, " ").slice(0, 200).trim()}`,
      "[label: <b>lbl</b>]",
      `[<x>]: ${HOSTILE.replace(/[\n\t]/g, " ").slice(0, 200).trim()}`,
    ]);
  });
});

describe("renderSessionHtml: empty session and file name", () => {
  it("renders an empty session with the §16.3 empty text", () => {
    const html = renderSessionHtml({ header, entries: [], leafId: null, title: "Empty" });
    expect(html).toContain('<p id="empty" class="empty" hidden>No entries in session</p>');
    expect(parseData(html).rows).toEqual([]);
    expect(html).toContain("0 entries");
  });

  it("names the download like the JSONL export, with .html (session-engine.md §1.9)", () => {
    expect(htmlExportFileName("2025-02-01T10:00:00.000Z", "abc")).toBe("2025-02-01T10-00-00-000Z_abc.html");
  });
});
