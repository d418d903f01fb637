/** Importing session files: streaming, migration, reporting, re-import, and all-or-nothing writes. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { importSession, LimitError, loadEntries, getSessionMeta, loadPath } from "..";
import { chunked, counts, failure } from "@/test/import-helpers";

useTestDatabase();

const enc = new TextEncoder();
/** Odd and small: lines and multi-byte characters split across chunks. */
const CHUNK = 7;

const ts = (i: number) => new Date(Date.UTC(2025, 2, 1, 10, 0, i)).toISOString();
const header = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ type: "session", version: 3, id, timestamp: ts(0), cwd: "/w", ...extra });
const user = (id: string, parentId: string | null, text: string, i = 1) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: ts(i), message: { role: "user", content: text, timestamp: i } });
const assistant = (id: string, parentId: string | null, text: string, i = 2) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: ts(i),
    message: { role: "assistant", content: [{ type: "text", text }], provider: "anthropic", model: "claude-opus-4-5", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: "stop", timestamp: i },
  });

/** A v3 file with `n` chained user messages. */
function longFile(id: string, n: number, bad?: { at: number; line: string }): string {
  const lines = [header(id)];
  for (let i = 0; i < n; i++) {
    if (bad && i === bad.at) lines.push(bad.line);
    lines.push(user(`e${i}`, i === 0 ? null : `e${i - 1}`, `message ${i}`, i + 1));
  }
  return `${lines.join("\n")}\n`;
}

