import { expect, test } from "./test";
import { generateSessionJsonl } from "@/test/generators/session";
import { deleteFromList, importJsonl, readTree, type StoredEntry } from "./session-helpers";

/**
 * The light session page: the page embeds the tree's skeleton and the newest chat
 * page, not the entries, so a 10,000-entry session's HTML stays small; an entry's contents
 * (its raw JSON, a tool's output) load on demand when it is selected.
 */
test.use({ trace: "off" });

const MAX_HTML_BYTES = 1.5 * 1024 * 1024;

function textOf(e: StoredEntry | undefined): string {
  const content = e?.message?.content;
  return Array.isArray(content) ? content.map((b) => (b as { text?: string }).text ?? "").join("") : typeof content === "string" ? content : "";
}

/** A line of a tool result's output (no row text shows it) that no other entry contains. */
function hiddenWords(e: StoredEntry, others: string): string | undefined {
  for (const raw of textOf(e).split("\n")) {
    const line = raw.trim();
    if (line.length >= 24 && /^[A-Za-z0-9 =();.,]+$/.test(line) && others.indexOf(line) === others.lastIndexOf(line)) return line;
  }
  return undefined;
}

test("a generated 10,000-entry session: small HTML, and a selected entry's JSON loads on demand", async ({ page, request }) => {
  test.setTimeout(240_000);
  const id = await importJsonl(request, "generated-light-10k.jsonl", generateSessionJsonl({ seed: 4, entries: 10_000 }), { asCopy: true });
  const { entries } = await readTree(request, id);
  const all = JSON.stringify(entries);
  const early = entries.slice(0, 3000).find((e) => e.type === "message" && e.message?.role === "toolResult" && hiddenWords(e, all));
  expect(early, "the generated session has a tool result with a distinctive line").toBeTruthy();
  const words = hiddenWords(early!, all)!;

  const html = await (await request.get(`/sessions/${id}`)).text();
  expect(html.length).toBeLessThan(MAX_HTML_BYTES);
  expect(html).toContain(early!.id); // its skeleton row…
  expect(html).not.toContain(words); // …but not its contents
  // The canvas model of a session this size is built in the browser, after hydration
  // (components/tree/hooks/use-sliced-tree-model.ts): the server's HTML holds the pending pane.
  expect(html).toContain("Laying out 10,000 entries…");

  const loads: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes(`/api/sessions/${id}/entries?`)) loads.push(r.url());
  });
  await page.goto(`/sessions/${id}?entry=${encodeURIComponent(early!.id)}`, { timeout: 120_000 });
  await expect(page.getByRole("region", { name: "Session tree" }).locator('[aria-roledescription="node"]').first()).toBeVisible({ timeout: 30_000 });
  const inspector = page.getByRole("region", { name: "Context inspector" });
  await inspector.getByRole("tab", { name: "Entry JSON" }).click();
  await expect(inspector.getByRole("figure", { name: `Raw JSON of entry ${early!.id}` })).toContainText(words, { timeout: 30_000 });
  expect(loads.some((u) => decodeURIComponent(u).includes(early!.id))).toBe(true);

  // §16.3 search still reads whole entry texts (on the server): the words find the entry, and
  // the list shows only the matches.
  const found = (await (await request.get(`/api/sessions/${id}/search?q=${encodeURIComponent(words)}`)).json()) as { ids: string[] };
  expect(found.ids).toContain(early!.id);
  const tree = page.getByRole("region", { name: "Session tree" });
  await tree.getByRole("button", { name: "List" }).click();
  await tree.getByRole("searchbox", { name: "Search entries" }).fill(words);
  await expect(tree.getByRole("listbox", { name: "Session entries" }).getByRole("option")).toHaveCount(found.ids.length, { timeout: 30_000 });

  const firstUser = entries.find((e) => e.type === "message" && e.message?.role === "user");
  const title = textOf(firstUser).split(/\s+/).slice(0, 3).join(" ");
  await deleteFromList(page, request, id, title);
});

