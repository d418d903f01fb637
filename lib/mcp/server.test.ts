/**
 * Arbor's MCP server through the SDK's own client, in-process (InMemoryTransport), on a real
 * database: every tool on generated sessions (content, paging, byte caps), the refusals, the
 * session resource, the recall prompt, and masking of secrets.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArborMcpServer } from "@/lib/mcp/server";
import type { SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { callJson, callText, type McpSessions, PLANTED_DROPPED, seedMcpSessions } from "@/test/mcp-sessions";

useTestDatabase();
let s: McpSessions;
const client = new Client({ name: "arbor-test", version: "1.0.0" });

beforeAll(async () => {
  s = await seedMcpSessions();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createArborMcpServer().connect(a);
  await client.connect(b);
});
afterAll(() => client.close());

/** The root → last-entry path, walked here from the raw entries (pi: the leaf is the last entry). */
function leafPath(entries: readonly SessionEntry[]): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: SessionEntry[] = [];
  for (let e: SessionEntry | undefined = entries.at(-1); e; e = e.parentId ? byId.get(e.parentId) : undefined) out.unshift(e);
  return out;
}

interface Paged<T> {
  items: T[];
  truncated: boolean;
  next: number | null;
  total: number;
}

describe("tools", () => {
  it("lists the seven read-only tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["compaction_dropped", "files_touched", "list_compactions", "read_session", "search_sessions", "session_context", "usage"]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("search_sessions finds a session by a word, names the entry, and applies the filters", async () => {
    const r = await callJson<{ hits: { session: string; entry?: string; snippet?: string }[] }>(client, "search_sessions", { query: "zebrafish" });
    expect(r.hits).toHaveLength(1);
    expect(r.hits[0]).toMatchObject({ session: "mcp-compacted", entry: "u2" });
    expect(r.hits[0]!.snippet).toContain("zebrafish");
    const count = async (args: Record<string, unknown>) => (await callJson<{ hits: unknown[] }>(client, "search_sessions", { query: "zebrafish", ...args })).hits.length;
    expect(await count({ project: "retry-app" })).toBe(1);
    expect(await count({ project: "gen-project" })).toBe(0);
    expect(await count({ agent: "pi" })).toBe(1);
    expect(await count({ agent: "codex" })).toBe(0);
    expect(await count({ after: "2099-01-01" })).toBe(0);
    expect(await count({ model: "no-such-model" })).toBe(0);
  });

  it("search_sessions inside one session lists every matching entry", async () => {
    const r = await callJson<Paged<{ entry: string; snippet: string }>>(client, "search_sessions", { query: "suite", session: "mcp-compacted" });
    expect(r.items.map((h) => h.entry)).toEqual(["a3", "a5"]);
    expect(r.items[0]!.snippet).toContain("Next: run the full suite.");
  });

  it("refuses a regex, an unknown session and a bad cursor, saying what is wrong", async () => {
    await expect(callJson(client, "search_sessions", { query: "retr.*y" })).rejects.toThrow(/plain words, not a regular expression/);
    await expect(callJson(client, "read_session", { session: "nope" })).rejects.toThrow('unknown session "nope"');
    await expect(callJson(client, "search_sessions", { query: "x", cursor: "garbage" })).rejects.toThrow(/cursor "garbage"/);
  });

  it("read_session pages the leaf's branch in order, each answer within its byte cap", async () => {
    const path = leafPath(s.generated.entries);
    const seen: string[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const { text } = await callText(client, "read_session", { session: s.generated.id, offset, maxBytes: 4000 });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4000);
      const r = JSON.parse(text) as Paged<{ id: string; text: string }>;
      expect(r.truncated).toBe(r.next !== null);
      seen.push(...r.items.map((e) => e.id));
      offset = r.next;
      pages++;
    }
    expect(pages).toBeGreaterThan(2);
    expect(seen).toEqual(path.map((e) => e.id));
  });

  it("read_session windows by turn and by entry, and refuses windows past the end", async () => {
    const path = leafPath(s.generated.entries);
    const users = path.filter((e) => e.type === "message" && e.message.role === "user");
    const byTurn = await callJson<Paged<{ id: string }>>(client, "read_session", { session: s.generated.id, turn: 2, limit: 3 });
    expect(byTurn.items.map((e) => e.id)).toEqual(path.slice(path.indexOf(users[1]!), path.indexOf(users[1]!) + 3).map((e) => e.id));
    const byEntry = await callJson<Paged<{ id: string; text: string }>>(client, "read_session", { session: "mcp-compacted", fromEntry: "u2", limit: 1 });
    expect(byEntry.items[0]).toMatchObject({ id: "u2" });
    expect(byEntry.items[0]!.text).toContain("Carry on with zebrafish checks.");
    await expect(callJson(client, "read_session", { session: s.generated.id, offset: path.length + 5 })).rejects.toThrow(`offset ${path.length + 5} is past the end: there are ${path.length} entries`);
    await expect(callJson(client, "read_session", { session: s.generated.id, turn: users.length + 1 })).rejects.toThrow(/turn \d+ is past the end/);
    await expect(callJson(client, "read_session", { session: s.generated.id, limit: 100_000 })).rejects.toThrow(/limit/);
  });

  it("search_sessions pages its hits by cursor within the byte cap, each session once", async () => {
    const all = await callJson<{ hits: { session: string }[]; next: string | null }>(client, "search_sessions", { query: "the", maxBytes: 200_000 });
    expect(all.hits.length).toBeGreaterThan(1);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const { text } = await callText(client, "search_sessions", { query: "the", maxBytes: 1000, ...(cursor ? { cursor } : {}) });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
      const r = JSON.parse(text) as { hits: { session: string }[]; next: string | null; truncated: boolean };
      expect(r.truncated).toBe(r.next !== null);
      seen.push(...r.hits.map((h) => h.session));
      cursor = r.next;
    } while (cursor);
    expect(seen).toEqual(all.hits.map((h) => h.session));
  });

  it("an entry larger than the cap comes alone, its text clipped and marked", async () => {
    const big = s.generated.entries.find((e) => Buffer.byteLength(JSON.stringify(e)) > 3000);
    expect(big, "the generated session has an entry over 3 kB").toBeDefined();
    const { text } = await callText(client, "read_session", { session: s.generated.id, leaf: big!.id, fromEntry: big!.id, maxBytes: 1000 });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    const r = JSON.parse(text) as Paged<{ id: string; text: string; clipped?: boolean }>;
    expect(r.items).toHaveLength(1);
    expect(r.items[0]).toMatchObject({ id: big!.id, clipped: true });
    expect(r.items[0]!.text).toMatch(/… \[clipped: \d+ more characters\]$/);
  });

  it("session_context shows what the turn's model saw: the compaction summary and the kept messages", async () => {
    const r = await callJson<Paged<{ role: string; text: string }> & { compaction: { entryId: string } }>(client, "session_context", { session: "mcp-compacted", entry: "a5" });
    expect(r.compaction).toMatchObject({ entryId: "k1", firstKeptEntryId: "u2" });
    const all = r.items.map((m) => m.text).join("\n");
    expect(all).toContain("We read lib/agent/turn.ts");
    expect(all).toContain("zebrafish");
    expect(all).not.toContain("Reading it.");
    await expect(callJson(client, "session_context", { session: "mcp-compacted", entry: "u3" })).rejects.toThrow(/not an assistant message/);
  });

  it("session_context pages through a long turn's whole context, past the inspector's window", async () => {
    // The last assistant entry of a long compaction-free branch: its context is the branch before it.
    const path = leafPath(s.long.entries);
    const lastAssistant = path.findLast((e) => e.type === "message" && e.message.role === "assistant")!;
    const indices: number[] = [];
    let offset: number | null = 0;
    let total = 0;
    while (offset !== null) {
      const { text } = await callText(client, "session_context", { session: s.long.id, entry: lastAssistant.id, offset, maxBytes: 200_000 });
      const r = JSON.parse(text) as Paged<{ index: number }> & { messageCount: number };
      indices.push(...r.items.map((m) => m.index));
      total = r.messageCount;
      offset = r.next;
    }
    expect(total).toBeGreaterThan(400);
    expect(indices).toEqual(Array.from({ length: total }, (_, i) => i));
  });

  it("list_compactions lists every compaction of the session", async () => {
    const ids = s.generated.entries.filter((e) => e.type === "compaction").map((e) => e.id);
    expect(ids.length).toBeGreaterThan(0);
    const r = await callJson<Paged<{ id: string }>>(client, "list_compactions", { session: s.generated.id, maxBytes: 200_000 });
    expect(r.items.map((c) => c.id)).toEqual(ids);
  });

  it("compaction_dropped returns exactly the facts the summary left out, with their entries", async () => {
    const r = await callJson<Paged<{ kind: string; text: string; entry: string }> & { compaction: string; summary: string }>(client, "compaction_dropped", { session: "mcp-compacted" });
    expect(r.compaction).toBe("k1");
    expect(r.summary).toContain("Please fix the retry loop");
    const key = (f: { kind: string; text: string; entry: string }) => `${f.kind}|${f.text}|${f.entry}`;
    expect(r.items.map(key).sort()).toEqual(PLANTED_DROPPED.map(key).sort());
    await expect(callJson(client, "compaction_dropped", { session: "mcp-compacted", compaction: "u1" })).rejects.toThrow('entry "u1" is a message entry, not a compaction');
  });

  it("files_touched names the sessions and turns that read or modified a path", async () => {
    const r = await callJson<{ touches: { session: string; entry: string; op: string }[] }>(client, "files_touched", { path: "lib/agent/turn.ts" });
    expect(r.touches).toEqual([expect.objectContaining({ session: "mcp-compacted", entry: "a1", op: "read" })]);
    // A path the generated session's tool calls touched, found here from the raw entries.
    const calls = s.generated.entries.flatMap((e) =>
      e.type === "message" && e.message.role === "assistant" ? e.message.content.flatMap((b) => (b.type === "toolCall" && ["read", "write", "edit"].includes(b.name) && typeof b.arguments.path === "string" ? [{ entry: e.id, path: b.arguments.path as string }] : [])) : [],
    );
    // The path touched most often, so that small caps need several pages.
    const counts = new Map<string, number>();
    for (const c of calls) counts.set(c.path, (counts.get(c.path) ?? 0) + 1);
    const target = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const expected = [...new Set(calls.filter((c) => c.path === target).map((c) => c.entry))];
    const g = await callJson<{ touches: { session: string; entry: string }[] }>(client, "files_touched", { path: target, session: s.generated.id, maxBytes: 200_000 });
    expect([...new Set(g.touches.map((t) => t.entry))]).toEqual(expected);
    // Small caps: the cursor resumes inside the session, and the pages add up to the whole answer.
    const paged: { entry: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      pages++;
      const { text } = await callText(client, "files_touched", { path: target, session: s.generated.id, maxBytes: 1000, ...(cursor ? { cursor } : {}) });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
      const r = JSON.parse(text) as { touches: { entry: string }[]; next: string | null };
      paged.push(...r.touches);
      cursor = r.next;
    } while (cursor);
    expect(pages).toBeGreaterThan(1);
    expect(paged).toEqual(g.touches);
  });
});

