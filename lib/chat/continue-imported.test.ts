/** Chatting on, and compacting, an imported Claude Code or Codex session (docs/formats.md): Arbor entries under the leaf. */
import { describe, expect, it } from "vitest";
import { importSession } from "@/lib/db";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { useTestDatabase } from "@/test/db";
import { compactRun, postChat, readAll, storedEntries, storedPath, useHarness } from "@/test/chat-harness";

useTestDatabase();
useHarness();

async function* bytes(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

const files = {
  "claude-code": () => generateClaudeCodeSession({ seed: 21, turns: 6, compactions: 1, branches: 1 }).text,
  codex: () => generateCodexSession({ seed: 22, turns: 6, compactions: 1 }).text,
};

describe.each(Object.entries(files))("continuing an imported %s session", (format, make) => {
  it("appends the new turn in Arbor's own format under the leaf, and compacts it", async () => {
    const imported = await importSession({ source: bytes(make()), fileName: `${format}.jsonl` });
    const before = await storedPath(imported.sessionId);
    await readAll(await postChat(imported.sessionId, "Carry on from here, please."));
    const after = await storedPath(imported.sessionId);
    expect(after.slice(0, before.length).map((e) => e.id)).toEqual(before.map((e) => e.id));
    const added = after.slice(before.length);
    expect(added.map((e) => (e.type === "message" ? e.message.role : e.type))).toContain("assistant");
    expect(added[0]).toMatchObject({ type: "message", parentId: imported.leafId, message: { role: "user" } });
    for (const e of added) expect(e.id).toMatch(/^[0-9a-f]{8}$/);

    await readAll(await compactRun(imported.sessionId, {}));
    const compactions = (await storedEntries(imported.sessionId)).filter((e) => e.type === "compaction");
    expect(compactions.length).toBe(2);
  });
});
