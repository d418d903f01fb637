/**
 * The workspace tools end to end: real database, the real fake model server over HTTP scripting
 * tool calls, the real openai-compatible provider, real files on disk. Pins: a turn that reads,
 * edits and writes (files change; results and the edit's diff are stored), the file lists a
 * manual compaction appends (session-engine.md §10, §6.1 step 6), pruning before the next prompt (session-engine.md §8,
 * §13.1) with the original kept and restorable, escapes refused, and the per-session Tools switch.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as listFiles, POST as uploadFile } from "@/app/api/sessions/[id]/files/route";
import type { WorkspaceFilesBody } from "@/lib/types/workspace-files";
import type { AssistantMessage, CompactionEntry, SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import { compactRun, dataOf, newSession, postChat, readAll, useHarness, storedPath } from "@/test/chat-harness";

useTestDatabase();

// A window far above the tool output below, so only pruning (never threshold compaction) acts.
const h = useHarness({ contextWindow: 1_000_000 });

type MessageEntry = Extract<SessionEntry, { type: "message" }>;
const ws = (sessionId: string, rel = ".") => path.join(h.workspaces, sessionId, rel);
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const text = (r: ToolResultMessage) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

async function toolResults(sessionId: string): Promise<(ToolResultMessage & { entryId: string })[]> {
  return (await storedPath(sessionId))
    .filter((e): e is MessageEntry => e.type === "message" && e.message.role === "toolResult")
    .map((e) => ({ ...(e.message as ToolResultMessage), entryId: e.id }));
}

function upload(sessionId: string, rel: string, body: string) {
  return uploadFile(new Request(`http://arbor.test/api/sessions/${sessionId}/files?path=${encodeURIComponent(rel)}`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body }), ctx(sessionId));
}

const APP = "export function answer() {\n  return 1;\n}\n";

/** One turn that reads two files, edits one of them and writes a new one. */
async function fileTurn(sessionId: string) {
  expect((await upload(sessionId, "guide.md", "# Guide\nUse small steps.\n")).status).toBe(201);
  expect((await upload(sessionId, "src/app.ts", APP)).status).toBe(201);
  h.fake.script(
    { toolCalls: [{ name: "read", arguments: { path: "guide.md" } }, { name: "read", arguments: { path: "src/app.ts" } }] },
    { toolCalls: [{ name: "edit", arguments: { path: "src/app.ts", oldText: "  return 1;", newText: "  return 2;" } }] },
    { toolCalls: [{ name: "write", arguments: { path: "notes/plan.md", content: "# Plan\n- ship it\n" } }] },
    { text: "All done." },
  );
  return readAll(await postChat(sessionId, "Follow the guide and bump the answer"));
}

