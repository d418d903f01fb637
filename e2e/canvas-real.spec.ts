import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./test";
import { generateSessionJsonl } from "@/test/generators/session";
import { deleteFromList, FIXTURES, hasLargeFixture, importJsonl, LARGE, LARGE_MISSING, readTree, type StoredEntry } from "./session-helpers";

/**
 * The tree canvas on real sessions (ui.md "The canvas's visual language", "Interactions";
 * session-engine.md §19.4): "you are here" on every real Claude Code, Codex and pi file at Fit view
 * and after a pin; a click selects and moves no leaf, "Continue from here" does what its dialog
 * says; at Fit view of a ~1,000-entry real session the errors and the compaction are on screen and
 * no caption covers a card or another caption (DOM boxes); on a phone the minimap starts
 * collapsed and never covers the current leaf; a branch is archived (gone from the map, the list
 * and search, an archive entry kept in the export) and restored.
 * Real files come from ../shared/fixtures (ARBOR_FIXTURES); those tests skip when it is absent.
 */

const FORMATS = path.join(FIXTURES, "formats");
const REAL_FILES = ["claude", "codex", "pi"].flatMap((dir) => {
  const folder = path.join(FORMATS, dir);
  return existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith(".jsonl")).map((f) => path.join(folder, f)) : [];
});
const FORMATS_MISSING = `fixtures not found: ${FORMATS} (set ARBOR_FIXTURES to the shared fixtures folder)`;
const PI_MONO = path.join(FORMATS, "pi", "badlogic-pi-mono-v1-compact-merged-line.jsonl");

const treeRegion = (page: Page) => page.getByRole("region", { name: "Session tree" });
const canvasNodes = (page: Page) => treeRegion(page).locator('[aria-roledescription="node"]');
const landmarks = (page: Page) => treeRegion(page).getByRole("navigation", { name: "Landmarks" });
const youAreHere = (page: Page) => landmarks(page).getByText("you are here", { exact: true });

/**
 * Sessions a test imported, deleted after it: the fixtures' words are what e2e/sessions.spec.ts
 * searches the list for (one database for all specs).
 */
const imports: { id: string; title: string }[] = [];
test.afterEach(async ({ page, request }) => {
  for (const { id, title } of imports.splice(0)) {
    // The title's longest word finds its row in the list's full-text search.
    const word = title.split(/[^\p{L}\p{N}]+/u).sort((a, b) => b.length - a.length)[0] ?? title;
    await deleteFromList(page, request, id, word);
  }
});

/** Imports a file through POST /api/import; undefined when the app says it is not a session file. */
async function tryImport(request: APIRequestContext, file: string): Promise<string | undefined> {
  const res = await request.post(`/api/import?fileName=${encodeURIComponent(path.basename(file))}&asCopy=1`, {
    data: readFileSync(file),
    headers: { "content-type": "application/octet-stream" },
    timeout: 120_000,
  });
  expect(res.ok()).toBe(true);
  const events = (await res.text())
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; sessionId?: string; title?: string; code?: string });
  const done = events.find((e) => e.type === "done");
  if (done?.sessionId) {
    imports.push({ id: done.sessionId, title: done.title ?? "" });
    return done.sessionId;
  }
  expect(events.find((e) => e.type === "error")?.code, "a file the app cannot read says why").toBe("not_session");
  return undefined;
}

async function openTree(page: Page, id: string): Promise<void> {
  await page.goto(`/sessions/${id}`);
  await expect(canvasNodes(page).first()).toBeVisible({ timeout: 30_000 });
}

async function fitView(page: Page): Promise<void> {
  await treeRegion(page).getByRole("button", { name: "Fit view", exact: true }).click();
  await page.waitForTimeout(600); // the fit animation
}

/** Root → entry ids, as stored. */
function pathIds(entries: StoredEntry[], id: string | null): string[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: string[] = [];
  for (let e = id ? byId.get(id) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) out.unshift(e.id);
  return out;
}

