/**
 * `renderSessionHtml`: one self-contained HTML document for a session (the "Download HTML"
 * export). Pure: no network, disk or database access; takes the header, entries, stored leaf
 * and title, returns a string.
 *
 * Self-contained and safe:
 * - no external resource: inline CSS and JS only, and a CSP meta that forbids everything else
 *   (`default-src 'none'`; inline styles and scripts; images only as `data:` URLs), so
 *   opening the file makes no request;
 * - session text reaches the markup only through `escapeHtml` (title, ids, times), and the
 *   script only through the JSON data block (`embedJson`), which the script reads with
 *   `JSON.parse` and turns into DOM nodes with `textContent`.
 * The tree rows, depths, order, filter bits and searchable text are computed here with the
 * engine (export-data.ts); the page script filters, searches, selects and renders the
 * root → entry path on demand.
 */
import { escapeHtml, embedJson } from "@/lib/export-html/escape";
import { buildExportData, type ExportInput } from "@/lib/export-html/export-data";
import { PAGE_SCRIPT } from "@/lib/export-html/page-script";
import { PAGE_STYLE } from "@/lib/export-html/page-style";
import { exportFileName } from "@/lib/session/file/sanitize";

export type { ExportInput } from "@/lib/export-html/export-data";

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** The download name: the JSONL export name (session-engine.md §1.9) with `.html`. */
export function htmlExportFileName(timestamp: string, sessionId: string): string {
  return exportFileName(timestamp, sessionId).replace(/\.jsonl$/, ".html");
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export function renderSessionHtml(input: ExportInput): string {
  const data = buildExportData(input);
  const title = escapeHtml(data.title);
  const options = data.filters
    .map((f) => `<option value="${escapeHtml(f.name)}">${escapeHtml(f.name)}</option>`)
    .join("");
  const meta = [
    plural(data.entryCount, "entry", "entries"),
    `exported <time datetime="${escapeHtml(data.exportedAt)}">${escapeHtml(data.exportedAt.replace("T", " ").replace(/\.\d+Z$/, "Z"))}</time>`,
    `session <span class="mono">${escapeHtml(String(data.header.id))}</span>`,
  ].join(" · ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${title} · Arbor session</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header class="top">
<h1>${title}</h1>
<p>${meta}</p>
</header>
<main class="panes">
<section class="tree" aria-label="Session tree">
<div class="controls">
<label>Filter <select id="filter">${options}</select></label>
<input id="search" type="search" placeholder="Search entries" aria-label="Search entries" autocomplete="off">
</div>
<p class="legend"><span aria-hidden="true">\u2022</span> active path (root \u2192 current leaf)</p>
<ul id="rows" role="listbox" aria-label="Entries" tabindex="0"></ul>
<p id="empty" class="empty" hidden>${escapeHtml(data.emptyText)}</p>
<p id="footer" class="footer" role="status">(0/0)</p>
</section>
<section class="path" aria-label="Path view">
<h2 id="path-title">Path</h2>
<ol id="path" aria-label="Path from the root"></ol>
<noscript><p>This export needs JavaScript to show the session tree and paths.</p></noscript>
</section>
</main>
<script id="session-data" type="application/json">${embedJson(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
