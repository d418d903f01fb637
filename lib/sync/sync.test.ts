/** A sessions folder kept in sync (docs/formats.md): appends, rewrites, deletions, cut lines, cancel. */
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findSessionSource, getSessionMeta, importSession, loadEntries } from "@/lib/db";
import { getDb } from "@/lib/db/client";
import { countEntries } from "@/lib/formats/count";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { generateSessionJsonl } from "@/test/generators/session";
import { chunked, counts } from "@/test/import-helpers";
import { useTestDatabase } from "@/test/db";
import { syncFolders } from "./sync-folders";

useTestDatabase();

/** Take every line at once: these tests write files and sync them at once (the held response has its own test). */
const ALL = { settleMs: 0 };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-sync-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The generated file's lines with its leading `summary` records moved to the end (Claude Code appends them). */
function growingLines(text: string): string[] {
  const lines = text.split("\n").filter((l) => l !== "");
  const summaries = lines.filter((l) => l.startsWith('{"type":"summary"'));
  return [...lines.filter((l) => !summaries.includes(l)), ...summaries];
}

/** The index of a line that starts a user prompt (a string content), past `from`. */
function promptLineAfter(lines: string[], from: number): number {
  const i = lines.findIndex((l, k) => k > from && /"type":"user","message":\{"role":"user","content":"/.test(l));
  expect(i).toBeGreaterThan(0);
  return i;
}

async function rev(sessionId: string): Promise<number> {
  const [row] = await getDb().$queryRawUnsafe<{ rev: number }[]>(`SELECT rev FROM sessions WHERE id = $1`, sessionId);
  return row!.rev;
}

async function originalText(sessionId: string): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of (await findSessionSource({ sessionId }))!.chunks()) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString("utf8");
}