describe("importSession: reading", () => {
  it("reads CRLF lines, characters split across chunks and a last line without newline", async () => {
    const text = [header("s-crlf"), user("a1", null, "héllo wörld 👋🏽 日本語"), "", assistant("a2", "a1", "ça va ✓")].join("\r\n");
    const r = await importSession({ source: chunked(text, 5), fileName: "crlf.jsonl" });
    expect(r).toMatchObject({ sessionId: "s-crlf", entryCount: 2, leafId: "a2", skipped: [], migrated: false });
    const entries = await loadEntries({ sessionId: "s-crlf" });
    expect(entries.map((e) => (e as { message: { content: unknown } }).message.content)).toEqual([
      "héllo wörld 👋🏽 日本語",
      [{ type: "text", text: "ça va ✓" }],
    ]);
    const meta = await getSessionMeta({ id: "s-crlf" });
    expect(meta).toMatchObject({ sourceFileName: "crlf.jsonl", model: "anthropic/claude-opus-4-5", title: "héllo wörld 👋🏽 日本語", leafId: "a2" });
    expect(meta.lastActivityAt).toBe(ts(2));
    expect(meta.createdAt).toBe(ts(0));
  });

  it("skips malformed lines and reports each with its line number and reason", async () => {
    const text = [header("s-skip"), user("b1", null, "one"), "{not json", "[1,2]", user("b2", "b1", "two", 3), ""].join("\n");
    const r = await importSession({ source: chunked(text, 64), fileName: "skip.jsonl" });
    expect(r.entryCount).toBe(2);
    expect(r.skippedCount).toBe(2);
    expect(r.skipped.map((s) => s.line)).toEqual([3, 4]);
    expect(r.skipped[0]!.reason).toMatch(/invalid JSON/);
    expect(r.skipped[1]!.reason).toBe("not a JSON object (got an array)");
  });

  it("migrates a v1 file (no ids) to a v3 chain and names it after the first user message", async () => {
    const v1 = [
      JSON.stringify({ type: "session", id: "s-v1", timestamp: ts(0), cwd: "", provider: "anthropic", modelId: "claude-sonnet-4-5" }),
      JSON.stringify({ type: "message", timestamp: ts(1), message: { role: "user", content: "  fix   the build ", timestamp: 1 } }),
      JSON.stringify({ type: "message", timestamp: ts(2), message: { role: "hookMessage", customType: "n", content: "x", display: true, timestamp: 2 } }),
      JSON.stringify({ type: "compaction", timestamp: ts(3), summary: "S", tokensBefore: 5, firstKeptEntryIndex: 2 }),
    ].join("\n");
    const r = await importSession({ source: chunked(v1, CHUNK), fileName: "v1.jsonl" });
    expect(r).toMatchObject({ migrated: true, fromVersion: 1, entryCount: 3, title: "fix the build" });
    const entries = await loadEntries({ sessionId: "s-v1" });
    expect(entries.every((e) => /^[0-9a-f]{8}$/.test(e.id))).toBe(true);
    expect(entries.map((e) => e.parentId)).toEqual([null, entries[0]!.id, entries[1]!.id]);
    expect((entries[1] as { message: { role: string } }).message.role).toBe("custom");
    expect(entries[2]).toMatchObject({ firstKeptEntryId: entries[1]!.id });
    expect((await getSessionMeta({ id: "s-v1" })).header).toMatchObject({ version: 3, provider: "anthropic" });
  });

  it("takes the title from the option, else the header, else the pi session name", async () => {
    const info = JSON.stringify({ type: "session_info", id: "i1", parentId: "t1", timestamp: ts(2), name: "Named in pi" });
    const body = [user("t1", null, "first question"), info].join("\n");
    const a = await importSession({ source: chunked(`${header("s-t1")}\n${body}`, CHUNK), title: "Given title" });
    const b = await importSession({ source: chunked(`${header("s-t2", { title: "Header title" })}\n${body}`, CHUNK) });
    const c = await importSession({ source: chunked(`${header("s-t3")}\n${body}`, CHUNK) });
    expect([a.title, b.title, c.title]).toEqual(["Given title", "Header title", "Named in pi"]);
    expect((await getSessionMeta({ id: "s-t1" })).header.title).toBe("Given title");
  });

  it("imports from a file path and reports progress in bytes and entries", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "arbor-import-"));
    const file = path.join(dir, "progress.jsonl");
    const text = longFile("s-progress", 2500);
    await writeFile(file, text);
    const progress: { bytes: number; entries: number; totalBytes?: number }[] = [];
    const r = await importSession({ source: file, batchSize: 1000, onProgress: (p) => progress.push(p) });
    expect(r.entryCount).toBe(2500);
    expect(progress.map((p) => p.entries)).toEqual([0, 1000, 2000, 2500]);
    expect(progress.at(-1)).toMatchObject({ bytes: enc.encode(text).length, totalBytes: enc.encode(text).length });
    expect((await getSessionMeta({ id: "s-progress" })).sourceFileName).toBe("progress.jsonl");
  });

  it("restores the leaf named by the header's arborLeafId, else uses the last entry", async () => {
    const body = [user("l1", null, "q"), assistant("l2", "l1", "a"), user("l3", "l1", "other branch", 3)].join("\n");
    const a = await importSession({ source: chunked(`${header("s-leaf1", { arborLeafId: "l2" })}\n${body}`, CHUNK) });
    const b = await importSession({ source: chunked(`${header("s-leaf2", { arborLeafId: "gone" })}\n${body}`, CHUNK) });
    expect([a.leafId, b.leafId]).toEqual(["l2", "l3"]);
    expect((await loadPath({ sessionId: "s-leaf1" })).map((e) => e.id)).toEqual(["l1", "l2"]);
    expect((await getSessionMeta({ id: "s-leaf1" })).header).not.toHaveProperty("arborLeafId");
  });
});