describe("a turn that reads, edits and writes workspace files", () => {
  it("changes the files on disk, stores every tool result and the edit's diff, and lists the files", async () => {
    const s = await newSession();
    const chunks = await fileTurn(s.id);
    expect(dataOf(chunks, "error")).toEqual([]);

    expect(await readFile(ws(s.id, "src/app.ts"), "utf8")).toBe("export function answer() {\n  return 2;\n}\n");
    expect(await readFile(ws(s.id, "notes/plan.md"), "utf8")).toBe("# Plan\n- ship it\n");

    const roles = (await storedPath(s.id)).map((e) => (e.type === "message" ? e.message.role : e.type));
    expect(roles).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant", "toolResult", "assistant", "toolResult", "assistant"]);
    const [guide, app, edit, write] = await toolResults(s.id);
    expect([guide, app, edit, write].map((r) => [r?.toolName, r?.isError])).toEqual([
      ["read", false],
      ["read", false],
      ["edit", false],
      ["write", false],
    ]);
    expect(text(guide!)).toBe("1\t# Guide\n2\tUse small steps.");
    expect(text(app!)).toContain("2\t  return 1;");
    expect(text(edit!)).toBe("Edited src/app.ts: replaced 1 line with 1 line at line 2");
    const diff = (edit!.details as { diff: string; path: string; firstChangedLine: number }).diff;
    expect(edit!.details).toMatchObject({ path: "src/app.ts", firstChangedLine: 2 });
    expect(diff.split("\n")).toEqual(expect.arrayContaining(["-  return 1;", "+  return 2;", " export function answer() {"]));
    expect(write!.details).toMatchObject({ path: "notes/plan.md", created: true });

    // The model got each result in the following request.
    const toolMessages = h.fake.requests[1]!.messages.filter((m) => m.role === "tool");
    expect(toolMessages.map((m) => String(m.content))).toEqual([text(guide!), text(app!)]);

    // The Files route shows the same folder the tools worked in.
    const listing = (await (await listFiles(new Request(`http://arbor.test/api/sessions/${s.id}/files`), ctx(s.id))).json()) as WorkspaceFilesBody;
    expect(listing.nodes.map((n) => [n.path, n.size])).toEqual([
      ["guide.md", 25],
      ["notes", undefined],
      ["src", undefined],
    ]);
    expect(listing.nodes[2]!.children).toEqual([expect.objectContaining({ path: "src/app.ts", size: APP.length })]);
  });

  it("a manual compaction ends its summary with exactly those paths (session-engine.md §10)", async () => {
    const s = await newSession({ compaction: { keepRecentTokens: 200 } });
    await fileTurn(s.id);
    // A later exchange to keep: its long question is where the cut lands (session-engine.md §5.3).
    h.fake.script({ text: "ok", usage: { promptTokens: 100, completionTokens: 1 } });
    await readAll(await postChat(s.id, `Now a long question: ${"details ".repeat(150)}`));

    const chunks = await readAll(await compactRun(s.id));
    expect(dataOf(chunks, "error")).toEqual([]);
    const compaction = (await storedPath(s.id)).at(-1) as CompactionEntry & SessionEntry;
    expect(compaction.type).toBe("compaction");
    expect(compaction.summary.endsWith("\n\n<read-files>\nguide.md\n</read-files>\n\n<modified-files>\nnotes/plan.md\nsrc/app.ts\n</modified-files>")).toBe(true);
    expect(compaction.details).toEqual({ readFiles: ["guide.md"], modifiedFiles: ["notes/plan.md", "src/app.ts"] });
    // The summarizer saw the tool calls it summarized (session-engine.md §9).
    const prompt = h.fake.requests.find(looksLikeSummarization)?.lastUserText ?? "";
    expect(prompt).toContain('[Assistant tool calls]: read(path="guide.md"); read(path="src/app.ts")');
    // (Argument order is the stored JSONB's, so each argument is checked on its own.)
    for (const part of ['edit(path="src/app.ts"', 'oldText="  return 1;"', 'newText="  return 2;"', 'write(path="notes/plan.md"']) {
      expect(prompt).toContain(part);
    }
  });
});

describe("pruning old tool output (session-engine.md §8, §13.1)", () => {
  const prunes = (chunks: Awaited<ReturnType<typeof readAll>>) => dataOf<{ prunedCount: number; tokensSaved: number }>(chunks, "prune");
  const sentToolTexts = () => h.fake.requests.at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

  it("prunes the oldest results, sends notices, keeps the original in pruned_original; undoPrune restores it and the pre-prompt check prunes again", async () => {
    const { getPrunedOriginals, undoPrune } = await import("@/lib/db");
    const s = await newSession();
    await mkdir(ws(s.id), { recursive: true });
    const line = (i: number) => `match ${String(i).padStart(5, "0")} ${"x".repeat(90)}`;
    await writeFile(ws(s.id, "big.log"), Array.from({ length: 3000 }, (_, i) => line(i)).join("\n"));
    // read is a protected tool (never pruned); six greps of ~50 KB each exceed the 40k protection.
    const greps = Array.from({ length: 6 }, () => ({ name: "grep", arguments: { pattern: "match", path: "big.log" } }));
    h.fake.script({ toolCalls: [{ name: "read", arguments: { path: "big.log" } }, ...greps] }, { text: "Searched." });
    const first = await readAll(await postChat(s.id, "search the log many times"));

    // The check after the run (session-engine.md §13.1) prunes the two oldest greps; read and the newest ~40k stay.
    const [prune] = prunes(first);
    expect(prune).toEqual({ prunedCount: 2, tokensSaved: expect.any(Number) });
    expect(prune!.tokensSaved).toBeGreaterThanOrEqual(20_000);
    const results = await toolResults(s.id);
    expect(results.map((r) => [r.toolName, r.isError, r.prunedAt !== undefined])).toEqual([
      ["read", false, false],
      ["grep", false, true],
      ["grep", false, true],
      ...greps.slice(2).map(() => ["grep", false, false]),
    ]);
    const prunedIds = [results[1]!.entryId, results[2]!.entryId];
    const notices = [text(results[1]!), text(results[2]!)];
    for (const n of notices) expect(n).toMatch(/^\[Output truncated - \d+ tokens\]$/);

    // The store kept the originals (entries.pruned_original).
    const originals = await getPrunedOriginals({ sessionId: s.id });
    expect([...originals.keys()]).toEqual(prunedIds);
    const original = originals.get(prunedIds[0]!) as ToolResultMessage["content"];
    expect(original[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^big\.log:1: match 00000 x+/) });
    expect(JSON.stringify(original).length).toBeGreaterThan(50_000);

    // The next turn's model request carries the notices instead of the old output.
    h.fake.script({ text: "Next step." });
    await readAll(await postChat(s.id, "what next?"));
    let sent = sentToolTexts();
    expect(sent.slice(1, 3)).toEqual(notices);
    expect(sent[0]).toBe(text(results[0]!));
    expect(sent[3]).toBe(text(results[3]!));

    // undoPrune restores the original content…
    await undoPrune({ sessionId: s.id, entryIds: prunedIds });
    const restored = await toolResults(s.id);
    expect(restored.map((r) => r.prunedAt)).toEqual(results.map(() => undefined));
    expect(restored[1]!.content).toEqual(original);
    expect((await getPrunedOriginals({ sessionId: s.id })).size).toBe(0);

    // …and the check before the next prompt prunes it again, before the model is called.
    h.fake.script({ text: "Again." });
    const third = await readAll(await postChat(s.id, "and now?"));
    expect(prunes(third)).toEqual([{ prunedCount: 2, tokensSaved: prune!.tokensSaved }]);
    const types = third.map((c) => c.type);
    expect(types.indexOf("data-prune")).toBeLessThan(types.indexOf("start-step"));
    sent = sentToolTexts();
    expect(sent.slice(1, 3)).toEqual(notices);
    expect((await getPrunedOriginals({ sessionId: s.id })).get(prunedIds[0]!)).toEqual(original);
  });
});