const text = (e: StoredEntry): string => {
  if (typeof e.summary === "string") return e.summary;
  const c = e.message?.content;
  if (typeof c === "string") return c;
  return Array.isArray(c) ? c.map((b: { type?: string; text?: string }) => (b.type === "text" ? (b.text ?? "") : "")).join("") : "";
};

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const meets = (a: Box, b: Box) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** The DOM boxes of the captions and of the cards (nodes other than bands) inside the canvas pane. */
async function captionAndCardBoxes(page: Page): Promise<{ captions: (Box & { text: string })[]; cards: (Box & { id: string })[] }> {
  return page.evaluate(() => {
    const pane = document.querySelector('section[aria-label="Session tree"] .react-flow')!.getBoundingClientRect();
    const inPane = (r: DOMRect) => r.right > pane.left && r.left < pane.right && r.bottom > pane.top && r.top < pane.bottom;
    const box = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height });
    const captions = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Landmarks"] .tree-landmark:not(.tree-landmark--edge)')]
      .map((e) => ({ r: e.getBoundingClientRect(), text: e.textContent ?? "" }))
      .filter(({ r }) => inPane(r))
      .map(({ r, text }) => ({ ...box(r), text }));
    const cards = [...document.querySelectorAll<HTMLElement>(".react-flow__node:not(.react-flow__node-band)")]
      .map((e) => ({ r: e.getBoundingClientRect(), id: e.dataset.id ?? "" }))
      .filter(({ r }) => inPane(r))
      .map(({ r, id }) => ({ ...box(r), id }));
    return { captions, cards };
  });
}

function expectNoOverlaps({ captions, cards }: Awaited<ReturnType<typeof captionAndCardBoxes>>): void {
  for (const [i, c] of captions.entries()) {
    for (const card of cards) expect(meets(c, card), `caption "${c.text}" over card ${card.id}`).toBe(false);
    for (const other of captions.slice(i + 1)) expect(meets(c, other), `caption "${c.text}" over caption "${other.text}"`).toBe(false);
  }
}

test.describe("you are here on every real session, at Fit view and after a pin", () => {
  test.skip(REAL_FILES.length === 0, FORMATS_MISSING);
  // Claude Code files link images the chat cannot load (data the exporter left out): not the canvas's subject.
  test.use({ allowedConsole: [/ERR_INVALID_URL/] });
  for (const file of REAL_FILES) {
    test(path.basename(file), async ({ page, request }) => {
      test.setTimeout(120_000);
      const id = await tryImport(request, file);
      test.skip(id === undefined, `${path.basename(file)} is not a session file for this importer`);
      await openTree(page, id!);
      await fitView(page);
      await expect(youAreHere(page)).toBeVisible();
      await expect(youAreHere(page)).toBeInViewport();

      // A pin: the leaf becomes a pin entry, which the default filter hides; the mark stays.
      const region = treeRegion(page);
      await region.getByRole("button", { name: "Entries", exact: true }).click();
      await region.getByRole("button", { name: "Go to current leaf", exact: true }).click();
      const here = canvasNodes(page).filter({ hasText: "you are here" });
      await expect(here).toHaveCount(1);
      await here.getByRole("button", { name: "Entry actions" }).click();
      const pin = page.getByRole("menu", { name: "Entry actions" }).getByRole("menuitem", { name: "Pin", exact: true });
      if ((await pin.count()) === 0) {
        await page.keyboard.press("Escape");
        test.info().annotations.push({ type: "note", description: "the marked entry cannot be pinned (not a message)" });
        return;
      }
      const before = await readTree(request, id!);
      await pin.click();
      await expect(page.getByRole("status").filter({ hasText: "Pinned" })).toBeVisible();
      const after = await readTree(request, id!);
      const leaf = after.entries.find((e) => e.id === after.leafId)!;
      expect(leaf).toMatchObject({ type: "custom", customType: "arbor.pin" });
      expect(after.leafId).not.toBe(before.leafId);
      await expect(youAreHere(page)).toBeVisible();
      await fitView(page);
      await expect(youAreHere(page)).toBeVisible();
      await expect(youAreHere(page)).toBeInViewport();
    });
  }
});

