/** The home page's session list: order, keyset paging, full-text search, rename, trash. */
import { beforeAll, describe, expect, it } from "vitest";
import { assistantMsg, toolResultMsg, userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import {
  appendEntries,
  createSession,
  getSessionMeta,
  listSessions,
  renameSession,
  restoreSession,
  softDeleteSession,
} from "..";
import { toPrefixTsQuery } from "./session-list";

useTestDatabase();

async function allPages(input: { query?: string; limit: number; includeDeleted?: boolean }) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await listSessions({ ...input, cursor });
    seen.push(...page.sessions.map((s) => s.id));
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor && pages < 100);
  return { seen, pages };
}

async function setActivity(id: string, at: Date): Promise<void> {
  await getDb().$executeRaw`UPDATE sessions SET last_activity_at = ${at} WHERE id = ${id}`;
}

let quokka = "";
let plain: string[] = [];

beforeAll(async () => {
  // 120 sessions; 40 share one activity time, so paging must break ties by id.
  const base = Date.UTC(2025, 5, 1);
  const made = await Promise.all(Array.from({ length: 120 }, (_, i) => createSession({ title: `Session number ${i}` })));
  plain = made.map((s) => s.id);
  await Promise.all(made.map((s, i) => setActivity(s.id, new Date(i < 40 ? base : base + i * 60_000))));

  const q = await createSession({ title: "Marsupials" });
  quokka = q.id;
  await appendEntries({
    sessionId: quokka,
    expectedLeafId: null,
    entries: [
      { type: "message", message: userMsg("Tell me about the quokka of Rottnest island") },
      { type: "message", message: assistantMsg("The quokka is a small wallaby.") },
      { type: "message", message: toolResultMsg("c1", "grep output: zanzibarite found in notes.txt") },
    ],
  });
});

describe("listSessions", () => {
  it("lists newest activity first with title, entry count and model", async () => {
    const page = await listSessions({ limit: 3 });
    expect(page.sessions[0]).toMatchObject({ id: quokka, title: "Marsupials", entryCount: 3, model: "anthropic/claude-sonnet-4-5", deletedAt: null });
    const times = page.sessions.map((s) => s.lastActivityAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("returns every session exactly once over pages, ties included", async () => {
    const { seen, pages } = await allPages({ limit: 17 });
    expect(seen).toHaveLength(121);
    expect(new Set(seen).size).toBe(121);
    expect(new Set(seen)).toEqual(new Set([...plain, quokka]));
    expect(pages).toBe(Math.ceil(121 / 17));
    const page = await listSessions({ limit: 200 });
    expect(page.sessions.map((s) => s.id)).toEqual(seen);
    expect(page.nextCursor).toBeNull();
  });

  it("starts from the top for a cursor that is not one of ours", async () => {
    const page = await listSessions({ limit: 2, cursor: "garbage!" });
    expect(page.sessions[0]!.id).toBe(quokka);
  });
});

describe("full-text search", () => {
  it("finds a word that only one session's message text contains, with a snippet", async () => {
    const page = await listSessions({ query: "Rottnest" });
    expect(page.sessions.map((s) => s.id)).toEqual([quokka]);
    expect(page.sessions[0]!.match!.snippet).toMatch(/Rottnest/);
    const entries = await getDb().$queryRaw<{ id: string }[]>`SELECT id FROM entries WHERE session_id = ${quokka} ORDER BY seq`;
    expect(page.sessions[0]!.match!.entryId).toBe(entries[0]!.id);
  });

  it("matches word prefixes, requires all words (in one entry), and searches titles and tool output", async () => {
    expect((await listSessions({ query: "zanzib" })).sessions.map((s) => s.id)).toEqual([quokka]);
    expect((await listSessions({ query: "quokka wallaby" })).sessions.map((s) => s.id)).toEqual([quokka]);
    expect((await listSessions({ query: "quokka nonexistentword" })).sessions).toEqual([]);
    const byTitle = await listSessions({ query: "marsup" });
    expect(byTitle.sessions.map((s) => s.id)).toEqual([quokka]);
    const numbered = await allPages({ query: "session number", limit: 50 });
    expect(numbered.seen).toHaveLength(120);
  });

  it("treats operators and quotes in the search box as plain text", async () => {
    for (const q of ["quokka & | ! <-> :*", "'quokka'", "(quokka", "\\quokka"]) {
      expect((await listSessions({ query: q })).sessions.map((s) => s.id)).toEqual([quokka]);
    }
    expect(toPrefixTsQuery("Fix: the BUILD, fix it!")).toBe("fix:* & the:* & build:* & it:*");
    expect(toPrefixTsQuery("  ?! ")).toBeNull();
    expect((await listSessions({ query: "?!", limit: 200 })).sessions).toHaveLength(121);
  });
});

describe("rename and trash", () => {
  it("renames (title and header), and an empty name clears the title", async () => {
    const s = await createSession({ title: "Old name" });
    const renamed = await renameSession({ id: s.id, title: "Platypus research" });
    expect(renamed.title).toBe("Platypus research");
    expect(renamed.header.title).toBe("Platypus research");
    expect((await listSessions({ query: "platypus" })).sessions.map((x) => x.id)).toEqual([s.id]);
    const cleared = await renameSession({ id: s.id, title: "   " });
    expect(cleared.title).toBeNull();
    expect(cleared.header).not.toHaveProperty("title");
    await expect(renameSession({ id: "missing", title: "x" })).rejects.toThrow("Session missing not found");
  });

  it("hides a deleted session from the list and search, and restore brings it back", async () => {
    const s = await createSession({ title: "Wombat burrows" });
    await softDeleteSession({ id: s.id });
    expect((await getSessionMeta({ id: s.id })).deletedAt).toEqual(expect.any(String));
    expect((await listSessions({ query: "wombat" })).sessions).toEqual([]);
    expect((await allPages({ limit: 100 })).seen).not.toContain(s.id);
    const withDeleted = await listSessions({ query: "wombat", includeDeleted: true });
    expect(withDeleted.sessions[0]).toMatchObject({ id: s.id, deletedAt: expect.any(String) });

    const restored = await restoreSession({ id: s.id });
    expect(restored.deletedAt).toBeNull();
    expect((await listSessions({ query: "wombat" })).sessions.map((x) => x.id)).toEqual([s.id]);
  });
});
