/**
 * Secrets found in sessions are stored exactly (docs/secrets.md): on import, on every commit
 * (chat turns, appends), on fork; kept by prune / undo, soft delete / restore; never the value.
 */
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { fakeSecrets } from "@/test/secret-fakes";
import { secretSession, secretSessionJsonl } from "@/test/secret-session";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";
import type { ToolResultMessage } from "@/lib/session/types";
import { getDb } from "../client";
import {
  appendEntries,
  applyPrune,
  ConflictError,
  createSession,
  forkSession,
  importSession,
  listSecretFindings,
  listSessions,
  restoreSession,
  softDeleteSession,
  undoPrune,
} from "..";

useTestDatabase();

async function importSecretSession(seed: number) {
  const s = secretSession(seed, `secrets-${seed}-${Date.now()}`);
  const r = await importSession({ source: chunked(secretSessionJsonl(s), 4096), fileName: "fake-secrets.jsonl" });
  return { s, sessionId: r.sessionId };
}

/** Every stored column of a session's findings, as text: the values must be in none of them. */
async function storedText(sessionId: string): Promise<string> {
  const rows = await getDb().$queryRaw<unknown[]>`SELECT * FROM secret_findings WHERE session_id = ${sessionId}`;
  return JSON.stringify(rows);
}

describe("secrets found on import", () => {
  it("finds every planted fake with its entry, field and kind, stores masks only, and counts them in the list", async () => {
    const { s, sessionId } = await importSecretSession(21);
    const { count, findings } = await listSecretFindings({ sessionId });
    expect(count).toBe(s.expected.length);
    expect(findings.map((f) => ({ entryId: f.entryId, field: f.field, rule: f.rule }))).toEqual(
      s.expected.map((p) => ({ entryId: p.entryId, field: p.field, rule: p.rule })),
    );
    const seqOf = new Map(s.entries.map((e, i) => [e.id, i]));
    for (const f of findings) expect(f.seq).toBe(seqOf.get(f.entryId));
    const stored = await storedText(sessionId);
    for (const p of s.expected) expect(stored, p.rule).not.toContain(p.value);
    expect(findings.every((f) => f.masked.includes("********"))).toBe(true);

    const page = await listSessions({ limit: 200 });
    expect(page.sessions.find((x) => x.id === sessionId)?.secrets).toBe(s.expected.length);
  });

  it("reports none for a session without secrets", async () => {
    const { id } = await createSession({ title: "clean" });
    await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("deploy with the usual key, see https://example.com/docs") }] });
    expect(await listSecretFindings({ sessionId: id })).toEqual({ count: 0, findings: [] });
    const page = await listSessions({ limit: 200 });
    expect(page.sessions.find((x) => x.id === id)).not.toHaveProperty("secrets");
  });
});

describe("secrets found on commit", () => {
  it("scans committed entries (text, tool arguments, tool output) with the seq the commit gives them", async () => {
    const [a, b, c] = fakeSecrets(22).filter((f) => f.rule.startsWith("github") || f.rule.startsWith("slack/SLACK") || f.rule.startsWith("anthropic"));
    const { id } = await createSession({ title: "chat" });
    const first = await appendEntries({ sessionId: id, expectedLeafId: null, entries: [{ type: "message", message: userMsg("hello") }] });
    const turn = await appendEntries({
      sessionId: id,
      expectedLeafId: first.leafId,
      entries: [
        { type: "message", message: userMsg(`use ${a!.text}`) },
        { type: "message", message: assistantMsg("", { toolCalls: [toolCall("t1", "bash", { command: `curl -H 'Authorization: ${b!.text}'` })] }) },
        { type: "message", message: toolResultMsg("t1", `token=${c!.text}`) },
      ],
    });
    const { findings } = await listSecretFindings({ sessionId: id });
    expect(findings.map((f) => [f.entryId, f.seq, f.field, f.rule])).toEqual([
      [turn.entries[0]!.id, 1, "message text", a!.rule],
      [turn.entries[1]!.id, 2, "tool call arguments", b!.rule],
      [turn.entries[2]!.id, 3, "tool output", c!.rule],
    ]);

    // A refused commit (the leaf moved) writes no finding.
    await expect(
      appendEntries({ sessionId: id, expectedLeafId: first.leafId, entries: [{ type: "message", message: userMsg(`again ${a!.text}`) }] }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect((await listSecretFindings({ sessionId: id })).count).toBe(3);
  });
});

describe("findings follow the store's rewrites", () => {
  it("prune and undo keep them (the original stays for undo); soft delete and restore keep them", async () => {
    const { s, sessionId } = await importSecretSession(23);
    const output = s.entries.find((e) => e.type === "message" && (e.message as { role: string }).role === "toolResult" && s.expected.some((p) => p.entryId === e.id))!;
    const message = (output as { message: ToolResultMessage }).message;
    await applyPrune({ sessionId, pruned: [{ entryId: output.id, message: { ...message, content: [{ type: "text", text: "[pruned]" }], prunedAt: 1 } }] });
    expect((await listSecretFindings({ sessionId })).count).toBe(s.expected.length);
    await undoPrune({ sessionId, entryIds: [output.id] });
    expect((await listSecretFindings({ sessionId })).count).toBe(s.expected.length);

    await softDeleteSession({ id: sessionId });
    expect((await listSessions({ limit: 200 })).sessions.some((x) => x.id === sessionId)).toBe(false);
    expect((await listSessions({ limit: 200, includeDeleted: true })).sessions.find((x) => x.id === sessionId)?.secrets).toBe(s.expected.length);
    await restoreSession({ id: sessionId });
    expect((await listSecretFindings({ sessionId })).count).toBe(s.expected.length);
  });

  it("a fork holds the findings of the entries on its path, and a pruned output's secret stays with the source", async () => {
    const { s, sessionId } = await importSecretSession(24);
    const cut = s.entries[Math.floor(s.entries.length / 2)]!;
    const onPath = new Set(s.entries.slice(0, s.entries.indexOf(cut) + 1).map((e) => e.id));
    const fork = await forkSession({ sessionId, leafId: cut.id });
    const { findings } = await listSecretFindings({ sessionId: fork.sessionId });
    expect(findings.map((f) => [f.entryId, f.rule])).toEqual(s.expected.filter((p) => onPath.has(p.entryId)).map((p) => [p.entryId, p.rule]));

    // Pruned in the source, then forked: the fork has the notice, not the original, so no finding there.
    const output = s.entries.find((e) => onPath.has(e.id) && e.type === "message" && (e.message as { role: string }).role === "toolResult" && s.expected.some((p) => p.entryId === e.id))!;
    const message = (output as { message: ToolResultMessage }).message;
    await applyPrune({ sessionId, pruned: [{ entryId: output.id, message: { ...message, content: [{ type: "text", text: "[pruned]" }], prunedAt: 1 } }] });
    const again = await forkSession({ sessionId, leafId: cut.id });
    const forked = await listSecretFindings({ sessionId: again.sessionId });
    expect(forked.count).toBe(findings.length - s.expected.filter((p) => p.entryId === output.id).length);
  });
});
