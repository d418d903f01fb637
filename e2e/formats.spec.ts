/**
 * Claude Code, Codex CLI, Gemini CLI and opencode sessions in the browser (docs/formats.md): files made
 * by our own generators (test/generators) are dropped on the import zone, their rows name
 * the format, their trees show the compaction boundary and the first-kept marker, a session is
 * continued in Arbor with the fake model, and the "Sync folder" page imports a folder (a session and
 * its subagent), appends new lines on the next sync and links the Task call to the subagent's session.
 */
import { appendFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { fakeLlm } from "./fake-llm";
import { E2E_SYNC_ROOT } from "./ports";
import { chatTurn, dropFiles, readTree, type StoredEntry } from "./session-helpers";

const treeRegion = (page: Page) => page.getByRole("region", { name: "Session tree" });
const canvasNodes = (page: Page) => treeRegion(page).locator('[aria-roledescription="node"]');
const nodeNamed = (page: Page, name: string) => canvasNodes(page).and(page.getByRole("group", { name }));

// Generated per Playwright project (light, dark): both runs share one database, and the same
// seed would make the second run's drop an "already imported" one.
let claude: ReturnType<typeof generateClaudeCodeSession>;
let codex: ReturnType<typeof generateCodexSession>;
test.beforeAll(() => {
  const shift = test.info().project.name === "dark" ? 1000 : 0;
  claude = generateClaudeCodeSession({ seed: 61 + shift, turns: 6, compactions: 1, branches: 1 });
  codex = generateCodexSession({ seed: 62 + shift, turns: 6, compactions: 1 });
});

function importRow(page: Page, fileName: string) {
  return page.getByRole("list", { name: "Imports" }).getByRole("listitem", { name: fileName }).first();
}

/**
 * The entry the canvas flags "first kept": the first kept entry, or — when the default filter hides
 * it (a Codex turn_context kept as a custom entry) — the first shown entry after it.
 */
function shownFirstKept(entries: StoredEntry[], firstKeptEntryId: string): string {
  let e = entries.find((x) => x.id === firstKeptEntryId)!;
  while (e.type !== "message") e = entries.find((x) => x.parentId === e.id)!;
  return e.id;
}

/** The compaction's boundary node, and the first kept entry flagged, with the canvas centred on it. */
async function expectBoundaryAndFirstKept(page: Page, sessionId: string, compaction: StoredEntry, entries: StoredEntry[]) {
  await page.goto(`/sessions/${encodeURIComponent(sessionId)}?entry=${encodeURIComponent(compaction.firstKeptEntryId!)}`);
  await expect(nodeNamed(page, `[compaction: ${Math.round(compaction.tokensBefore! / 1000)}k tokens]`)).toBeVisible();
  const flagged = canvasNodes(page).filter({ hasText: "first kept" });
  await expect(flagged).toHaveCount(1);
  await expect(flagged).toHaveAttribute("data-id", shownFirstKept(entries, compaction.firstKeptEntryId!));
}

test.describe.serial("Claude Code and Codex files", () => {
  test.beforeEach(() => fakeLlm.reset());

  test("dropped files name their format; their trees show the compaction boundary and the first kept entry", async ({ page, request }) => {
    await page.goto("/");
    await dropFiles(page, [
      { name: "claude-code.jsonl", text: claude.text },
      { name: "rollout-codex.jsonl", text: codex.text },
    ]);
    for (const [name, gen, label] of [
      ["claude-code.jsonl", claude, "Claude Code session"],
      ["rollout-codex.jsonl", codex, "Codex CLI session"],
    ] as const) {
      const row = importRow(page, name);
      await expect(row).toContainText(`(${label}, ${gen.records.toLocaleString("en-US")} records → `, { timeout: 30_000 });
      expect(await row.getByRole("link", { name: "Open" }).getAttribute("href")).toBe(`/sessions/${gen.sessionId}`);
    }
    for (const gen of [claude, codex]) {
      const tree = await readTree(request, gen.sessionId);
      const compactions = tree.entries.filter((e) => e.type === "compaction");
      expect(compactions).toHaveLength(gen.expected.compactions);
      // The counts of the file: prompts and tool calls.
      const prompts = tree.entries.filter((e) => e.type === "message" && e.message?.role === "user" && !(e.message as { synthetic?: boolean }).synthetic);
      expect(prompts).toHaveLength(gen.expected.prompts);
      await expectBoundaryAndFirstKept(page, gen.sessionId, compactions[0]!, tree.entries);
    }
  });

  test("chat on from an imported Codex session: Arbor entries under its leaf, the model sees the session", async ({ page, request }) => {
    const before = await readTree(request, codex.sessionId);
    await page.goto(`/sessions/${codex.sessionId}`);
    await chatTurn(page, "Carry on from where Codex stopped", { text: "Carrying on in Arbor." });
    const after = await readTree(request, codex.sessionId);
    expect(after.entries.length).toBe(before.entries.length + 2);
    const prompt = after.entries.find((e) => e.type === "message" && e.message?.role === "user" && JSON.stringify(e.message.content).includes("Carry on from where Codex stopped"))!;
    expect(prompt.parentId).toBe(before.leafId);
    const sent = (await fakeLlm.requests()).at(-1)!;
    // What the model saw starts from the compaction (the summary), then the later Codex turns.
    const texts = JSON.stringify(sent.messages);
    const lastCodexPrompt = before.entries.filter((e) => e.type === "message" && e.message?.role === "user").at(-1)!;
    expect(texts).toContain(JSON.stringify((lastCodexPrompt.message!.content as { text: string }[])[0]!.text).slice(1, -1));
  });

  test("Sync folder imports a session and its subagent, appends new lines, and the Task call links to the subagent", async ({ page, request }) => {
    // Two turns (the Task call in the first), so the chat's newest page holds the whole session.
    const gen = generateClaudeCodeSession({ seed: 63 + (test.info().project.name === "dark" ? 1000 : 0), turns: 2, subagents: 1 });
    const folder = mkdtempSync(path.join(E2E_SYNC_ROOT, "project-"));
    const file = path.join(folder, `${gen.sessionId}.jsonl`);
    const lines = gen.text.split("\n").filter((l) => l !== "" && !l.startsWith('{"type":"summary"'));
    const cut = lines.findIndex((l) => /"type":"user","message":\{"role":"user","content":"Turn 1:/.test(l));
    expect(cut).toBeGreaterThan(0);
    writeFileSync(file, `${lines.slice(0, cut).join("\n")}\n`);
    const sub = gen.subagents![0]!;
    mkdirSync(path.dirname(path.join(folder, sub.relativePath)), { recursive: true });
    writeFileSync(path.join(folder, sub.relativePath), sub.text);
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    utimesSync(path.join(folder, sub.relativePath), old, old);

    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sync folder" }).click();
    await expect(page).toHaveURL(/\/sync$/);
    await page.getByRole("textbox", { name: "Folders (one a line)" }).fill(folder);
    await page.getByRole("button", { name: "Sync", exact: true }).click();
    await expect(page.getByText(/^Synced: 2 imported, 0 appended/)).toBeVisible({ timeout: 30_000 });
    const synced = page.getByRole("list", { name: "Synced files" });
    await expect(synced.getByRole("listitem")).toHaveCount(2);
    const before = await readTree(request, gen.sessionId);

    appendFileSync(file, `${lines.slice(cut).join("\n")}\n`);
    utimesSync(file, old, new Date(Date.now() - 30_000));
    await page.getByRole("button", { name: "Sync", exact: true }).click();
    await expect(page.getByText(/^Synced: 0 imported, 1 appended, 0 new versions, 1 unchanged/)).toBeVisible({ timeout: 30_000 });
    const after = await readTree(request, gen.sessionId);
    expect(after.entries.slice(0, before.entries.length).map((e) => e.id)).toEqual(before.entries.map((e) => e.id));
    // Only this run's row: the first run's two rows are gone.
    await expect(synced.getByRole("listitem")).toHaveCount(1);
    await expect(synced.getByRole("listitem").first()).toContainText(`${after.entries.length - before.entries.length} new entries → ${gen.sessionId}`);

    // The subagent hangs under the parent's Task call, folded: opened, its messages and the link to
    // its session, which names its parent.
    await page.goto(`/sessions/${gen.sessionId}`);
    const log = page.getByRole("log", { name: "Messages" });
    await expect(log.getByText(/^Task\(/).first()).toBeVisible();
    const subagent = log.getByRole("group", { name: "Subagent" }).first();
    await subagent.locator("summary").click();
    await expect(subagent.getByRole("list", { name: "Subagent messages" }).getByRole("listitem").first()).toBeVisible();
    await subagent.getByRole("link", { name: /Open the subagent session/ }).click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${gen.sessionId}\\.agent-${sub.agentId}$`));
    await expect(page.getByRole("link", { name: `Subagent of ${gen.sessionId}` })).toBeVisible();
  });
});

test.describe.serial("Gemini CLI and opencode files", () => {
  test("dropped .json files name their format; their trees show their prompts, and opencode's compaction", async ({ page, request }) => {
    const shift = test.info().project.name === "dark" ? 1000 : 0;
    const gemini = generateGeminiSession({ seed: 66 + shift, turns: 3, summary: `Gemini in the browser ${shift}` });
    const opencode = generateOpencodeSession({ seed: 67 + shift, turns: 4, compactions: 1 });
    await page.goto("/");
    await dropFiles(page, [
      { name: "session-2026-01-10T20-25-e2e.json", text: gemini.text },
      { name: "opencode-export.json", text: opencode.text },
    ]);
    const dropped = [
      ["session-2026-01-10T20-25-e2e.json", gemini, "Gemini CLI session"],
      ["opencode-export.json", opencode, "opencode session"],
    ] as const;
    for (const [name, gen, label] of dropped) {
      const row = importRow(page, name);
      await expect(row).toContainText(`(${label}, ${gen.records.toLocaleString("en-US")} records → `, { timeout: 30_000 });
      expect(await row.getByRole("link", { name: "Open" }).getAttribute("href")).toBe(`/sessions/${gen.sessionId}`);
    }
    for (const [, gen] of dropped) {
      const tree = await readTree(request, gen.sessionId);
      const prompts = tree.entries.filter((e) => e.type === "message" && e.message?.role === "user" && !(e.message as { synthetic?: boolean }).synthetic);
      expect(prompts).toHaveLength(gen.expected.prompts);
      expect(tree.entries.filter((e) => e.type === "message" && e.message?.role === "toolResult")).toHaveLength(gen.expected.toolResults);
      // The last prompt's node, with the canvas centred on it.
      const last = prompts.at(-1)!;
      const content = last.message!.content;
      const text = typeof content === "string" ? content : (content as { text: string }[])[0]!.text;
      await page.goto(`/sessions/${encodeURIComponent(gen.sessionId)}?entry=${encodeURIComponent(last.id)}`);
      await expect(nodeNamed(page, `user: ${text}`)).toBeVisible();
    }
    await page.goto(`/sessions/${gemini.sessionId}`);
    await expect(page.getByRole("heading", { name: `Gemini in the browser ${shift}` })).toBeVisible();
    const tree = await readTree(request, opencode.sessionId);
    const compaction = tree.entries.find((e) => e.type === "compaction")!;
    await expectBoundaryAndFirstKept(page, opencode.sessionId, compaction, tree.entries);
  });
});
