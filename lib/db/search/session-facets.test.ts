/**
 * The session list's groups (session-facets.ts): live sessions counted per agent, project and
 * model; the list's rows name their agent and project; the filters narrow the list to a group.
 * Expected figures come from what the test imported (the formats, and the cwd each raw file names).
 */
import { describe, expect, it } from "vitest";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { createSession, importSession, listSessions, sessionFacets, softDeleteSession } from "..";

useTestDatabase();

/** The cwd a raw Claude Code or Codex file names (its first record that has one), read here on its own. */
function cwdOf(text: string): string {
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { cwd?: unknown; payload?: { cwd?: unknown } };
    if (typeof r.cwd === "string") return r.cwd;
    if (typeof r.payload?.cwd === "string") return r.payload.cwd;
  }
  return "";
}

const pi = async (seed: number, cwd: string) => {
  const g = generateSession({ seed, entries: 12, cwd });
  return (await importSession({ source: chunked(serializeSession(g.header, g.entries)), fileName: `pi-${seed}.jsonl` })).sessionId;
};

describe("the session list's groups", () => {
  it("counts live sessions per agent, project and model; rows name their agent and project; a filter lists its group", async () => {
    const alpha = [await pi(1, "/w/alpha"), await pi(2, "/w/alpha"), await pi(3, "/w/alpha")];
    const beta = await pi(4, "/w/beta");
    const claude = generateClaudeCodeSession({ seed: 5, turns: 3 });
    const claudeId = (await importSession({ source: chunked(claude.text), fileName: "claude.jsonl" })).sessionId;
    const codex = generateCodexSession({ seed: 6, turns: 2 });
    const codexId = (await importSession({ source: chunked(codex.text), fileName: "rollout.jsonl" })).sessionId;
    const made = (await createSession({})).id;
    await softDeleteSession({ id: alpha[2]! });

    const facets = await sessionFacets();
    expect(facets.total).toBe(6);
    const count = (list: { value: string; sessions: number }[]) => Object.fromEntries(list.map((f) => [f.value, f.sessions]));
    expect(count(facets.agents)).toEqual({ pi: 3, "claude-code": 1, codex: 1 });
    const projects = count(facets.projects);
    expect(projects["/w/alpha"]).toBe(2);
    expect(projects["/w/beta"]).toBe(1);
    const claudeCwd = cwdOf(claude.text);
    expect(claudeCwd).not.toBe("");
    expect(projects[claudeCwd]).toBe(claudeCwd === cwdOf(codex.text) ? 2 : 1);
    expect(facets.projects.reduce((n, f) => n + f.sessions, 0)).toBe(6);
    expect(facets.projects[0]!.sessions).toBeGreaterThanOrEqual(facets.projects.at(-1)!.sessions);

    const { sessions } = await listSessions();
    const byId = new Map(sessions.map((s) => [s.id, s]));
    expect(byId.get(alpha[0]!)).toMatchObject({ agent: "pi", project: "/w/alpha" });
    expect(byId.get(claudeId)).toMatchObject({ agent: "claude-code", project: claudeCwd });
    expect(byId.get(codexId)?.agent).toBe("codex");
    expect(byId.get(made)?.agent).toBeUndefined();
    // Each model's count is the number of listed sessions with that model.
    for (const m of facets.models) expect(sessions.filter((s) => s.model === m.value).length, m.value).toBe(m.sessions);

    const ids = async (filter: Parameters<typeof listSessions>[0]) => (await listSessions(filter)).sessions.map((s) => s.id).sort();
    expect(await ids({ filter: { project: "/w/alpha" } })).toEqual([alpha[0]!, alpha[1]!].sort());
    expect(await ids({ filter: { agent: "pi" } })).toEqual([alpha[0]!, alpha[1]!, beta].sort());
    expect(await ids({ filter: { agent: "pi", project: "/w/beta" } })).toEqual([beta]);
  });
});
