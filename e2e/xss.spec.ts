import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { messagesLog } from "./session-helpers";

/**
 * Message content is rendered safely. A crafted session — imported through /api/import, as any
 * user could — carries script in every place the UI shows text: user and assistant messages
 * (Markdown with raw HTML blocks, `javascript:` links and images), thinking, tool arguments and
 * results, custom messages, labels, compaction and branch summaries, the session title. The
 * session is opened in the chat, the canvas, the list view and every inspector tab; links are
 * clicked and things hovered. No payload may run (`window.__xss` stays undefined, no dialog
 * opens, no page error) and the text must be shown literally, escaped, somewhere.
 * Also the HTML export (`?format=html`), opened as a page.
 */

const RUN = Date.now().toString(36);
const SESSION_ID = `xss-${RUN}`;

/** Payloads that would set window.__xss (or open a dialog) if rendered as HTML or followed. */
const SCRIPT = "<script>window.__xss=1</script>";
const IMG = `<img src=x onerror="window.__xss=1">`;
const MD_LINK = "[click me](javascript:window.__xss=1)";
const SVG = `<svg onload="window.__xss=1"></svg>`;
const HTML_BLOCK = `<div onmouseover="window.__xss=1" style="position:fixed;inset:0;z-index:9999">html block</div>`;
const RAW_LINK = `<a href="javascript:window.__xss=1">raw link</a>`;
const IFRAME = `<iframe src="javascript:window.__xss=1"></iframe>`;
const ALERT = `<img src=y onerror="alert('xss')">`;

const inline = (tag: string) => `${tag} — ${SCRIPT} ${IMG} ${SVG} ${RAW_LINK} ${IFRAME} ${ALERT}`;
/** Markdown: the payloads inline, a raw HTML block on its own lines, links and an image. */
const markdown = (tag: string) =>
  [
    `# ${tag} ${SCRIPT}`,
    "",
    `Inline: ${IMG} and ${SVG} and ${RAW_LINK}`,
    "",
    HTML_BLOCK,
    "",
    `A markdown link: ${MD_LINK} and an autolink <javascript:window.__xss=1> and an image ![pic](javascript:window.__xss=1)`,
    "",
    SCRIPT,
    "",
    "```html",
    SCRIPT,
    "```",
  ].join("\n");

const ts = (i: number) => new Date(Date.UTC(2025, 5, 1, 12, 0, i)).toISOString();
const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20 };

/** u1 → a1 (thinking, markdown, tool call) → tool result → a2 → custom → compaction → u2 → branch summary → a3 → label; plus a side branch. */
function craftedSession(): string {
  const lines: unknown[] = [
    { type: "session", version: 3, id: SESSION_ID, timestamp: ts(0), cwd: "/w", title: `XSS ${RUN} ${IMG}`, arborLeafId: "e10" },
    { type: "message", id: "e1", parentId: null, timestamp: ts(1), message: { role: "user", content: inline("user-one"), timestamp: 1 } },
    {
      type: "message",
      id: "e2",
      parentId: "e1",
      timestamp: ts(2),
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: inline("thinking") },
          { type: "text", text: markdown("assistant-one") },
          { type: "toolCall", id: "call-1", name: "read", arguments: { path: inline("tool-arg") } },
        ],
        provider: "openai-compatible",
        model: "fake-model",
        usage,
        stopReason: "toolUse",
        timestamp: 2,
      },
    },
    {
      type: "message",
      id: "e3",
      parentId: "e2",
      timestamp: ts(3),
      message: { role: "toolResult", toolCallId: "call-1", toolName: "read", content: [{ type: "text", text: inline("tool-result") }], isError: false, timestamp: 3 },
    },
    {
      type: "message",
      id: "e4",
      parentId: "e3",
      timestamp: ts(4),
      message: { role: "assistant", content: [{ type: "text", text: markdown("assistant-two") }], provider: "openai-compatible", model: "fake-model", usage, stopReason: "stop", timestamp: 4 },
    },
    { type: "custom_message", id: "e5", parentId: "e4", timestamp: ts(5), customType: `note ${SCRIPT}`, content: inline("custom"), display: true },
    {
      type: "compaction",
      id: "e6",
      parentId: "e5",
      timestamp: ts(6),
      summary: markdown("compaction-summary"),
      shortSummary: inline("compaction-short"),
      firstKeptEntryId: "e4",
      tokensBefore: 12_345,
    },
    { type: "message", id: "e7", parentId: "e6", timestamp: ts(7), message: { role: "user", content: inline("user-two"), timestamp: 7 } },
    { type: "branch_summary", id: "e8", parentId: "e7", timestamp: ts(8), fromId: "e7", summary: markdown("branch-summary") },
    {
      type: "message",
      id: "e9",
      parentId: "e8",
      timestamp: ts(9),
      message: { role: "assistant", content: [{ type: "text", text: markdown("assistant-three") }], provider: "openai-compatible", model: "fake-model", usage, stopReason: "stop", timestamp: 9 },
    },
    { type: "label", id: "e10", parentId: "e9", timestamp: ts(10), targetId: "e9", label: `label ${IMG}` },
    // A side branch off e4, so the canvas and the list view have a branch to show.
    { type: "message", id: "e11", parentId: "e4", timestamp: ts(11), message: { role: "user", content: inline("side-branch"), timestamp: 11 } },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