describe("resource, prompt and secrets", () => {
  it("arbor://session/<id> holds the current branch as text; an unknown id is an error", async () => {
    const r = await client.readResource({ uri: "arbor://session/mcp-compacted" });
    const text = (r.contents[0] as { text: string }).text;
    expect(text).toContain("zebrafish");
    expect(text).toContain("Running the suite.");
    await expect(client.readResource({ uri: "arbor://session/nope" })).rejects.toThrow(/unknown session "nope"/);
  });

  it("the recall prompt lists what the last compaction dropped, with the entries", async () => {
    const r = await client.getPrompt({ name: "recall_compaction", arguments: { session: "mcp-compacted" } });
    const text = (r.messages[0]!.content as { text: string }).text;
    for (const f of PLANTED_DROPPED) expect(text).toContain(`${f.text} [entry ${f.entry}]`);
  });

  it("answers mask the credentials a session holds", async () => {
    const { text } = await callText(client, "read_session", { session: "mcp-secret", maxBytes: 200_000, limit: 500 });
    const r = await callText(client, "search_sessions", { query: "deploy", session: "mcp-secret", maxBytes: 200_000 });
    const resource = JSON.stringify(await client.readResource({ uri: "arbor://session/mcp-secret" }));
    expect(text).toContain("deploy");
    for (const f of s.secret.expected) {
      expect(text).not.toContain(f.value);
      expect(r.text).not.toContain(f.value);
      expect(resource).not.toContain(f.value);
    }
  });
});
