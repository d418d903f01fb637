/**
 * Folder sync of single-document sessions (docs/formats.md "Sync"): Gemini CLI recordings that are
 * rewritten whole as they grow, Gemini CLI 0.39+ JSONL records, and opencode's storage folder.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findSessionSource, getSessionMeta, loadEntries } from "@/lib/db";
import { countEntries } from "@/lib/formats/count";
import { useTestDatabase } from "@/test/db";
import { originalText } from "@/test/import-helpers";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { syncFolders } from "./sync-folders";

useTestDatabase();

/** Take every message at once (the held last message has its own test). */
const ALL = { settleMs: 0 };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-docsync-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The document with only its first `n` messages (what Gemini CLI had written by then). */
function upTo(doc: Record<string, unknown>, n: number): string {
  return JSON.stringify({ ...doc, messages: (doc.messages as unknown[]).slice(0, n) }, null, 2);
}

function ago(file: string, ms: number) {
  const t = new Date(Date.now() - ms);
  utimesSync(file, t, t);
}

describe("a Gemini CLI recording, rewritten whole as it grows", () => {
  const gen = generateGeminiSession({ seed: 51, turns: 6, summary: "Grow the parser" });
  const total = (gen.document.messages as unknown[]).length;

  it("imports it, then appends only the new messages' entries when it is rewritten longer; never a duplicate", async () => {
    const file = path.join(dir, "abc", "chats", "session-2026-01-10T20-25-aaaa1111.json");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, upTo(gen.document, Math.floor(total / 2)));
    const first = await syncFolders([dir], ALL);
    expect(first.files.map((f) => f.outcome)).toEqual([expect.objectContaining({ kind: "imported", sessionId: gen.sessionId, format: "gemini" })]);
    const before = await loadEntries({ sessionId: gen.sessionId });

    writeFileSync(file, gen.text);
    const second = await syncFolders([dir], ALL);
    const outcome = second.files[0]!.outcome;
    const after = await loadEntries({ sessionId: gen.sessionId });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(outcome).toEqual({ kind: "appended", sessionId: gen.sessionId, added: after.length - before.length });
    expect(new Set(after.map((e) => e.id)).size).toBe(after.length);
    // The same as importing the whole file at once: the generator's counts exactly.
    expect(countEntries(after)).toEqual(gen.expected);
    expect((await getSessionMeta({ id: gen.sessionId })).leafId).toBe(after.at(-1)!.id);
    // "Download original" gives the document as last synced, and its record count.
    expect(await originalText(gen.sessionId)).toBe(gen.text);
    expect(await findSessionSource({ sessionId: gen.sessionId })).toMatchObject({ records: total });

    // Rewritten with the same content (Gemini CLI saving again): nothing new.
    writeFileSync(file, gen.text);
    expect((await syncFolders([dir], ALL)).files[0]!.outcome).toEqual({ kind: "unchanged", sessionId: gen.sessionId });
  });

  it("holds the last message back while the file changed moments ago, and takes it once the file is quiet", async () => {
    const file = path.join(dir, "chats", "session-2026-01-10T20-25-bbbb2222.json");
    mkdirSync(path.dirname(file), { recursive: true });
    const other = generateGeminiSession({ seed: 52, turns: 3 });
    writeFileSync(file, other.text);
    const first = await syncFolders([dir], { settleMs: 60_000 });
    expect(first.files[0]!.outcome).toMatchObject({ kind: "imported", held: true });
    const held = await loadEntries({ sessionId: other.sessionId });
    const lastId = (other.document.messages as { id: string }[]).at(-1)!.id;
    expect(held.some((e) => e.id === lastId)).toBe(false);

    ago(file, 120_000);
    const second = await syncFolders([dir], { settleMs: 60_000 });
    expect(second.files[0]!.outcome).toMatchObject({ kind: "appended", added: expect.any(Number) });
    const all = await loadEntries({ sessionId: other.sessionId });
    expect(all.slice(0, held.length)).toEqual(held);
    expect(countEntries(all)).toEqual(other.expected);
  });

  it("imports it again as a new version when a message imported before changed (a rewind, an edit)", async () => {
    const file = path.join(dir, "chats", "session-2026-01-10T20-25-cccc3333.json");
    mkdirSync(path.dirname(file), { recursive: true });
    const other = generateGeminiSession({ seed: 53, turns: 3 });
    writeFileSync(file, other.text);
    await syncFolders([dir], ALL);
    const before = await loadEntries({ sessionId: other.sessionId });
    const messages = (other.document.messages as { type: string; content: unknown }[]).map((m) => (m.type === "user" ? { ...m, content: "A different prompt" } : m));
    writeFileSync(file, JSON.stringify({ ...other.document, messages }, null, 2));
    const outcome = (await syncFolders([dir], ALL)).files[0]!.outcome;
    expect(outcome).toMatchObject({ kind: "rewritten", previousSessionId: other.sessionId, version: 2 });
    expect(outcome.kind === "rewritten" && outcome.why).toMatch(/changed after it was imported/);
    // The earlier session stays as it was; the new version holds the new prompt.
    expect(await loadEntries({ sessionId: other.sessionId })).toEqual(before);
    const again = await loadEntries({ sessionId: outcome.kind === "rewritten" ? outcome.sessionId : "" });
    expect(JSON.stringify(again)).toContain("A different prompt");
    expect((await getSessionMeta({ id: outcome.kind === "rewritten" ? outcome.sessionId : "" })).title).toMatch(/\(version 2\)$/);
  });

  it("waits while a file that does not parse is fresh, and names line and column once it is not", async () => {
    const file = path.join(dir, "chats", "session-2026-01-10T20-25-dddd4444.json");
    mkdirSync(path.dirname(file), { recursive: true });
    const cut = generateGeminiSession({ seed: 54, turns: 2 }).text.slice(0, 500);
    writeFileSync(file, cut);
    expect((await syncFolders([dir], { settleMs: 60_000 })).files[0]!.outcome).toEqual({ kind: "waiting", why: "the file is being written" });
    ago(file, 120_000);
    const failed = (await syncFolders([dir], { settleMs: 60_000 })).files[0]!.outcome;
    expect(failed).toMatchObject({ kind: "failed", message: expect.stringMatching(/^session-2026-01-10T20-25-dddd4444\.json:\d+:\d+: the Gemini CLI session is not valid JSON/) });
  });
});