test("a generated 21,000-entry session: the chat and the map of its latest turns at once, then the whole tree, as turns", async ({ page, request }) => {
  test.setTimeout(300_000);
  const id = await importJsonl(request, "generated-light-21k.jsonl", generateSessionJsonl({ seed: 5, entries: 21_000 }), { asCopy: true });
  const { entries, leafId } = await readTree(request, id);
  const lastUser = entries.findLast((e) => e.type === "message" && e.message?.role === "user");
  const prompt = textOf(lastUser).split("\n")[0]!.trim();
  // The current path's prompts, counted from the raw entries: the leaf's turn is numbered so.
  const byId = new Map(entries.map((e) => [e.id, e]));
  let prompts = 0;
  for (let e = leafId ? byId.get(leafId) : undefined; e; e = e.parentId ? byId.get(e.parentId) : undefined) {
    if (e.type === "message" && e.message?.role === "user") prompts++;
  }
  expect(prompts).toBeGreaterThan(100);

  // Over the embedding limit the page carries the chat's rows, not the tree's skeleton.
  const html = await (await request.get(`/sessions/${id}`)).text();
  expect(html.length).toBeLessThan(MAX_HTML_BYTES / 4);
  expect(html).toContain("loading the whole tree… 0%");
  expect(html).not.toContain(entries[1]!.id);

  // The tree comes in parts (lib/query/skeleton-stream.ts PART_ROWS), each its own response;
  // held back here until the map of the path's tail has been looked at.
  const parts: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/skeleton\?format=ndjson/, async (route) => {
    const u = new URL(route.request().url());
    parts.push(`${u.searchParams.get("from")}-${u.searchParams.get("to")}`);
    await held;
    await route.continue();
  });
  await page.goto(`/sessions/${id}`, { timeout: 120_000 });
  await expect(page.getByRole("region", { name: "Chat" }).getByText(prompt).first()).toBeVisible();
  const tree = page.getByRole("region", { name: "Session tree" });
  // Before any of the tree has come: the map of the latest turns, numbered as in the whole tree,
  // with "you are here" in view and no "session start", under a strip that says what loads.
  await expect(tree.locator('[aria-roledescription="node"]').first()).toBeVisible({ timeout: 60_000 });
  const strip = tree.getByLabel("Tree loading");
  await expect(strip).toContainText(/Showing the latest \d+ of 21,000 entries · loading the whole tree… 0%/);
  await expect(tree.locator('[aria-roledescription="node"]').getByText(`turn ${prompts}`, { exact: true })).toBeAttached();
  const landmarks = tree.getByRole("navigation", { name: "Landmarks" });
  await expect(landmarks.getByText("you are here", { exact: true })).toBeInViewport();
  await expect(landmarks.getByText("session start", { exact: true })).toHaveCount(0);
  // The chat's turn box numbers the same turns: its last is the leaf's.
  await expect(page.getByRole("navigation", { name: "Chat navigation" }).getByRole("spinbutton")).toHaveAttribute("placeholder", new RegExp(`–${prompts}$`));
  expect(parts).toEqual(["0-20000"]);
  release();
  await expect(strip).toHaveCount(0, { timeout: 120_000 });
  await expect(tree.getByRole("button", { name: "Turns" })).toHaveAttribute("aria-pressed", "true");
  // The whole tree opens with the current leaf in view, and now has the session start.
  await expect(landmarks.getByText("you are here", { exact: true })).toBeInViewport();
  await expect(tree.locator('[aria-roledescription="node"]').getByText(`turn ${prompts}`, { exact: true })).toBeAttached();
  await expect(landmarks.getByText("session start", { exact: true })).toBeAttached();
  expect(parts).toEqual(["0-20000", `20000-${entries.length}`]);
  // Fit view frames the whole tree, though React Flow holds only the nodes near the view
  // (components/tree/layout/flow-window.ts): the first turn (a span of turns: components/tree/model/spans.ts)
  // and the current leaf's are then both on screen.
  await tree.getByRole("button", { name: "Fit view", exact: true }).click();
  const first = entries.find((e) => e.type === "message" && e.message?.role === "user")!;
  const firstNode = tree.locator(`[aria-roledescription="node"][data-id="span:${first.id}"], [aria-roledescription="node"][data-id="turn:${first.id}"]`);
  await expect(firstNode).toBeInViewport({ timeout: 30_000 });
  await expect(tree.getByRole("navigation", { name: "Landmarks" }).getByText("you are here", { exact: true })).toBeInViewport();
  // The inspector asks for its view once the tree is in, and shows what the model saw.
  const inspector = page.getByRole("region", { name: "Context inspector" });
  await expect(inspector.getByRole("list", { name: "Messages sent, in order" })).toBeVisible({ timeout: 120_000 });
  // The whole tree is there, not the chat's tail: the footer counts every shown row.
  await tree.getByRole("button", { name: "List" }).click();
  await expect(tree.getByRole("listbox", { name: "Session entries" }).getByRole("option").first()).toBeVisible();
  const footer = await tree.getByText(/^\(\d+\/\d+\)/).textContent();
  expect(Number(/\/(\d+)\)/.exec(footer ?? "")?.[1])).toBeGreaterThan(10_000);
});
