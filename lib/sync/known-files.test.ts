/**
 * A file already in Arbor is recognised by sync whichever way it came in (docs/formats.md "Sync"):
 * imported through the import route or the CLI, then found in a synced folder byte for byte, or
 * with more lines appended. No second session; the appended lines are added to the first.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as importPost } from "@/app/api/import/route";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeImportCommand } from "@/cli/commands/import";
import { loadEntries } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { runCommand } from "@/test/cli-helpers";
import { useTestDatabase } from "@/test/db";
import { FIXTURES_DIR, hasFixtures } from "@/test/fixtures";
import { syncFolders } from "./sync-folders";

useTestDatabase();

const CLAUDE = path.join(FIXTURES_DIR, "formats/claude");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-known-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture's lines (independently split): the first `n` as a file, and the rest. */
function fixtureLines(name: string): string[] {
  return readFileSync(path.join(CLAUDE, name), "utf8").split("\n").filter((l) => l.trim() !== "");
}

/** The prompts a user typed (a `user` record whose content is a string), read independently of the mappers. */
function promptsOf(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    const r = JSON.parse(l) as { type?: unknown; isMeta?: unknown; message?: { content?: unknown } };
    if (r.type === "user" && r.isMeta !== true && typeof r.message?.content === "string") out.push(r.message.content);
  }
  return out;
}

async function sessionCount(): Promise<number> {
  const [row] = await getDb().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM sessions`);
  return row!.n;
}

function quiet(file: string): void {
  const old = new Date(Date.now() - 120_000);
  utimesSync(file, old, old);
}

async function importThroughRoute(text: string, fileName: string): Promise<string> {
  const res = await importPost(
    new Request(`http://localhost/api/import?fileName=${encodeURIComponent(fileName)}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: text,
    }),
  );
  const events = (await res.text()).trim().split("\n").map((l) => JSON.parse(l) as { type: string; sessionId?: string; message?: string });
  const done = events.find((e) => e.type === "done");
  if (!done?.sessionId) throw new Error(`import failed: ${JSON.stringify(events.at(-1))}`);
  return done.sessionId;
}

async function expectRecognised(sessionId: string, head: string[], all: string[]): Promise<void> {
  writeFileSync(path.join(dir, "same.jsonl"), `${head.join("\n")}\n`);
  writeFileSync(path.join(dir, "longer.jsonl"), `${all.join("\n")}\n`);
  quiet(path.join(dir, "same.jsonl"));
  quiet(path.join(dir, "longer.jsonl"));
  const before = await sessionCount();
  const r = await syncFolders([dir]);
  for (const f of r.files) expect(f.outcome, f.file).not.toMatchObject({ kind: "rewritten" });
  for (const f of r.files) expect(f.outcome.kind, `${f.file}: ${JSON.stringify(f.outcome)}`).not.toBe("failed");
  expect(await sessionCount()).toBe(before);
  // What the appended lines said is in the first session now.
  const stored = JSON.stringify(await loadEntries({ sessionId }));
  const added = promptsOf(all.slice(head.length));
  expect(added.length).toBeGreaterThan(0);
  for (const prompt of added) expect(stored).toContain(JSON.stringify(prompt).slice(1, -1));
  // A second sync changes nothing.
  const again = await syncFolders([dir]);
  for (const f of again.files) expect(f.outcome.kind).toBe("unchanged");
  expect(await sessionCount()).toBe(before);
}

describe.skipIf(!hasFixtures)("a file already in Arbor, found again by sync", () => {
  it("imported through the import route: the same bytes and a longer copy join the first session", async () => {
    const lines = fixtureLines("gtrrz-victor-cli-v2-1-85-api-error.jsonl");
    const head = lines.slice(0, Math.floor(lines.length * 0.6));
    const sessionId = await importThroughRoute(`${head.join("\n")}\n`, "page.jsonl");
    await expectRecognised(sessionId, head, lines);
  });

  it("imported with the CLI: the same bytes and a longer copy join the first session", async () => {
    const lines = fixtureLines("iansherr-claude-code-log-v1-0-43-fork.jsonl");
    const head = lines.slice(0, Math.floor(lines.length * 0.6));
    const src = path.join(dir, "..", `${path.basename(dir)}-cli.jsonl`);
    writeFileSync(src, `${head.join("\n")}\n`);
    try {
      const r = await runCommand(makeImportCommand(inProcessDbRuntime()), ["--json", src]);
      expect(r.code).toBe(0);
      const sessionId = (JSON.parse(r.out) as { imported: { sessionId: string }[] }).imported[0]!.sessionId;
      await expectRecognised(sessionId, head, lines);
    } finally {
      rmSync(src, { force: true });
    }
  });

  it("a whole file imported, then copied into the folder byte for byte", async () => {
    const fixture = path.join(CLAUDE, "iansherr-claude-code-log-v2-0-37-queue-first.jsonl");
    const sessionId = await importThroughRoute(readFileSync(fixture, "utf8"), "whole.jsonl");
    copyFileSync(fixture, path.join(dir, "copy.jsonl"));
    quiet(path.join(dir, "copy.jsonl"));
    const before = await sessionCount();
    const r = await syncFolders([dir]);
    expect(r.files[0]!.outcome).toMatchObject({ sessionId });
    expect(await sessionCount()).toBe(before);
  });
});
