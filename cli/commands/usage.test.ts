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