async function importCrafted(request: APIRequestContext): Promise<string> {
  const res = await request.post(`/api/import?fileName=${encodeURIComponent(`xss-${RUN}.jsonl`)}`, {
    headers: { "content-type": "application/octet-stream" },
    data: craftedSession(),
  });
  expect(res.status()).toBe(200);
  const events = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; sessionId?: string; message?: string });
  const done = events.at(-1);
  expect(done, JSON.stringify(done)).toMatchObject({ type: "done", sessionId: SESSION_ID });
  return SESSION_ID;
}

/** Records dialogs and page errors on every page of the context (links may open new tabs). */
function watch(context: BrowserContext) {
  const dialogs: string[] = [];
  const errors: string[] = [];
  const pages: Page[] = [];
  const hook = (p: Page) => {
    pages.push(p);
    p.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    p.on("pageerror", (e) => errors.push(e.message));
  };
  context.pages().forEach(hook);
  context.on("page", hook);
  return { dialogs, errors, pages };
}

async function expectNothingRan(w: ReturnType<typeof watch>) {
  for (const p of w.pages) {
    if (p.isClosed()) continue;
    expect(await p.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), `window.__xss on ${p.url()}`).toBeUndefined();
  }
  expect(w.dialogs).toEqual([]);
  expect(w.errors.filter((e) => /xss/i.test(e))).toEqual([]);
}

