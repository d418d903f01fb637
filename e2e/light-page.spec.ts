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

test("a generated 21,000-entry session: the chat reads at once, the tree streams in and opens as turns", async ({ page, request }) => {
  test.setTimeout(300_000);
  const id = await importJsonl(request, "generated-light-21k.jsonl", generateSessionJsonl({ seed: 5, entries: 21_000 }), { asCopy: true });
  const { entries } = await readTree(request, id);
  const lastUser = entries.findLast((e) => e.type === "message" && e.message?.role === "user");
  const prompt = textOf(lastUser).split("\n")[0]!.trim();

  // Over the embedding limit the page carries the chat's rows, not the tree's skeleton.
  const html = await (await request.get(`/sessions/${id}`)).text();
  expect(html.length).toBeLessThan(MAX_HTML_BYTES / 4);
  expect(html).toContain("Loading tree… 0%");
  expect(html).not.toContain(entries[1]!.id);

  // The tree comes in parts (lib/query/skeleton-stream.ts PART_ROWS), each its own response.
  const parts: string[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith("/skeleton") && u.searchParams.get("format") === "ndjson") parts.push(`${u.searchParams.get("from")}-${u.searchParams.get("to")}`);
  });
  await page.goto(`/sessions/${id}`, { timeout: 120_000 });
  await expect(page.getByRole("region", { name: "Chat" }).getByText(prompt).first()).toBeVisible();
  const tree = page.getByRole("region", { name: "Session tree" });
  await expect(tree.locator('[aria-roledescription="node"]').first()).toBeVisible({ timeout: 120_000 });
  await expect(tree.getByRole("button", { name: "Turns" })).toHaveAttribute("aria-pressed", "true");
  // The opening view shows where the user is, though the tree came in after the pane was laid out.
  await expect(tree.getByRole("navigation", { name: "Landmarks" }).getByText("you are here", { exact: true })).toBeInViewport();
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