describe("importSession: refusing files", () => {
  it("rejects a file that is not a session, naming the file and the line", async () => {
    const notHeader = await failure(importSession({ source: chunked(`\n${user("x", null, "hi")}\n`, CHUNK), fileName: "notes.jsonl" }));
    expect(notHeader.code).toBe("not_session");
    expect(notHeader.message).toMatch(/^notes\.jsonl: not a session file \(line 2: the first JSON object is not a session header/);
    const empty = await failure(importSession({ source: chunked("\n\n", CHUNK), fileName: "empty.jsonl" }));
    expect(empty.message).toBe("empty.jsonl: not a session file (no JSON object found)");
    const binary = await failure(importSession({ source: chunked("\u0089PNG".repeat(400_000), 65536), fileName: "pic.png" }));
    expect(binary.code).toBe("not_session");
    expect(binary.message).toMatch(/^pic\.png: not a session file/);
  });

  it("rolls back everything when an entry in the middle is invalid", async () => {
    const before = await counts();
    const bad = JSON.stringify({ type: "message", parentId: null, timestamp: ts(1), message: { role: "user", content: "x" } });
    const text = longFile("s-bad", 3000, { at: 2500, line: bad });
    const error = await failure(importSession({ source: chunked(text, 4096), fileName: "session.jsonl", batchSize: 500 }));
    expect(error.message).toBe("session.jsonl:2502: entry has no id (field id)");
    expect(error).toMatchObject({ code: "invalid_entry", line: 2502, field: "id", file: "session.jsonl" });
    expect(await counts()).toEqual(before);
  });

  it("reports an entry without type, and duplicate ids with both lines", async () => {
    const noType = await failure(importSession({ source: chunked(`${header("s-nt")}\n{"id":"x","parentId":null}\n`, CHUNK), fileName: "a.jsonl" }));
    expect(noType.message).toBe("a.jsonl:2: entry has no type (field type)");
    const dup = await failure(importSession({ source: chunked(`${header("s-dup")}\n${user("d1", null, "a")}\n${user("d1", null, "b")}\n`, CHUNK), fileName: "b.jsonl" }));
    expect(dup.message).toBe("b.jsonl:3: duplicate entry id d1 (first used on line 2)");
    await expect(getSessionMeta({ id: "s-dup" })).rejects.toThrow(/not found/);
  });

  it("leaves nothing behind when cancelled mid-import", async () => {
    const before = await counts();
    const controller = new AbortController();
    const error = await failure(
      importSession({
        source: chunked(longFile("s-abort", 5000), 8192),
        fileName: "big.jsonl",
        batchSize: 1000,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.entries >= 2000) controller.abort();
        },
      }),
    );
    expect(error.code).toBe("cancelled");
    expect(error.message).toBe("big.jsonl: import cancelled; nothing was saved");
    expect(await counts()).toEqual(before);
  });

  it("enforces the size and line-length limits with clear messages", async () => {
    const text = longFile("s-limit", 50);
    const tooBig = await failure(importSession({ source: chunked(text, 100), fileName: "big.jsonl", maxBytes: 1024 }));
    expect(tooBig).toBeInstanceOf(LimitError);
    expect(tooBig.message).toBe("big.jsonl: file is larger than the 1 KB import limit");

    const dir = await mkdtemp(path.join(tmpdir(), "arbor-limit-"));
    const file = path.join(dir, "big-file.jsonl");
    await writeFile(file, text);
    const fromPath = await failure(importSession({ source: file, maxBytes: 2048 }));
    expect(fromPath.message).toBe("big-file.jsonl: file is larger than the 2 KB import limit");

    const longLine = `${header("s-long")}\n${user("x1", null, "y".repeat(5000))}\n`;
    const tooLong = await failure(importSession({ source: chunked(longLine, 512), fileName: "long.jsonl", maxLineLength: 4096 }));
    expect(tooLong).toMatchObject({ code: "line_too_long", line: 2 });
    expect(tooLong.message).toBe("long.jsonl:2: line is longer than the 4 KB line limit");
    await expect(getSessionMeta({ id: "s-long" })).rejects.toThrow(/not found/);
  });
});

describe("importSession: re-import", () => {
  it("refuses a session id that is already stored, and imports a copy on request", async () => {
    const text = [header("s-again"), user("r1", null, "the question"), assistant("r2", "r1", "the answer")].join("\n");
    await importSession({ source: chunked(text, CHUNK), fileName: "again.jsonl" });
    const again = await failure(importSession({ source: chunked(text, CHUNK), fileName: "again.jsonl" }));
    expect(again).toMatchObject({ code: "exists", existingSessionId: "s-again" });
    expect(again.message).toBe("again.jsonl: session s-again is already imported; import it as a copy to keep both");

    const copy = await importSession({ source: chunked(text, CHUNK), fileName: "again.jsonl", asCopy: true });
    expect(copy.sessionId).not.toBe("s-again");
    expect(copy.title).toBe("the question (copy)");
    const meta = await getSessionMeta({ id: copy.sessionId });
    expect(meta.header.id).toBe(copy.sessionId);
    expect((await loadEntries({ sessionId: copy.sessionId })).map((e) => e.id)).toEqual(["r1", "r2"]);
    expect((await loadEntries({ sessionId: "s-again" })).map((e) => e.id)).toEqual(["r1", "r2"]);
  });
});
