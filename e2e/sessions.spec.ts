import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";

/**
 * The home page: import through the file picker, list, full-text search, open, rename,
 * delete to the Trash and restore, export, and re-import "Import as copy" — on a generated session (always) and on
 * the real pi session of the shared fixtures (when present).
 */
const FIXTURES = process.env.ARBOR_FIXTURES ?? path.resolve(process.cwd(), "../shared/fixtures");
const LARGE = path.join(FIXTURES, "large-session.jsonl");
const hasFixture = existsSync(LARGE);

async function chooseFiles(page: Page, files: Parameters<import("@playwright/test").FileChooser["setFiles"]>[0]) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("region", { name: "Import session" }).getByRole("button", { name: "Import session" }).click();
  await (await chooser).setFiles(files);
}

function importRow(page: Page, fileName: string) {
  return page.getByRole("list", { name: "Imports" }).getByRole("listitem", { name: fileName }).first();
}

function sessionRow(page: Page, id: string) {
  return page
    .getByRole("list", { name: "Sessions" })
    .getByRole("listitem")
    .filter({ has: page.locator(`a[href^="/sessions/${id}"]`) });
}

/** What the import → list → search → rename → export → delete + Trash → copy flow knows of its file. */
interface FlowFile {
  path: string;
  fileName: string;
  id: string;
  entries: number;
  /** The session's title: its first user message. */
  title: string;
  /** The copy's title when it is not the title + " (copy)" (a long title is cut first). */
  copyTitle?: string;
  /** A word only this file's entries contain (full-text search). */
  searchWord: string;
  /** An older file version, migrated on import (the row says so). */
  migrated?: boolean;
}

/**
 * A generated session (our own seeded generator), so the flow runs on a fresh clone without the
 * shared fixtures: its first user message names a word no other test session has.
 */
function generatedFile(): FlowFile {
  // One session per Playwright project (light, dark share the database), each with its own word.
  const dark = test.info().project.name === "dark";
  const word = dark ? "numbat" : "quokka";
  // Starting now (its entries run on into the next hour), so it is the newest session and on the
  // list's first page whatever the other specs and the other project imported before.
  const startTime = Date.now();
  const { header, entries } = generateSession({ seed: dark ? 2207 : 1207, entries: 240, branches: 2, labels: 2, startTime });
  const first = entries.find((e) => e.type === "message" && e.message.role === "user");
  if (first?.type !== "message" || first.message.role !== "user") throw new Error("the generated session has no user message");
  first.message.content = `Port the ${word} theme selector to the new settings page`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), "arbor-e2e-")), "generated-session.jsonl");
  writeFileSync(file, serializeSession(header, entries));
  return { path: file, fileName: "generated-session.jsonl", id: header.id, entries: entries.length, title: first.message.content, searchWord: word };
}

