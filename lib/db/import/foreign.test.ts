/**
 * Importing other agents' files as they really are (docs/formats.md): Claude Code 2.1.x files
 * that open with session state and a prompt of megabytes, inline sidechains imported as their own
 * sessions, pi's two-objects-on-one-line, and the import report (records kept per kind, repairs
 * by line). Bad input gets a located error or a reported repair, and nothing half-imported.
 */
import { describe, expect, it } from "vitest";
import { countEntries } from "@/lib/formats/count";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { useTestDatabase } from "@/test/db";
import { chunked, counts, failure } from "@/test/import-helpers";
import { buildSessionContext } from "@/lib/session/context";
import { exportSession, getSessionMeta, importSession, loadEntries } from "..";

useTestDatabase();

const CHUNK = 64 * 1024;
const enc = new TextEncoder();
const cc = (uuid: string, parentUuid: string | null, extra: Record<string, unknown>) =>
  JSON.stringify({ parentUuid, isSidechain: false, sessionId: extra.sessionId ?? "cc-bad", cwd: "/w", version: "2.1.5", type: "user", uuid, timestamp: "2026-01-01T00:00:00.000Z", ...extra });
const prompt = (uuid: string, parentUuid: string | null, text: string, sessionId: string) => cc(uuid, parentUuid, { sessionId, message: { role: "user", content: text } });

describe("a Claude Code 2.1.x file", () => {
  const file = generateClaudeCodeSession({ seed: 41, turns: 4, modern: true, bigFirstPrompt: 1_500_000 });

  it("opening with session-state records and a 1.5 MB first prompt imports whole, titled by its ai-title, with its PR linked", async () => {
    const r = await importSession({ source: chunked(file.text, CHUNK), fileName: "modern.jsonl" });
    expect(r.format).toBe("claude-code");
    expect(r.records).toBe(file.records);
    expect(r.title).toBe(file.title);
    expect(countEntries(await loadEntries({ sessionId: r.sessionId }))).toEqual(file.expected);
    const meta = await getSessionMeta({ id: r.sessionId });
    expect(meta.header.links).toEqual([{ url: "https://example.invalid/dev/project/pull/7", title: "PR dev/project #7" }]);
  });

  it("reports the records it keeps without showing them, per kind", async () => {
    const r = await importSession({ source: chunked(file.text, CHUNK), fileName: "modern.jsonl", asCopy: true });
    const kept = Object.fromEntries(r.kept.map((k) => [k.kind, k.count]));
    expect(kept).toMatchObject({ "last-prompt": 1, "permission-mode": 1, mode: 1, "bridge-session": 1, "pr-link": 1 });
    // The away recap and the turns' durations are shown (notices in the chat): not among them.
    expect(kept).not.toHaveProperty("system/turn_duration");
    expect(kept).not.toHaveProperty("system/away_summary");
    expect(r.kept.reduce((n, k) => n + k.count, 0)).toBe(file.expected.custom - 4 - 1);
  });
});

describe("inline sidechains", () => {
  const file = generateClaudeCodeSession({ seed: 42, turns: 4, sidechain: true });

  it("are imported as sessions of their own with the file, linked from the Task result; a copy of the file reuses them", async () => {
    const r = await importSession({ source: chunked(file.text, CHUNK), fileName: "side.jsonl" });
    expect(r.sidechains).toHaveLength(1);
    const side = r.sidechains[0]!;
    expect(side.title).toBe("Sidechain task: look around");
    expect(countEntries(await loadEntries({ sessionId: side.sessionId }))).toEqual(file.sidechainExpected);
    expect((await getSessionMeta({ id: side.sessionId })).parentSession).toBe(file.sessionId);
    const main = await loadEntries({ sessionId: r.sessionId });
    expect(countEntries(main)).toEqual(file.expected);
    const task = main.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "Task");
    expect(task?.type === "message" && task.message.role === "toolResult" && task.message.subagentSessionId).toBe(side.sessionId);
    const copy = await importSession({ source: chunked(file.text, CHUNK), fileName: "side.jsonl", asCopy: true });
    // Named, not imported again: the copy's report says they are already in Arbor.
    expect(copy.sidechains).toEqual([{ sessionId: side.sessionId, title: side.title, entryCount: side.entryCount, existing: true }]);
  });
});