/** Hovers, then clicks, every link in `scope` that does not leave the app; closes any tab they open. */
async function clickLinks(page: Page, scope: ReturnType<Page["locator"]>) {
  const links = scope.locator("a");
  const n = await links.count();
  for (let i = 0; i < n; i++) {
    const link = links.nth(i);
    if (!(await link.isVisible())) continue;
    const href = (await link.getAttribute("href")) ?? "";
    expect(href, "no javascript: link survives").not.toMatch(/^\s*(javascript|vbscript|data):/i);
    if (/^https?:\/\//.test(href) && !href.startsWith(new URL(page.url()).origin)) continue;
    await link.hover();
    const popup = page.context().waitForEvent("page", { timeout: 1500 }).catch(() => undefined);
    await link.click({ noWaitAfter: true });
    const opened = await popup;
    if (opened) {
      await opened.waitForLoadState().catch(() => undefined);
      expect(await opened.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      await opened.close();
    }
    if (page.url().includes("javascript")) throw new Error(`navigated to ${page.url()}`);
  }
}

/** Opens every closed <details> in `scope` (tool calls, thinking, summaries). */
async function openDetails(scope: ReturnType<Page["locator"]>) {
  const summaries = scope.locator("details:not([open]) > summary");
  for (let guard = 0; guard < 50 && (await summaries.count()) > 0; guard++) {
    const s = summaries.first();
    if (!(await s.isVisible())) break;
    await s.click();
  }
}

test.describe("message content is rendered safely", () => {
  test("chat, canvas, list view and inspector show the payloads as text and run none of them", async ({ page, request, context }) => {
    const w = watch(context);
    const id = await importCrafted(request);

    // The session list (searched, so it is on the first page): the title is text.
    await page.goto("/");
    await page.getByRole("searchbox", { name: "Search sessions" }).fill(`xss ${RUN}`);
    await expect(page.getByRole("list", { name: "Sessions" }).getByText(`XSS ${RUN} ${IMG}`)).toBeVisible();
    await expectNothingRan(w);

    await page.goto(`/sessions/${encodeURIComponent(id)}`);
    const log = messagesLog(page);
    await expect(log).toBeVisible();

    // Chat: plain-text rows show the markup literally.
    await expect(log.getByRole("article", { name: "user message" }).filter({ hasText: "user-two" })).toContainText(inline("user-two"));
    await expect(log.getByRole("article", { name: "custom" })).toContainText(inline("custom"));
    await expect(log.getByText(`[note ${SCRIPT}]`)).toBeVisible();
    // Markdown rows: raw HTML is never turned into elements…
    const assistant = log.getByRole("article", { name: "assistant message", exact: true }).filter({ hasText: "assistant-three" });
    await expect(assistant).toBeVisible();
    await expect(assistant.getByRole("heading", { name: /assistant-three/ })).toBeVisible();
    await expect(log.locator("script, iframe, svg[onload], img[onerror], [onmouseover], [onload], [onerror]")).toHaveCount(0);
    // …and the fenced code block shows the script tag as text.
    await expect(assistant.locator("pre code")).toContainText(SCRIPT);

    // Open everything collapsible (thinking, tool calls, summaries) and check again.
    await openDetails(log);
    await expect(log.getByText(inline("tool-result"))).toBeVisible();
    await expect(log.getByText(JSON.stringify(inline("tool-arg")).slice(1, -1), { exact: false }).first()).toBeVisible();
    await expect(log.getByText(inline("thinking")).first()).toBeVisible();
    await expect(log.getByRole("article", { name: "compaction" })).toContainText("compaction-summary");
    await expect(log.getByRole("article", { name: "branchSummary" })).toContainText("branch-summary");
    await expect(log.locator("script, iframe, img[onerror], [onmouseover], [onload]")).toHaveCount(0);

    // The markdown link lost its javascript: target; clicking links and hovering does nothing.
    await expect(log.getByRole("link", { name: "click me" }).first()).toBeVisible();
    await clickLinks(page, log);
    await assistant.hover();
    await expectNothingRan(w);

    // Canvas: node texts and label chips are text.
    const tree = page.getByRole("region", { name: "Session tree" });
    const nodes = tree.locator('[aria-roledescription="node"]');
    await expect(nodes.first()).toBeVisible();
    // (The Jump-to menu lists the label too, as an <option>: text as well, but never "visible".)
    await expect(tree.getByText(`label ${IMG}`).filter({ visible: true }).first()).toBeVisible();
    await expect(tree.getByText(/user-two — <script>window\.__xss=1<\/script>/).filter({ visible: true }).first()).toBeVisible();
    await expect(tree.locator("script, iframe, img[onerror], [onmouseover], [onload]")).toHaveCount(0);
    // Hover the entry and summary nodes (their preview cards show the text too).
    for (const node of (await tree.locator('[aria-roledescription="node"][role="group"]').all()).slice(0, 12)) {
      await node.hover({ force: true });
    }
    await expectNothingRan(w);

    // Inspector: inspect the assistant turn (Context tab), then its raw JSON.
    await assistant.getByRole("button", { name: "Inspect this turn" }).click();
    const inspector = page.getByRole("region", { name: "Context inspector" });
    await expect(inspector).toBeVisible();
    const tabs = inspector.getByRole("tablist", { name: "Inspector views" }).getByRole("tab");
    await expect(tabs.first()).toBeVisible();
    for (const name of await tabs.allTextContents()) {
      await inspector.getByRole("tab", { name }).click();
      await openDetails(inspector);
      await expect(inspector.locator("script, iframe, img[onerror], [onmouseover], [onload]")).toHaveCount(0);
      await clickLinks(page, inspector);
      await expectNothingRan(w);
    }
    await inspector.getByRole("tab", { name: "Entry JSON" }).click();
    // JSON.stringify keeps < and > as they are: the payload is visible, character for character.
    await expect(inspector.locator("pre").first()).toContainText(SCRIPT);
    await expect(inspector.locator("pre").first()).toContainText("javascript:window.__xss=1");

    // List view: the same rows as text.
    await tree.getByRole("button", { name: "List" }).click();
    const list = tree.getByRole("listbox", { name: "Session entries" });
    await expect(list).toBeVisible();
    await expect(list.getByRole("option").filter({ hasText: "side-branch" })).toContainText(`side-branch — ${SCRIPT}`);
    await expect(list.locator("script, iframe, img[onerror], [onmouseover], [onload]")).toHaveCount(0);
    for (const option of (await list.getByRole("option").all()).slice(0, 12)) await option.hover();

    await page.mouse.move(5, 5);
    await page.mouse.move(400, 300);
    await expectNothingRan(w);
  });

  test("the HTML export shows the payloads as text and runs none of them", async ({ page, request, context }) => {
    const w = watch(context);
    const id = SESSION_ID;
    if ((await request.get(`/api/sessions/${encodeURIComponent(id)}`)).status() === 404) await importCrafted(request);
    const res = await request.get(`/api/sessions/${encodeURIComponent(id)}?format=html`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("text/html");
    const html = await res.text();
    // Served as a page (the route sends it as a download), WITHOUT its Content-Security-Policy:
    // escaping alone must keep it safe.
    await page.route("**/__xss-export.html", (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    await page.goto("/__xss-export.html");
    await expect(page.getByText(inline("user-two")).first()).toBeVisible();
    await expect(page.locator("body iframe, body img[onerror], body [onmouseover], body svg[onload]")).toHaveCount(0);
    await openDetails(page.locator("body"));
    await clickLinks(page, page.locator("body"));
    await page.mouse.move(10, 10);
    await page.mouse.move(600, 400);
    await expectNothingRan(w);
  });
});