async function importRenameExportDeleteCopy(page: Page, f: FlowFile) {
  const count = f.entries.toLocaleString("en-US");
  await page.goto("/");
  await chooseFiles(page, f.path);

  const row = importRow(page, f.fileName);
  // The row names the format it found and what it became (lib/formats).
  await expect(row).toContainText(`(pi / oh-my-pi session, ${(f.entries + 1).toLocaleString("en-US")} records → ${count} entries${f.migrated ? ", migrated from an older file version" : ""})`, {
    timeout: 30_000,
  });
  const open = row.getByRole("link", { name: "Open" });
  const href = await open.getAttribute("href");
  const id = href!.split("/").pop()!;
  expect(id).toBe(f.id);

  // Listed with its entry count (the import refreshed the list).
  const listed = sessionRow(page, id);
  await expect(listed).toContainText(`${count} entries`);
  await expect(listed.getByRole("link")).toHaveText(f.title); // title: the first user message

  // Full-text search on the server: the word only occurs in this session's entries.
  const search = page.getByRole("searchbox", { name: "Search sessions" });
  await search.fill(f.searchWord);
  await expect(listed.getByRole("link")).toHaveAttribute("href", new RegExp(`^/sessions/${id}\\?entry=`));
  await expect(listed).toContainText(new RegExp(f.searchWord, "i"));
  await expect(page.getByRole("list", { name: "Sessions" }).getByRole("listitem")).toHaveCount(1);
  await search.fill("zqxjkvw");
  await expect(page.getByText("No sessions match “zqxjkvw”.")).toBeVisible();
  await search.fill("");
  await expect(listed).toBeVisible();

  // Open it from its title, come back; the rest of the row opens it too.
  await listed.getByRole("link", { name: f.title }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();
  // A click where the entry count is (the title's link covers the row, so the mouse, not the <p>).
  const meta = (await listed.getByText(`${count} entries`).boundingBox())!;
  await page.mouse.click(meta.x + meta.width / 2, meta.y + meta.height / 2);
  await expect(page).toHaveURL(new RegExp(`/sessions/${id}$`));
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Sessions" })).toBeVisible();

  // Rename in place: Escape cancels, Enter saves; it survives a reload.
  await listed.getByRole("button", { name: "Session actions" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  const title = page.getByRole("list", { name: "Sessions" }).getByRole("textbox", { name: "Session title" }); // the row has no link while editing
  await title.fill("Not this");
  await title.press("Escape");
  await expect(listed.getByRole("link", { name: f.title })).toBeVisible();
  await listed.getByRole("button", { name: "Session actions" }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  await title.fill("Theme selector port");
  // The list shows the new title at once; the reload must wait for the rename action itself.
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.ok());
  await title.press("Enter");
  await expect(listed.getByRole("link", { name: "Theme selector port" })).toBeVisible();
  await saved;
  await page.reload();
  await expect(listed.getByRole("link", { name: "Theme selector port" })).toBeVisible();

  // Export downloads the JSONL file: header + every entry, carrying the new title.
  await listed.getByRole("button", { name: "Session actions" }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Export" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`_${id}\\.jsonl$`));
  const lines = readFileSync((await file.path())!, "utf8").trimEnd().split("\n");
  expect(lines).toHaveLength(f.entries + 1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "session", id, title: "Theme selector port" });

  // Delete: the row goes at once, into the Trash; Restore there brings it back, for good.
  await listed.getByRole("button", { name: "Session actions" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(listed).toHaveCount(0);
  const toast = page.getByRole("status").filter({ hasText: "Session moved to the Trash" });
  await expect(toast).toBeVisible();
  await toast.getByRole("button", { name: "Open the Trash" }).click();
  await expect(page).toHaveURL(/\/trash$/);
  const trashed = page.getByRole("list", { name: "Deleted sessions" }).getByRole("listitem", { name: "Theme selector port" });
  await expect(trashed).toContainText(/deleted for good/);
  await trashed.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByRole("status")).toContainText("Restored “Theme selector port”");
  await page.goto("/");
  await expect(listed).toBeVisible();

  // Importing the same file again offers a copy.
  await chooseFiles(page, f.path);
  const again = importRow(page, f.fileName);
  await expect(again).toContainText("This session is already imported. Import as a copy?");
  await again.getByRole("button", { name: "Import as copy" }).click();
  await expect(again).toContainText(`Imported ${f.copyTitle ?? `${f.title} (copy)`} (pi / oh-my-pi session, ${(f.entries + 1).toLocaleString("en-US")} records → ${count} entries${f.migrated ? ", migrated from an older file version" : ""})`, {
    timeout: 30_000,
  });
  const copyId = (await again.getByRole("link", { name: "Open" }).getAttribute("href"))!.split("/").pop()!;
  expect(copyId).not.toBe(id);
  await expect(sessionRow(page, copyId).getByRole("link")).toHaveText(f.copyTitle ?? `${f.title} (copy)`);
  await expect(listed).toBeVisible();
}

test("a generated session: import, list, search, open, rename, delete + Undo, export, import as copy", async ({ page }) => {
  await importRenameExportDeleteCopy(page, generatedFile());
});

/**
 * The title a reader expects of the fixture, read from the raw file: its first prompt a person
 * typed (a lone slash command such as "/mode" is not a title when a real prompt follows:
 * session-engine.md §1.2), white space folded, cut at 200 characters with an ellipsis.
 */
function largeSessionTitle(): string {
  for (const line of readFileSync(LARGE, "utf8").split("\n")) {
    let record: { message?: { role?: string; content?: unknown } };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record.message?.role !== "user") continue;
    const content = record.message.content;
    const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join(" ") : "";
    const flat = text.replace(/\s+/g, " ").trim();
    if (flat === "" || /^\/\S+$/.test(flat)) continue;
    return cutTitle(flat);
  }
  throw new Error(`${LARGE}: no typed prompt`);
}

function cutTitle(flat: string): string {
  return flat.length <= 200 ? flat : `${flat.slice(0, 199).trimEnd()}…`;
}

test.describe("sessions with the large-session fixture", () => {
  test.skip(!hasFixture, `fixture not found: ${LARGE} (set ARBOR_FIXTURES to the shared fixtures folder)`);

  test("the real pi session: import, list, search, open, rename, delete + Undo, export, import as copy", async ({ page }) => {
    // The fixture is one fixed file: the light run imported it already (one shared database).
    test.skip(test.info().project.name === "dark", "the fixed fixture file is imported once, by the light project");
    await importRenameExportDeleteCopy(page, {
      path: LARGE,
      fileName: "large-session.jsonl",
      id: "d703a1a9-1b7b-4fb1-b512-c9738b1fe617",
      entries: 1018,
      title: largeSessionTitle(),
      copyTitle: cutTitle(`${largeSessionTitle()} (copy)`),
      searchWord: "fibonacci",
      migrated: true,
    });
  });
});

test("import reports skipped lines, refuses a non-session file, and Cancel saves nothing", async ({ page }) => {
  await page.goto("/");
  const id = crypto.randomUUID();
  const at = "2025-01-02T03:04:05.000Z";
  const good = [
    JSON.stringify({ type: "session", version: 3, id, timestamp: at, cwd: "/tmp" }),
    JSON.stringify({ type: "message", id: "a0000001", parentId: null, timestamp: at, message: { role: "user", content: "Skipped lines check", timestamp: 1 } }),
    "{not json",
    JSON.stringify({ type: "message", id: "a0000002", parentId: "a0000001", timestamp: at, message: { role: "user", content: "second", timestamp: 2 } }),
  ].join("\n");
  await chooseFiles(page, [
    { name: "with-garbage.jsonl", mimeType: "application/octet-stream", buffer: Buffer.from(good) },
    { name: "notes.jsonl", mimeType: "application/octet-stream", buffer: Buffer.from('{"hello":"world"}\n') },
  ]);

  const ok = importRow(page, "with-garbage.jsonl");
  await expect(ok).toContainText("Imported Skipped lines check (pi / oh-my-pi session, 3 records → 2 entries)");
  await ok.getByText(/^Skipped 1 malformed line: line 3: /).click();
  await expect(ok.getByRole("listitem")).toHaveText(/^line 3: /);
  await expect(importRow(page, "notes.jsonl").getByRole("alert")).toContainText("notes.jsonl: not a session file");

  // Cancel while the upload is held back: the row says nothing was saved.
  await page.route("**/api/import?*", () => undefined); // never answered
  const stalled = crypto.randomUUID();
  await chooseFiles(page, {
    name: "stalled.jsonl",
    mimeType: "application/octet-stream",
    buffer: Buffer.from(JSON.stringify({ type: "session", version: 3, id: stalled, timestamp: at, cwd: "/tmp" })),
  });
  const pending = importRow(page, "stalled.jsonl");
  await pending.getByRole("button", { name: "Cancel" }).click();
  await expect(pending).toContainText("Import cancelled — nothing was saved");
  await page.unroute("**/api/import?*");
  expect((await page.request.get(`/api/sessions/${stalled}`)).status()).toBe(404);
});

test("the routes validate their input", async ({ request }) => {
  expect((await request.get("/api/sessions?limit=0")).status()).toBe(400);
  const page = await request.get("/api/sessions?limit=2");
  expect(page.ok()).toBe(true);
  expect(await page.json()).toMatchObject({ sessions: expect.any(Array) });
  expect((await request.get("/api/sessions/no-such-session")).status()).toBe(404);
  expect((await request.get("/api/sessions/no-such-session?format=jsonl")).status()).toBe(404);
  expect((await request.post("/api/import", { data: "x" })).status()).toBe(400);
});

test("the list pages by cursor: scrolling to the end loads the next page", async ({ page, request }) => {
  const word = `paging${Date.now().toString(36)}`;
  const at = Date.now();
  for (let i = 0; i < 55; i++) {
    const header = { type: "session", version: 3, id: crypto.randomUUID(), timestamp: new Date(at - i * 60_000).toISOString(), cwd: "" };
    const res = await request.post(`/api/import?fileName=p${i}.jsonl&title=${encodeURIComponent(`${word} ${i}`)}`, {
      data: `${JSON.stringify(header)}\n`,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(await res.text()).toContain('"type":"done"');
  }
  await page.goto("/");
  const searched = page.waitForResponse((r) => r.url().includes(`q=${word}`));
  await page.getByRole("searchbox", { name: "Search sessions" }).fill(word);
  await searched;
  const rows = page.getByRole("list", { name: "Sessions" }).getByRole("listitem");
  await expect(rows).toHaveCount(50);
  await page.getByRole("button", { name: "Load more" }).scrollIntoViewIfNeeded();
  await expect(rows).toHaveCount(55);
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  await expect(rows.last()).toContainText(`${word} 54`);
});