test("a generated session: you are here at Fit view; a click selects and moves nothing; Continue from here does what its dialog says", async ({ page, request }) => {
  const dark = test.info().project.name === "dark";
  const id = await importJsonl(request, "generated-continue.jsonl", generateSessionJsonl({ seed: dark ? 3402 : 3401, entries: 28, branches: 1 }), { asCopy: true });
  const before = await readTree(request, id);
  const onPath = pathIds(before.entries, before.leafId);
  const users = before.entries.filter((e) => e.message?.role === "user" && onPath.includes(e.id));
  const target = users[1]!;
  expect(target, "the generated session has two prompts on its current path").toBeTruthy();

  await openTree(page, id);
  await fitView(page);
  await expect(youAreHere(page)).toBeInViewport();
  const node = canvasNodes(page).and(page.locator(`[data-id="${target.id}"]`));
  await node.click();
  await expect(node).toHaveClass(/\bselected\b/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // The inspector shows the selection; the stored leaf is unchanged.
  await expect(page.getByRole("region", { name: "Context inspector" })).toContainText(target.id);
  expect((await readTree(request, id)).leafId).toBe(before.leafId);

  await node.getByRole("button", { name: "Entry actions" }).click();
  await page.getByRole("menu", { name: "Entry actions" }).getByRole("menuitem", { name: "Continue from here…" }).click();
  const dialog = page.getByRole("dialog", { name: "Continue from here?" });
  const promises = dialog.getByRole("list", { name: "What will happen" });
  const prompt = text(target).replace(/\s+/g, " ").trim();
  await expect(promises).toContainText(`, just before “user: ${prompt.slice(0, 40)}`);
  await expect(promises).toContainText("That message's text goes into the composer, to edit and send; nothing is sent until you do.");
  const leaving = onPath.length - onPath.indexOf(target.parentId!) - 1;
  await expect(promises).toContainText(`The branch you are on now (${leaving} entries after “`);
  const go = dialog.getByRole("button", { name: /^(Continue without summary|Continue from here)$/ });
  await go.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Navigated to selected point" })).toBeVisible();
  // As promised: the leaf is the message's parent, its text is in the composer, nothing was deleted.
  const after = await readTree(request, id);
  expect(after.leafId).toBe(target.parentId);
  expect(after.entries).toHaveLength(before.entries.length);
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue(text(target));
});

test.describe("Fit view of a real ~1,000-entry session", () => {
  test.skip(!existsSync(PI_MONO), FORMATS_MISSING);
  test("errors and the compaction are on screen; no caption covers a card or another caption", async ({ page, request }) => {
    test.setTimeout(180_000);
    const id = (await tryImport(request, PI_MONO))!;
    const tree = await readTree(request, id);
    const compaction = tree.entries.find((e) => e.type === "compaction")!;
    expect(compaction, "the pi session has a compaction").toBeTruthy();
    const errored = tree.entries.filter((e) => e.message?.role === "assistant" && (e.message as { stopReason?: string }).stopReason === "error");
    const failedTools = tree.entries.filter((e) => e.message?.role === "toolResult" && (e.message as { isError?: boolean }).isError === true);
    expect(errored.length + failedTools.length, "the pi session has errors").toBeGreaterThan(0);

    await openTree(page, id);
    await fitView(page);
    const caption = landmarks(page).getByText(`[compaction: ${Math.round(compaction.tokensBefore! / 1000)}k tokens]`, { exact: true });
    await expect(caption).toBeInViewport();
    await expect(canvasNodes(page).and(page.locator(`[data-id="${compaction.id}"]`))).toBeInViewport();
    await expect(landmarks(page).locator(".tree-landmark__part--error").first()).toBeInViewport();
    await expect(treeRegion(page).locator(".tree-node--error").first()).toBeInViewport();
    await expect(youAreHere(page)).toBeInViewport();
    const boxes = await captionAndCardBoxes(page);
    expect(boxes.captions.length, "prompts are captioned").toBeGreaterThan(15);
    expectNoOverlaps(boxes);
  });
});

test.describe("the large real session", () => {
  test.skip(!hasLargeFixture, LARGE_MISSING);
  test("at Fit view its errors show and no caption covers a card or another; on a phone the minimap never covers the leaf", async ({ page, request }) => {
    test.setTimeout(180_000);
    const id = (await tryImport(request, LARGE))!;
    await openTree(page, id);
    await fitView(page);
    await expect(landmarks(page).locator(".tree-landmark__part--error").first()).toBeInViewport();
    await expect(youAreHere(page)).toBeInViewport();
    expectNoOverlaps(await captionAndCardBoxes(page));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByRole("tab", { name: "Tree" }).click();
    await expect(canvasNodes(page).first()).toBeVisible({ timeout: 30_000 });
    const region = treeRegion(page);
    // Collapsed on a phone; shown on demand, in a corner away from the current leaf.
    await expect(region.locator(".tree-minimap")).toHaveCount(0);
    await expect(region.getByRole("button", { name: "Minimap", exact: true })).toHaveAttribute("aria-pressed", "false");
    await region.getByRole("button", { name: "Minimap", exact: true }).click();
    const here = canvasNodes(page).filter({ hasText: "you are here" });
    for (const step of ["open", "leaf", "zoomed"] as const) {
      if (step === "leaf") await region.getByRole("button", { name: "Go to current leaf", exact: true }).click();
      if (step === "zoomed") await region.getByRole("button", { name: "Zoom in", exact: true }).click();
      await page.waitForTimeout(500);
      await expect(here).toBeInViewport();
      const minimap = region.locator(".tree-minimap");
      if ((await minimap.count()) === 0) continue; // hidden: no corner was free
      const [m, h] = [(await minimap.boundingBox())!, (await here.boundingBox())!];
      expect(meets(m, h), `${step}: the minimap covers the current leaf`).toBe(false);
    }
  });
});

test("archive a branch: gone from the map, the list and search, kept in the export as an archive entry; restore it", async ({ page, request }) => {
  const dark = test.info().project.name === "dark";
  const id = await importJsonl(request, "generated-archive.jsonl", generateSessionJsonl({ seed: dark ? 5503 : 5502, entries: 28, branches: 1 }), { asCopy: true });
  const before = await readTree(request, id);
  const onPath = new Set(pathIds(before.entries, before.leafId));
  const byId = new Map(before.entries.map((e) => [e.id, e]));
  // The side branch: its first entry (a child of the current path) and every entry under it.
  // (A user message or a branch summary: the generator starts a side branch with either.)
  const root = before.entries.find(
    (e) => !onPath.has(e.id) && e.parentId !== null && onPath.has(e.parentId) && (e.type === "branch_summary" || e.message?.role === "user"),
  )!;
  expect(root, "the generated session has a side branch").toBeTruthy();
  const inBranch = (e: StoredEntry) => {
    for (let at: StoredEntry | undefined = e; at; at = at.parentId ? byId.get(at.parentId) : undefined) if (at.id === root.id) return true;
    return false;
  };
  const branch = before.entries.filter(inBranch);

  await openTree(page, id);
  await fitView(page);
  const rootNode = canvasNodes(page).and(page.locator(`[data-id="${root.id}"]`));
  await expect(rootNode).toBeVisible();
  const footer = treeRegion(page).getByText(/^\(\d+\/\d+\)/);
  const total = Number(/\/(\d+)\)/.exec((await footer.textContent())!)![1]);
  // Right-click opens the node's menu at any zoom (at Fit view of a long column the nodes are marks).
  await rootNode.click({ button: "right" });
  await page.getByRole("menu", { name: "Entry actions" }).getByRole("menuitem", { name: "Archive branch" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Archived the branch" })).toBeVisible();
  await expect(rootNode).toHaveCount(0);
  for (const e of branch) await expect(canvasNodes(page).and(page.locator(`[data-id="${e.id}"]`))).toHaveCount(0);
  await expect(footer).not.toHaveText(new RegExp(`/${total}\\)`));

  // Stored: one archive entry naming the branch; nothing deleted.
  const archived = await readTree(request, id);
  expect(archived.entries).toHaveLength(before.entries.length + 1);
  expect(archived.entries.at(-1)).toMatchObject({ type: "custom", customType: "arbor.archive", data: { targetId: root.id, archived: true } });

  // Search: a word of the branch's prompt finds nothing of the branch.
  const word = text(root).split(/\W+/).find((w) => w.length >= 5)!;
  const matches = ((await (await request.get(`/api/sessions/${id}/search?q=${encodeURIComponent(word)}`)).json()) as { ids: string[] }).ids;
  expect(matches.some((m) => branch.some((e) => e.id === m)), "the word is in the branch").toBe(true);
  await treeRegion(page).getByRole("searchbox", { name: "Search entries" }).fill(word);
  await expect(footer).toHaveText(/^\(\d+\/\d+\)$/);
  for (const e of branch) await expect(canvasNodes(page).and(page.locator(`[data-id="${e.id}"]`))).toHaveCount(0);
  await treeRegion(page).getByRole("searchbox", { name: "Search entries" }).fill("");

  // The list view leaves the branch out as well.
  await treeRegion(page).getByRole("button", { name: "List", exact: true }).click();
  const list = treeRegion(page).getByRole("listbox", { name: "Session entries" });
  await expect(list.getByRole("option")).not.toHaveCount(0);
  expect(await list.getByRole("option").count()).toBeLessThan(total);
  await treeRegion(page).getByRole("button", { name: "Canvas", exact: true }).click();

  // The export keeps the archive entry (a pi custom entry).
  const exported = await (await request.get(`/api/sessions/${id}?format=jsonl`)).text();
  expect(exported).toContain(`"customType":"arbor.archive"`);

  // "Archived (1)" shows it, marked; "Restore branch" brings it back.
  const toggle = treeRegion(page).getByRole("button", { name: "Archived (1)" });
  await toggle.click();
  await fitView(page);
  await expect(rootNode).toContainText("archived");
  await rootNode.click({ button: "right" });
  await page.getByRole("menu", { name: "Entry actions" }).getByRole("menuitem", { name: "Restore branch" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored the branch" })).toBeVisible();
  await expect(treeRegion(page).getByRole("button", { name: /^Archived/ })).toHaveCount(0);
  await fitView(page);
  await expect(rootNode).toBeVisible();
  await expect(rootNode).not.toContainText("archived");
  expect((await readTree(request, id)).entries.at(-1)).toMatchObject({ customType: "arbor.archive", data: { targetId: root.id, archived: false } });
});