describe("escapes through the agent", () => {
  it("gives isError results with a clear message and reads nothing outside the workspace", async () => {
    const s = await newSession();
    await writeFile(path.join(h.workspaces, "secret.txt"), "SECRET-NEXT-TO-THE-WORKSPACE");
    h.fake.script(
      {
        toolCalls: [
          { name: "read", arguments: { path: "../../etc/passwd" } },
          { name: "read", arguments: { path: "../secret.txt" } },
          { name: "read", arguments: { path: "/etc/passwd" } },
          { name: "ls", arguments: { path: ".." } },
        ],
      },
      { text: "I cannot read those." },
    );
    await readAll(await postChat(s.id, "read the password file"));
    const results = await toolResults(s.id);
    expect(results.map((r) => [r.isError, text(r)])).toEqual([
      [true, 'Path "../../etc/passwd" is outside the workspace'],
      [true, 'Path "../secret.txt" is outside the workspace'],
      [true, 'Path "/etc/passwd" is absolute; use a path relative to the workspace'],
      [true, 'Path ".." is outside the workspace'],
    ]);
    const seen = JSON.stringify(h.fake.requests.map((r) => r.messages));
    expect(seen).not.toContain("SECRET-NEXT-TO-THE-WORKSPACE");
    expect(seen).not.toMatch(/root:.*:0:0:/);
  });
});

describe("the per-session Tools switch (settings panel → updateSessionSettings)", () => {
  const offered = (i: number) => (h.fake.requests[i]?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);

  it("offers only the enabled tools, refuses a disabled one, and offers none when all are off", async () => {
    const { updateSessionSettings } = await import("@/app/sessions/[id]/actions");
    const s = await newSession();
    expect(await updateSessionSettings({ sessionId: s.id, tools: { enabled: ["read", "ls"] } })).toMatchObject({ ok: true });
    h.fake.script({ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x" } }] }, { text: "Could not." });
    await readAll(await postChat(s.id, "write x"));
    expect(offered(0)).toEqual(["read", "ls"]);
    expect(h.fake.requests[0]!.system).not.toContain("write — ");
    const [refused] = await toolResults(s.id);
    expect([refused?.isError, text(refused!)]).toEqual([true, 'Tool "write" is not enabled for this session. Available tools: read, ls']);
    await expect(readFile(ws(s.id, "x.txt"))).rejects.toThrow(/ENOENT/);

    expect(await updateSessionSettings({ sessionId: s.id, tools: { enabled: [] } })).toMatchObject({ ok: true });
    await readAll(await postChat(s.id, "no tools now"));
    expect(offered(2)).toEqual([]);

    expect(await updateSessionSettings({ sessionId: s.id, tools: null })).toMatchObject({ ok: true });
    await readAll(await postChat(s.id, "all back"));
    expect(offered(3)).toEqual(["read", "write", "edit", "ls", "find", "grep"]);
    const last = (await storedPath(s.id)).at(-1) as MessageEntry;
    expect((last.message as AssistantMessage).stopReason).toBe("stop");
  });
});
