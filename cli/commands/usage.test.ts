/** `usage` on the database's ledger: the same figures as on the files it was imported from. */
import { describe, expect, it } from "vitest";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeImportCommand } from "@/cli/commands/import";
import { makeUsageCommand } from "@/cli/commands/usage";
import { runCommand, tempDir } from "@/test/cli-helpers";
import { generateClaudeCodeSubagent } from "@/test/generators/claude-subagent";
import { generateSession } from "@/test/generators/session";
import { serializeSession } from "@/lib/session/file/jsonl";
import { useTestDatabase } from "@/test/db";

useTestDatabase();
const runtime = inProcessDbRuntime();
const t = tempDir();

describe("usage on the database", () => {
  it("prints the same daily and session reports as on the imported files, a copied file counted once", async () => {
    const a = generateSession({ seed: 41, entries: 120, branches: 2, compactions: true, startTime: "2025-03-01T10:00:00Z" });
    const b = generateSession({ seed: 42, entries: 80, startTime: "2025-03-02T22:30:00Z" });
    const sub = generateClaudeCodeSubagent({ seed: 9, sessionId: a.header.id, agentId: "feed01", prompt: "check", start: Date.UTC(2025, 2, 1, 11) });
    const files = [
      t.write("a.jsonl", serializeSession(a.header, a.entries)),
      t.write("b.jsonl", serializeSession(b.header, b.entries)),
      t.write("agent-feed01.jsonl", sub.text),
    ];
    expect((await runCommand(makeImportCommand(runtime), files)).code).toBe(0);
    // The subagent file once more, as a copy: its Claude responses are the same ones.
    expect((await runCommand(makeImportCommand(runtime), [files[2]!, "--as-copy"])).code).toBe(0);

    const usage = makeUsageCommand(runtime);
    for (const period of ["daily", "session"]) {
      const onFiles = await runCommand(usage, [period, ...files, "--json"]);
      const onDb = await runCommand(usage, [period, "--json"]);
      expect(onDb.code).toBe(0);
      const fromFiles = JSON.parse(onFiles.out) as { totals: { totalTokens: number; totalCost: number } };
      const fromDb = JSON.parse(onDb.out) as { totals: { totalTokens: number; totalCost: number } };
      expect(fromFiles.totals.totalTokens).toBeGreaterThan(0);
      expect(fromDb).toEqual(fromFiles);
    }
    const text = await runCommand(usage, ["daily", "--since", "2025-03-02"]);
    expect(text.out).not.toContain("2025-03-01");
    expect(text.out).toMatch(/^total {2}[\d,]+ tokens {2}\$\d+\.\d{2}/m);
  });
});

describe("usage branch", () => {
  it("gives each branch's cost and tokens, the abandoned ones called out, the same on files and on the database", async () => {
    const g = generateSession({ seed: 57, entries: 160, branches: 3, compactions: true, startTime: "2025-04-01T10:00:00Z" });
    const file = t.write("branchy.jsonl", serializeSession(g.header, g.entries));
    // Independently: tokens and recorded cost of the entries off the path root → last entry.
    type Loose = Record<string, unknown>;
    const entries = g.entries as unknown as Loose[];
    const parent = new Map(entries.map((e) => [e.id as string, e.parentId as string | null]));
    const path = new Set<string>();
    for (let at: string | null | undefined = entries.at(-1)!.id as string; at; at = parent.get(at)) path.add(at);
    let total = 0;
    let off = 0;
    let offCost = 0;
    for (const e of entries) {
      const m = e.message as Loose | undefined;
      const u = (e.type === "message" && m?.role === "assistant" ? m.usage : e.usage) as Record<string, number> | undefined;
      if (!u) continue;
      const tokens = (u.input ?? 0) + (u.output ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
      total += tokens;
      if (!path.has(e.id as string)) {
        off += tokens;
        offCost += Math.round(((u.cost as unknown as Record<string, number> | undefined)?.total ?? 0) * 1e6);
      }
    }
    expect(off).toBeGreaterThan(0);

    const usage = makeUsageCommand(runtime);
    const onFile = await runCommand(usage, ["branch", file, "--json"]);
    expect(onFile.code).toBe(0);
    type Report = { sessions: { totalTokens: number; abandoned: { branches: number; tokens: number; cost: number }; branches: { onCurrentPath: boolean }[] }[] };
    const fromFile = (JSON.parse(onFile.out) as Report).sessions;
    expect(fromFile).toHaveLength(1);
    expect(fromFile[0]!.totalTokens).toBe(total);
    expect(fromFile[0]!.abandoned.tokens).toBe(off);
    expect(Math.round(fromFile[0]!.abandoned.cost * 1e6)).toBe(offCost);
    expect(fromFile[0]!.abandoned.branches).toBe(fromFile[0]!.branches.filter((b) => !b.onCurrentPath).length);

    expect((await runCommand(makeImportCommand(runtime), [file])).code).toBe(0);
    const onDb = await runCommand(usage, ["branch", "--json"]);
    const fromDb = (JSON.parse(onDb.out) as Report).sessions.find((s) => s.totalTokens === total);
    expect(fromDb).toEqual(fromFile[0]);
    const text = await runCommand(usage, ["branch", file]);
    expect(text.out).toMatch(/abandoned: \d+ branch(es)?, [\d,]+ tokens, \$/);
    expect(text.out).toContain("ABANDONED");
  });
});