describe("syncing a folder", () => {
  it("imports a Claude Code file, then appends only the new lines' entries through the store's commit", async () => {
    const gen = generateClaudeCodeSession({ seed: 11, turns: 12, branches: 1, compactions: 2, sidechain: true });
    const lines = growingLines(gen.text);
    const cut = promptLineAfter(lines, Math.floor(lines.length / 2));
    const file = path.join(dir, "project", `${gen.sessionId}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${lines.slice(0, cut).join("\n")}\n`);

    const first = await syncFolders([dir], ALL);
    expect(first.files).toHaveLength(1);
    expect(first.files[0]!.outcome).toMatchObject({ kind: "imported", sessionId: gen.sessionId, format: "claude-code" });
    const before = await loadEntries({ sessionId: gen.sessionId });
    const revBefore = await rev(gen.sessionId);

    appendFileSync(file, `${lines.slice(cut).join("\n")}\n`);
    const second = await syncFolders([dir], ALL);
    const outcome = second.files[0]!.outcome;
    expect(outcome.kind).toBe("appended");
    const after = await loadEntries({ sessionId: gen.sessionId });
    // Only new entries arrived: the old ones are unchanged and first, in their order.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(outcome.kind === "appended" && outcome.added).toBe(after.length - before.length);
    // The result is what importing the whole file at once gives: the generator's counts exactly.
    expect(countEntries(after)).toEqual(gen.expected);
    expect(await rev(gen.sessionId)).toBeGreaterThan(revBefore);
    const meta = await getSessionMeta({ id: gen.sessionId });
    expect(meta.leafId).toBe(after.at(-1)!.id);
    expect(meta.entryCount).toBe(after.length);
    // "Download original" now gives the file as synced.
    expect(await originalText(gen.sessionId)).toBe(`${lines.join("\n")}\n`);

    const third = await syncFolders([dir], ALL);
    expect(third.files[0]!.outcome.kind).toBe("unchanged");
  });

  it("appends a Codex rollout's new lines and a pi file's new entries", async () => {
    const codex = generateCodexSession({ seed: 5, turns: 10, compactions: 1 });
    const cLines = codex.text.split("\n").filter((l) => l !== "");
    const cCut = cLines.findIndex((l, i) => i > cLines.length / 2 && l.includes('"type":"turn_context"'));
    const pi = generateSessionJsonl({ seed: 7, entries: 40, branches: 2 });
    const pLines = pi.split("\n").filter((l) => l !== "");
    const pCut = Math.floor(pLines.length / 2);
    writeFileSync(path.join(dir, "codex.jsonl"), `${cLines.slice(0, cCut).join("\n")}\n`);
    writeFileSync(path.join(dir, "pi.jsonl"), `${pLines.slice(0, pCut).join("\n")}\n`);
    await syncFolders([dir], ALL);
    appendFileSync(path.join(dir, "codex.jsonl"), `${cLines.slice(cCut).join("\n")}\n`);
    appendFileSync(path.join(dir, "pi.jsonl"), `${pLines.slice(pCut).join("\n")}\n`);
    const second = await syncFolders([dir], ALL);
    expect(second.files.map((f) => f.outcome.kind)).toEqual(["appended", "appended"]);
    const codexEntries = await loadEntries({ sessionId: codex.sessionId });
    expect(countEntries(codexEntries)).toEqual(codex.expected);
    const piId = JSON.parse(pLines[0]!).id as string;
    expect((await loadEntries({ sessionId: piId })).length).toBe(pLines.length - 1);
  });

  it("imports a rewritten file again as a new version and keeps the old one", async () => {
    const a = generateCodexSession({ seed: 1, turns: 4 });
    const file = path.join(dir, "rollout.jsonl");
    writeFileSync(file, a.text);
    await syncFolders([dir], ALL);
    const b = generateCodexSession({ seed: 2, turns: 3 });
    writeFileSync(file, b.text.replace(b.sessionId, a.sessionId)); // same session id, other content
    const r = await syncFolders([dir], ALL);
    const o = r.files[0]!.outcome;
    expect(o).toMatchObject({ kind: "rewritten", previousSessionId: a.sessionId, version: 2 });
    if (o.kind !== "rewritten") return;
    expect(o.sessionId).not.toBe(a.sessionId);
    expect(countEntries(await loadEntries({ sessionId: a.sessionId }))).toEqual(a.expected);
    expect(countEntries(await loadEntries({ sessionId: o.sessionId }))).toEqual(b.expected);
    expect((await getSessionMeta({ id: o.sessionId })).title).toMatch(/\(version 2\)$/);
  });

  it("a deleted file loses nothing in Arbor", async () => {
    const a = generateClaudeCodeSession({ seed: 9, turns: 3 });
    const file = path.join(dir, "a.jsonl");
    writeFileSync(file, a.text);
    await syncFolders([dir], ALL);
    const stored = await loadEntries({ sessionId: a.sessionId });
    rmSync(file);
    const r = await syncFolders([dir], ALL);
    expect(r.files).toEqual([{ file: path.join(realpathSync(dir), "a.jsonl"), outcome: { kind: "gone", sessionId: a.sessionId } }]);
    expect(await loadEntries({ sessionId: a.sessionId })).toEqual(stored);
  });

  it("imports a file cut mid-line up to its last whole line and takes the rest on the next sync", async () => {
    const a = generateCodexSession({ seed: 3, turns: 4 });
    const text = a.text;
    const lastStart = text.lastIndexOf("\n", text.length - 2) + 1;
    const file = path.join(dir, "cut.jsonl");
    const half = lastStart + Math.floor((text.length - lastStart) / 2);
    writeFileSync(file, text.slice(0, half));
    // A live file (the default settle time): a Codex response waits for its token_count line.
    const first = await syncFolders([dir]);
    expect(first.files[0]!.outcome.kind).toBe("imported");
    const r1 = await loadEntries({ sessionId: a.sessionId });
    appendFileSync(file, text.slice(half));
    const second = await syncFolders([dir]);
    expect(second.files[0]!.outcome.kind).toBe("appended");
    const all = await loadEntries({ sessionId: a.sessionId });
    expect(all.length).toBeGreaterThan(r1.length);
    expect(countEntries(all)).toEqual(a.expected);
    expect(await originalText(a.sessionId)).toBe(text);
  });

  it("keeps a file dropped in before in sync instead of importing it twice", async () => {
    const a = generateCodexSession({ seed: 8, turns: 6 });
    const lines = a.text.split("\n").filter((l) => l !== "");
    const cut = lines.findIndex((l, i) => i > lines.length / 2 && l.includes('"type":"turn_context"'));
    const head = `${lines.slice(0, cut).join("\n")}\n`;
    await importSession({ source: chunked(head), fileName: "dropped.jsonl" });
    writeFileSync(path.join(dir, "r.jsonl"), a.text);
    const before = await counts();
    const r = await syncFolders([dir], ALL);
    expect(r.files[0]!.outcome).toMatchObject({ kind: "imported", adopted: true, sessionId: a.sessionId });
    expect((await counts()).sessions).toBe(before.sessions);
    expect(countEntries(await loadEntries({ sessionId: a.sessionId }))).toEqual(a.expected);
  });

  it("Cancel stops the sync and the file being imported leaves nothing", async () => {
    const big = generateClaudeCodeSession({ seed: 4, turns: 400 });
    writeFileSync(path.join(dir, "big.jsonl"), big.text);
    const before = await counts();
    const controller = new AbortController();
    const run = syncFolders([dir], {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "progress") controller.abort(new Error("cancelled by the user"));
      },
    });
    await expect(run).rejects.toThrow(/cancelled by the user/);
    expect(await counts()).toEqual(before);
    const [row] = await getDb().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM sync_files WHERE starts_with(path, $1)`, realpathSync(dir));
    expect(row!.n).toBe(0);
  });

  it("leaves the response a fresh file ends with for a later sync, and takes it once the file is quiet", async () => {
    const gen = generateClaudeCodeSession({ seed: 21, turns: 5 });
    const lines = growingLines(gen.text);
    const file = path.join(dir, "live.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const first = await syncFolders([dir], { settleMs: 60_000 });
    expect(first.files[0]!.outcome).toMatchObject({ kind: "imported", held: true });
    const some = await loadEntries({ sessionId: gen.sessionId });
    expect(countEntries(some).assistants).toBeLessThan(gen.expected.assistants);
    const old = new Date(Date.now() - 120_000);
    utimesSync(file, old, old);
    const second = await syncFolders([dir], { settleMs: 60_000 });
    expect(second.files[0]!.outcome.kind).toBe("appended");
    expect(countEntries(await loadEntries({ sessionId: gen.sessionId }))).toEqual(gen.expected);
  });

  it("imports a file again as a new version when a response stored while it was being written grows", async () => {
    const gen = generateClaudeCodeSession({ seed: 22, turns: 6 });
    const lines = growingLines(gen.text);
    // A line in the middle of one response: an assistant record followed by one with the same message.id.
    const id = (l: string) => /"type":"assistant".*?"message":\{"id":"(msg_[0-9a-f]+)"/.exec(l)?.[1];
    const mid = lines.findIndex((l, i) => id(l) !== undefined && id(l) === id(lines[i + 1] ?? ""));
    expect(mid).toBeGreaterThan(0);
    const file = path.join(dir, "grow.jsonl");
    writeFileSync(file, `${lines.slice(0, mid + 1).join("\n")}\n`);
    await syncFolders([dir], ALL);
    appendFileSync(file, `${lines.slice(mid + 1).join("\n")}\n`);
    const r = await syncFolders([dir], ALL);
    expect(r.files[0]!.outcome).toMatchObject({ kind: "rewritten", previousSessionId: gen.sessionId, version: 2 });
    const o = r.files[0]!.outcome;
    if (o.kind === "rewritten") expect(countEntries(await loadEntries({ sessionId: o.sessionId }))).toEqual(gen.expected);
  });
});

describe("subagent files", () => {
  it("a synced project folder imports the subagents as their own sessions, linked from the parent's Task result", async () => {
    const parent = generateClaudeCodeSession({ seed: 41, turns: 3, subagents: 2 });
    const project = path.join(dir, "-home-dev-project");
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, `${parent.sessionId}.jsonl`), parent.text);
    for (const sub of parent.subagents!) {
      mkdirSync(path.dirname(path.join(project, sub.relativePath)), { recursive: true });
      writeFileSync(path.join(project, sub.relativePath), sub.text);
    }
    const r = await syncFolders([dir], ALL);
    expect(r.counts.imported).toBe(3);
    const entries = await loadEntries({ sessionId: parent.sessionId });
    const links = entries.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" && e.message.subagentSessionId ? [e.message.subagentSessionId] : []));
    expect(links).toHaveLength(2);
    for (const [i, id] of links.entries()) {
      const meta = await getSessionMeta({ id });
      expect(meta.parentSession).toBe(parent.sessionId);
      expect(countEntries(await loadEntries({ sessionId: id }))).toEqual(parent.subagents![i]!.expected);
    }
  });
});

describe("Codex forks", () => {
  it("a synced fork names the rollout it was forked from as its parent session", async () => {
    const parent = generateCodexSession({ seed: 71, turns: 3 });
    const fork = generateCodexSession({ seed: 72, turns: 2, forkedFrom: parent.sessionId });
    writeFileSync(path.join(dir, "rollout-a.jsonl"), parent.text);
    writeFileSync(path.join(dir, "rollout-b.jsonl"), fork.text);
    const r = await syncFolders([dir], ALL);
    expect(r.counts.imported).toBe(2);
    expect((await getSessionMeta({ id: fork.sessionId })).parentSession).toBe(parent.sessionId);
    expect((await getSessionMeta({ id: parent.sessionId })).parentSession).toBeNull();
  });
});
