/**
 * Entries committed by chat turns are scanned like imported ones, and summary prompts never
 * carry a found secret to the model unless the session allows it
 * (docs/secrets.md; settings `secrets.sendToSummaries`): manual compaction and a branch summary,
 * over HTTP, against the fake model server, which records exactly what it received.
 */
import { describe, expect, it } from "vitest";
import { appendEntries, listSecretFindings } from "@/lib/db";
import type { SessionEntry } from "@/lib/session/types";
import { compactRun, MODEL_ID, navigate, newSession, postChat, readAll, useHarness } from "@/test/chat-harness";
import { useTestDatabase } from "@/test/db";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import { fakeSecrets } from "@/test/secret-fakes";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";

useTestDatabase();
const h = useHarness();

const fakes = fakeSecrets(51);
const escaped = (v: string) => JSON.stringify(v).slice(1, -1);
const llm = { provider: "openai-compatible", model: MODEL_ID, api: "openai-completions", usage: { input: 100, output: 100 } };

/** A conversation with every fake in user text, tool call arguments and tool output, then filler turns. */
async function sessionWithSecrets(settings: unknown): Promise<{ id: string; entries: SessionEntry[] }> {
  const s = await newSession(settings);
  const entries = fakes.flatMap((f, i) => [
    { type: "message" as const, message: userMsg(`step ${i}: ${f.text}`) },
    { type: "message" as const, message: assistantMsg("", { ...llm, toolCalls: [toolCall(`c${i}`, "bash", { command: `echo "${f.text}"` })] }) },
    { type: "message" as const, message: toolResultMsg(`c${i}`, `printed ${f.text}`, { toolName: "bash" }) },
    { type: "message" as const, message: assistantMsg(`done ${i} ${"lorem ipsum ".repeat(20)}`, llm) },
  ]);
  for (let i = 0; i < 3; i++) {
    entries.push({ type: "message", message: userMsg(`later ${i} ${"dolor sit ".repeat(40)}`) });
    entries.push({ type: "message", message: assistantMsg(`ok ${i} ${"dolor sit ".repeat(40)}`, llm) });
  }
  const r = await appendEntries({ sessionId: s.id, expectedLeafId: null, entries });
  return { id: s.id, entries: r.entries };
}

/** What the fake model received for summaries, as text. */
function summaryRequests(): string {
  const found = h.fake.requests.filter(looksLikeSummarization);
  expect(found.length).toBeGreaterThan(0);
  return JSON.stringify(found.map((r) => r.body));
}

describe("a chat turn's entries", () => {
  it("are scanned when the turn commits them: the user's message and the reply that repeats it", async () => {
    const s = await newSession();
    const github = fakes.find((f) => f.rule === "github/GITHUB_TOKEN")!;
    await readAll(await postChat(s.id, `deploy with ${github.text}`));
    const { findings } = await listSecretFindings({ sessionId: s.id });
    // The fake model echoes the prompt, so the assistant's reply holds the token as well.
    expect(findings.map((f) => [f.seq, f.field, f.rule])).toEqual([
      [0, "message text", github.rule],
      [1, "message text", github.rule],
    ]);
  });
});

describe("summary prompts and secrets", () => {
  it("compaction: masked by default, sent as they are when the session allows it", async () => {
    const keep = { compaction: { keepRecentTokens: 150 } };
    const masked = await sessionWithSecrets(keep);
    await readAll(await compactRun(masked.id));
    const sent = summaryRequests();
    for (const f of fakes) expect(sent, f.rule).not.toContain(escaped(f.value));
    expect(sent).toContain("ghp_********");

    h.fake.reset();
    const allowed = await sessionWithSecrets({ ...keep, secrets: { sendToSummaries: true } });
    await readAll(await compactRun(allowed.id));
    const original = summaryRequests();
    for (const f of fakes) expect(original, f.rule).toContain(escaped(f.value));
  });

  it("branch summary: masked by default", async () => {
    const { id, entries } = await sessionWithSecrets(undefined);
    const target = entries[0]!;
    await readAll(await navigate(id, { targetId: target.id, summarize: true }));
    const sent = summaryRequests();
    for (const f of fakes) expect(sent, f.rule).not.toContain(escaped(f.value));
  });
});
