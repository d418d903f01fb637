/** The session list's filters (agent, project, model, last activity), plain and with search words, over pages. */
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateSessionJsonl } from "@/test/generators/session";
import { userMsg } from "@/test/session-factories";
import { getDb } from "../client";
import { appendEntries, createSession, importSession, listSessions, type SessionFilter } from "..";

useTestDatabase();

const ids = { pi: [] as string[], claude: "", app: "" };

async function every(filter: SessionFilter, query?: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await listSessions({ filter, limit: 2, cursor, ...(query ? { query } : {}) });
    seen.push(...page.sessions.map((s) => s.id));
    cursor = page.nextCursor;
  } while (cursor);
  return seen.sort();
}

const day = (d: number) => new Date(Date.UTC(2026, 0, d));

beforeAll(async () => {
  for (let i = 0; i < 5; i++) {
    const text = generateSessionJsonl({ seed: 40 + i, entries: 30, cwd: i < 3 ? "/work/alpha" : "/work/beta" });
    ids.pi.push((await importSession({ source: chunked(text), fileName: `pi-${i}.jsonl` })).sessionId);
  }
  const claude = generateClaudeCodeSession({ seed: 41, turns: 3 });
  ids.claude = (await importSession({ source: chunked(claude.text), fileName: "claude.jsonl" })).sessionId;
  ids.app = (await createSession()).id;
  await appendEntries({ sessionId: ids.app, expectedLeafId: null, entries: [{ type: "message", message: userMsg("a session typed in Arbor") }] });
  // Known models and activity days, set here so the expectations do not depend on the generators.
  const all = [...ids.pi, ids.claude, ids.app];
  for (const [i, id] of all.entries()) {
    await getDb().$executeRaw`UPDATE sessions SET model = ${i % 2 === 0 ? "anthropic/claude-x" : "openai/gpt-y"}, last_activity_at = ${day(i + 1)} WHERE id = ${id}`;
  }
});

describe("session list filters", () => {
  it("lists only the sessions of one agent, by the format of the file they came from", async () => {
    expect(await every({ agent: "pi" })).toEqual([...ids.pi].sort());
    expect(await every({ agent: "claude-code" })).toEqual([ids.claude]);
    expect(await every({ agent: "codex" })).toEqual([]);
  });

  it("lists only one project's sessions (their cwd), and combines filters", async () => {
    expect(await every({ project: "/work/alpha" })).toEqual(ids.pi.slice(0, 3).sort());
    expect(await every({ project: "/work/beta", agent: "pi" })).toEqual(ids.pi.slice(3).sort());
  });

  it("lists one model's sessions, and a range of last activity (from inclusive, before exclusive)", async () => {
    const all = [...ids.pi, ids.claude, ids.app];
    expect(await every({ model: "openai/gpt-y" })).toEqual(all.filter((_, i) => i % 2 === 1).sort());
    expect(await every({ activeFrom: day(2), activeBefore: day(4) })).toEqual([all[1]!, all[2]!].sort());
  });

  it("applies the same filters to a search", async () => {
    expect(await every({ agent: "pi" }, "arbor")).toEqual([]);
    expect(await every({}, "typed arbor")).toEqual([ids.app]);
    // The app's session is the seventh: an even index, so "anthropic/claude-x".
    expect(await every({ model: "anthropic/claude-x" }, "typed arbor")).toEqual([ids.app]);
    expect(await every({ model: "openai/gpt-y" }, "typed arbor")).toEqual([]);
  });
});
