/**
 * Real session logs of other agents (../shared/fixtures/formats/, see its NOTICE.md) dropped on the
 * import zone as a user would: each row names the format and the file's record count, says what
 * was kept without being shown or repaired, and the session opens with its tree, its title and the
 * prompts of the raw file (counted by test/corpus-counters.ts, never by Arbor). A 2.1.x Claude Code
 * session shows its pull request in the page header; a 1.0.x file's inline subagent runs open as
 * their own sessions. Light project only: the files are fixed, and both projects share one
 * database (a second drop would only find them imported). Skipped without the fixtures.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { CORPUS_FORMATS, jsonObjects } from "@/test/corpus-counters";
import { dropFiles, FIXTURES, readTree } from "./session-helpers";
import { expect, test } from "./test";

const DIR = path.join(FIXTURES, "formats");

/** One file of each format, and what its row must say besides the format and the records. */
const FILES = [
  { folder: "claude", name: "entireio-auth-go-v2-1-150-last-prompt-first.jsonl", label: "Claude Code session", row: /records kept, not shown/ },
  { folder: "claude", name: "d-kimuson-claude-code-viewer-v1-0-108-sidechain.jsonl", label: "Claude Code session", row: /2 subagent sessions (imported with it|already in Arbor)/ },
  { folder: "codex", name: "EntityProcess-agentv-v0-142-4.jsonl", label: "Codex CLI session", row: /records kept, not shown/ },
  { folder: "pi", name: "badlogic-pi-mono-v1-compact-merged-line.jsonl", label: "pi / oh-my-pi session", row: /Repaired 1 line: line 1013: 2 JSON objects on one line/ },
];

const present = FILES.every((f) => existsSync(path.join(DIR, f.folder, f.name)));

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

test.describe.serial("real session logs of other agents", () => {
  test.beforeEach(() => {
    test.skip(!present, `real session logs not found in ${DIR} (set ARBOR_FIXTURES to the shared fixtures folder)`);
    test.skip(test.info().project.name !== "light", "the files are fixed and both projects share one database");
  });

  test("dropped, they open with their format, records, report, tree, title and prompts", async ({ page, request }) => {
    test.setTimeout(180_000);
    const files = FILES.map((f) => ({ ...f, text: readFileSync(path.join(DIR, f.folder, f.name), "utf8") }));
    await page.goto("/");
    await dropFiles(page, files);
    const opened: { href: string; text: string; folder: string }[] = [];
    for (const f of files) {
      const row = page.getByRole("list", { name: "Imports" }).getByRole("listitem", { name: f.name }).first();
      const records = jsonObjects(f.text).length;
      await expect(row).toContainText(`(${f.label}, ${records.toLocaleString("en-US")} records → `, { timeout: 60_000 });
      await expect(row).toContainText(f.row);
      opened.push({ href: (await row.getByRole("link", { name: "Open" }).getAttribute("href"))!, text: f.text, folder: f.folder });
    }
    for (const { href, text, folder } of opened) {
      const sessionId = decodeURIComponent(href.split("/").pop()!);
      const raw = CORPUS_FORMATS.find((c) => c.folder === folder)!.count(text);
      const tree = await readTree(request, sessionId);
      const prompts = tree.entries.filter((e) => e.type === "message" && e.message?.role === "user" && !(e.message as { synthetic?: boolean }).synthetic);
      expect(prompts).toHaveLength(raw.main.prompts);
      await page.goto(href);
      await expect(page.getByRole("region", { name: "Session tree" }).locator('[aria-roledescription="node"]').first()).toBeVisible();
      if (raw.title) {
        const heading = ((await page.getByRole("heading", { level: 1 }).textContent()) ?? "").replace(/…$/, "");
        expect(heading).not.toBe("");
        expect(oneLine(raw.title).startsWith(heading), `${heading} for ${raw.title}`).toBe(true);
      }
    }
  });

  test("a Claude Code 2.1.x session links its pull request in the page header", async ({ page }) => {
    const text = readFileSync(path.join(DIR, "claude", FILES[0]!.name), "utf8");
    const pr = jsonObjects(text).filter((r) => r.type === "pr-link").at(-1)!;
    const sessionId = String(pr.sessionId);
    await page.goto(`/sessions/${encodeURIComponent(sessionId)}`);
    const link = page.getByRole("link", { name: `PR ${String(pr.prRepository)} #${String(pr.prNumber)}` });
    await expect(link).toHaveAttribute("href", String(pr.prUrl));
  });
});