describe("pi's two objects on one line", () => {
  it("are both read, and the report names the line", async () => {
    const header = JSON.stringify({ type: "session", version: 3, id: "pi-joined", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" });
    const a = JSON.stringify({ type: "message", id: "a", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } });
    const b = JSON.stringify({ type: "message", id: "b", parentId: "a", timestamp: "2026-01-01T00:00:02.000Z", message: { role: "user", content: "again", timestamp: 2 } });
    const c = JSON.stringify({ type: "compaction", id: "c", parentId: "b", timestamp: "2026-01-01T00:00:03.000Z", summary: "S", firstKeptEntryId: "b", tokensBefore: 9 });
    const r = await importSession({ source: chunked(`${header}\n${a}\n${b}${c}\n`, CHUNK), fileName: "joined.jsonl" });
    expect(r.entryCount).toBe(3);
    expect(r.skippedCount).toBe(0);
    expect(r.repairs).toEqual([{ line: 3, message: "2 JSON objects on one line with no newline between them (a writer's bug): all 2 were read" }]);
    expect((await loadEntries({ sessionId: "pi-joined" })).map((e) => e.id)).toEqual(["a", "b", "c"]);
  });
});

describe("pi ≥ 0.84", () => {
  it("keeps the usage on compaction and branch_summary entries through import and export, and a compaction between the turns of one run", async () => {
    const usage = { input: 1200, output: 300, cacheRead: 0, cacheWrite: 0, totalTokens: 1500, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } };
    const ts = (i: number) => `2026-03-01T00:00:0${i}.000Z`;
    const lines = [
      { type: "session", version: 3, id: "pi-084", timestamp: ts(0), cwd: "/w" },
      { type: "message", id: "u", parentId: null, timestamp: ts(1), message: { role: "user", content: "fix it", timestamp: 1 } },
      { type: "message", id: "a1", parentId: "u", timestamp: ts(2), message: { role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: { command: "make" } }], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "toolUse", timestamp: 2 } },
      { type: "message", id: "r1", parentId: "a1", timestamp: ts(3), message: { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 3 } },
      // The run goes on after a compaction between two of its turns.
      { type: "compaction", id: "k", parentId: "r1", timestamp: ts(4), summary: "Fixing the build.", firstKeptEntryId: "a1", tokensBefore: 180000, usage },
      { type: "message", id: "a2", parentId: "k", timestamp: ts(5), message: { role: "assistant", content: [{ type: "text", text: "done" }], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: 5 } },
      { type: "branch_summary", id: "b", parentId: "u", timestamp: ts(6), fromId: "u", summary: "Tried another way.", usage },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
    const r = await importSession({ source: chunked(text, CHUNK), fileName: "pi084.jsonl" });
    expect(r.entryCount).toBe(6);
    const entries = await loadEntries({ sessionId: "pi-084" });
    expect(entries.find((e) => e.id === "k")).toMatchObject({ type: "compaction", usage });
    expect(entries.find((e) => e.id === "b")).toMatchObject({ type: "branch_summary", usage });
    const exported = await exportSession({ sessionId: "pi-084" });
    let out = "";
    for await (const line of exported.lines()) out += line;
    const back = out.trim().split("\n").map((l) => JSON.parse(l) as { id?: string; usage?: unknown });
    expect(back.find((e) => e.id === "k")?.usage).toEqual(usage);
    expect(back.find((e) => e.id === "b")?.usage).toEqual(usage);
    // The context after the mid-run compaction: its summary, then the kept turn, then the run's next turn.
    const ctx = buildSessionContext(entries, "a2");
    expect(ctx.messages.map((m) => m.role)).toEqual(["compactionSummary", "assistant", "toolResult", "assistant"]);
  });
});

describe("bad input", () => {
  it("a file in no format names each format and why not", async () => {
    const error = await failure(importSession({ source: chunked(`${JSON.stringify({ kind: "note" })}\n${JSON.stringify({ kind: "note" })}\n`, CHUNK), fileName: "notes.jsonl" }));
    expect(error.code).toBe("not_session");
    expect(error.message).toBe(
      'notes.jsonl: not a session file (line 1: the first JSON object is not a session header ({"type":"session","id":…}); ' +
        "not Claude Code: no user / assistant / system record with uuid and parentUuid in lines 1–2 (2 records); " +
        "not a Codex rollout: no {timestamp, type, payload} record of a Codex type in lines 1–2 (2 records))",
    );
  });

  it("a last line cut mid-UTF-8 is a reported skip; the rest imports", async () => {
    const id = "cc-utf8";
    const last = enc.encode(`${prompt("u3", "u2", "naïve café ☕ bye", id)}`);
    const cut = last.slice(0, last.indexOf(0xe2) + 1); // inside the 3-byte ☕
    const head = enc.encode(`${prompt("u1", null, "first", id)}\n${prompt("u2", "u1", "second", id)}\n`);
    const r = await importSession({ source: chunked(new Uint8Array([...head, ...cut]), 7), fileName: "cut.jsonl" });
    expect(r.entryCount).toBe(2);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]).toMatchObject({ line: 3 });
    expect(r.skipped[0]!.reason).toMatch(/the file ends in the middle of this line/);
  });

  it("duplicate uuids, a parentUuid cycle and a wrong field type: every record kept, each repair reported by line", async () => {
    const id = "cc-repairs";
    const text = [
      prompt("a", "b", "names a later parent", id),
      prompt("b", "a", "closes the cycle", id),
      prompt("a", "b", "uses a again", id),
      cc("m", "b", { sessionId: id, message: 42 }),
    ].join("\n");
    const r = await importSession({ source: chunked(`${text}\n`, CHUNK), fileName: "repairs.jsonl" });
    expect(r.entryCount).toBe(4);
    expect(r.repairs.map((n) => n.line)).toEqual([1, 3, 4]);
    expect(r.repairs[2]!.message).toBe("user record's message is not an object (number): kept as a custom entry");
    expect((await loadEntries({ sessionId: id })).map((e) => [e.id, e.parentId])).toEqual([
      ["a", null],
      ["b", "a"],
      ["a~3", "b"],
      ["m", "b"],
    ]);
  });

  it("a 64 MB line fails at the line limit, naming file and line; nothing is saved", async () => {
    const before = await counts();
    async function* huge(): AsyncGenerator<Uint8Array> {
      yield enc.encode(`${prompt("u1", null, "first", "cc-huge")}\n{"type":"user","text":"`);
      const mb = new Uint8Array(1024 * 1024).fill(0x78);
      for (let i = 0; i < 65; i++) yield mb;
      yield enc.encode('"}\n');
    }
    const error = await failure(importSession({ source: huge(), fileName: "huge.jsonl" }));
    expect(error.code).toBe("line_too_long");
    expect(error.message).toBe("huge.jsonl:2: line is longer than the 64 MB line limit");
    expect(await counts()).toEqual(before);
  });
});