describe("a Gemini CLI 0.39+ JSONL recording", () => {
  it("is folded and synced as a document: records appended later add their messages", async () => {
    const gen = generateGeminiSession({ seed: 55, turns: 4, jsonl: true });
    const lines = gen.text.trimEnd().split("\n");
    const file = path.join(dir, "chats", "session-2026-04-10T10-00-eeee5555.jsonl");
    mkdirSync(path.dirname(file), { recursive: true });
    // Cut before a prompt: every response before it is complete.
    const cut = lines.findIndex((l, i) => i > lines.length / 2 && (JSON.parse(l) as { type?: string }).type === "user");
    writeFileSync(file, `${lines.slice(0, cut).join("\n")}\n`);
    expect((await syncFolders([dir], ALL)).files[0]!.outcome).toMatchObject({ kind: "imported", format: "gemini", sessionId: gen.sessionId });
    const before = await loadEntries({ sessionId: gen.sessionId });
    appendFileSync(file, `${lines.slice(cut).join("\n")}\n`);
    const second = (await syncFolders([dir], ALL)).files[0]!.outcome;
    const after = await loadEntries({ sessionId: gen.sessionId });
    expect(second).toEqual({ kind: "appended", sessionId: gen.sessionId, added: after.length - before.length });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(countEntries(after)).toEqual(gen.expected);
  });
});

describe("opencode's storage folder", () => {
  const gen = generateOpencodeSession({ seed: 56, turns: 4, subagent: true });

  function writeStorage(root: string, files: Record<string, string>, skip: (rel: string) => boolean = () => false) {
    for (const [rel, text] of Object.entries(files)) {
      if (skip(rel)) continue;
      const p = path.join(root, rel);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, text);
    }
  }

  it("reads one session per session file (a child session linked to its parent), then appends new messages", async () => {
    const root = path.join(dir, "opencode", "storage");
    const last = gen.document.messages.at(-1)!.info.id as string;
    writeStorage(root, gen.storage, (rel) => rel.includes(last));
    writeStorage(root, gen.child!.storage);
    // Other folders of the storage are no sessions.
    writeStorage(root, { "project/p1.json": "{}", [`session_diff/${gen.sessionId}.json`]: "[]" });

    const first = await syncFolders([dir], ALL);
    expect(first.files.map((f) => f.outcome.kind)).toEqual(["imported", "imported"]);
    expect(first.files.map((f) => f.outcome.kind === "imported" && f.outcome.format)).toEqual(["opencode", "opencode"]);
    expect((await getSessionMeta({ id: gen.child!.sessionId })).parentSession).toBe(gen.sessionId);
    const before = await loadEntries({ sessionId: gen.sessionId });

    writeStorage(root, gen.storage, (rel) => !rel.includes(last));
    const second = await syncFolders([dir], ALL);
    const mine = second.files.find((f) => f.file.endsWith(`${gen.sessionId}.json`))!.outcome;
    expect(mine).toMatchObject({ kind: "appended", sessionId: gen.sessionId });
    const after = await loadEntries({ sessionId: gen.sessionId });
    expect(after.slice(0, before.length)).toEqual(before);
    expect(countEntries(after)).toEqual(gen.expected);
    // The original kept is the session as `opencode export` prints it.
    expect(JSON.parse(await originalText(gen.sessionId))).toEqual(gen.document);
    expect(second.files.find((f) => f.file.endsWith(`${gen.child!.sessionId}.json`))!.outcome).toEqual({ kind: "unchanged", sessionId: gen.child!.sessionId });
  });

  it("a watcher's changed part file stands for its session", async () => {
    const root = path.join(dir, "storage");
    writeStorage(root, gen.storage);
    await syncFolders([dir], ALL);
    const partRel = Object.keys(gen.storage).find((rel) => rel.startsWith("part/"))!;
    const summary = await syncFolders([dir], { ...ALL, only: new Set([path.join(root, partRel)]) });
    expect(summary.files.map((f) => path.relative(root, f.file))).toEqual([`session/${gen.projectId}/${gen.sessionId}.json`]);
  });
});
