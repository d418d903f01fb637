/**
 * Storage of recorded calls grows with the session, not with its square: a synthetic 500-turn
 * session (a tool step every fifth turn, a compaction at turn 250 that resets the list, a prune
 * at turn 400 that rewrites an old message) where every chat call sends the whole history.
 * Prints the figures, with the naive "full list per call" numbers for comparison.
 */
import { describe, expect, it } from "vitest";
import type { AgentModelInfo, ModelCallRecord } from "@/lib/agent/ports";
import { prepareCompaction } from "@/lib/compaction/prepare";
import { settings, TEST_PROMPTS } from "@/test/compaction-helpers";
import { addressContent, contentHash } from "@/lib/content-address";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { assistantMsg, toolCall, toolResultMsg, userMsg } from "@/test/session-factories";
import type { AssistantMessage, LlmMessage, SessionEntry, ToolResultMessage } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { getDb } from "../client";
import { getModelCall } from "@/lib/inspector/calls";
import { recordModelCall } from "./model-calls";
import { MAX_CHAIN_DEPTH, readHashList } from "./lists";
import { createSession } from "..";

useTestDatabase();

const TURNS = 500;
const MODEL: AgentModelInfo = { provider: "fake", id: "m", ref: "fake/m", contextWindow: 1_000_000, maxOutputTokens: 8192, reasoning: false };
const TOOLS = [{ name: "bash", description: "Run a command", inputSchema: { type: "object" } }];
const SYSTEM = "You are a coding agent. ".repeat(40);

const sentence = (t: number, what: string, n: number) => `${what} ${t}: ${"lorem ipsum dolor sit amet ".repeat(n)}`;

async function count(sql: string): Promise<number> {
  const rows = await getDb().$queryRawUnsafe<{ n: bigint | number }[]>(sql);
  return Number(rows[0]!.n);
}

describe("recorded-call storage for a 500-turn session", () => {
  it("holds one row per distinct content and grows linearly", { timeout: 240_000 }, async () => {
    const { id: sessionId } = await createSession({});
    const path: SessionEntry[] = [];
    let clock = Date.UTC(2026, 0, 1);
    const tick = () => (clock += 1000);
    const add = (entry: Record<string, unknown>) => {
      const e = { id: `e${path.length}`, parentId: path.at(-1)?.id ?? null, timestamp: new Date(tick()).toISOString(), ...entry } as SessionEntry;
      path.push(e);
      return e;
    };
    const expected = new Map<string, string[]>();
    const distinct = new Set<string>();
    const messageBytes = new Map<string, number>();
    let naiveRows = 0;
    let naiveBytes = 0;
    let chatCalls = 0;
    const joinAt = new Map<number, number>();

    const record = async (kind: ModelCallRecord["kind"], messages: LlmMessage[], answer?: AssistantMessage, text?: string) => {
      const hashes = messages.map((m) => {
        const a = addressContent(m);
        messageBytes.set(a.hash, a.bytes);
        return a.hash;
      });
      for (const h of hashes) distinct.add(h);
      if (answer) distinct.add(contentHash(answer));
      naiveRows += hashes.length;
      for (const h of hashes) naiveBytes += messageBytes.get(h)!;
      const call: ModelCallRecord = {
        kind,
        model: MODEL,
        request: kind === "chat" ? { system: SYSTEM, messages, tools: TOOLS, maxOutputTokens: 8192 } : { system: "SUMMARIZE", messages, maxOutputTokens: 4096 },
        response: answer ? { message: answer, usage: answer.usage, stopReason: answer.stopReason } : { text: text ?? "", stopReason: "stop" },
        startedAt: clock,
        durationMs: 5,
      };
      const { callId } = await recordModelCall({ sessionId, call });
      expected.set(callId, hashes);
      if (kind === "chat") chatCalls++;
    };
    const context = () => convertToLlm(buildSessionContext(path).messages, TEST_PROMPTS);

    const started = Date.now();
    for (let t = 0; t < TURNS; t++) {
      add({ type: "message", message: userMsg(sentence(t, "Please do step", 6), { timestamp: tick() }) });
      if (t % 5 === 4) {
        const withTool = assistantMsg("", { toolCalls: [toolCall(`c${t}`, "bash", { cmd: `make step-${t}` })], timestamp: tick(), usage: { input: 1000 + t, output: 20 } });
        await record("chat", context(), withTool);
        add({ type: "message", message: withTool });
        add({ type: "message", message: toolResultMsg(`c${t}`, sentence(t, "build output", 30), { toolName: "bash", timestamp: tick() }) });
      }
      const answer = assistantMsg(sentence(t, "Done with step", 10), { timestamp: tick(), usage: { input: 1000 + t, output: 50 } });
      await record("chat", context(), answer);
      add({ type: "message", message: answer });

      if (t === 249) {
        const plan = prepareCompaction(path, settings({ keepRecentTokens: 3000 }))!;
        const prompt = userMsg([{ type: "text", text: `<conversation>\n${sentence(t, "serialized", 400)}\n</conversation>` }], { timestamp: tick() });
        await record("history", [prompt], undefined, "Summary of the first 250 steps.");
        await record("short", [userMsg("Short summary please", { timestamp: tick() })], undefined, "250 steps done.");
        add({ type: "compaction", summary: "Summary of the first 250 steps.", firstKeptEntryId: plan.firstKeptEntryId, tokensBefore: 1250 });
      }
      if (t === 399) {
        // Prune the oldest tool result still in the context: a message in the middle changes.
        // As the agent prunes (lib/agent/compaction-check.ts): the entry is replaced by a pruned
        // copy; message objects in a session are never mutated (the per-object caches rely on it).
        const compactionAt = path.findIndex((e) => e.type === "compaction");
        const at = path.findIndex((e, i) => i > compactionAt && e.type === "message" && e.message.role === "toolResult");
        const old = path[at] as SessionEntry & { message: ToolResultMessage };
        const pruned: ToolResultMessage = { ...old.message, content: [{ type: "text", text: "[Output truncated - 200 tokens]" }], prunedAt: tick() };
        path[at] = { ...old, message: pruned };
      }
      if ((t + 1) % 125 === 0) joinAt.set(t + 1, await count("SELECT count(*) AS n FROM model_call_messages"));
    }
    const recordMs = Date.now() - started;

    const contentsRows = await count("SELECT count(*) AS n FROM model_call_contents WHERE kind = 'message'");
    const otherRows = await count("SELECT count(*) AS n FROM model_call_contents WHERE kind <> 'message'");
    const joinRows = await count("SELECT count(*) AS n FROM model_call_messages");
    const contentBytes = await count("SELECT coalesce(sum(bytes), 0) AS n FROM model_call_contents");
    const callRows = await count("SELECT count(*) AS n FROM model_calls");
    const fullLists = await count("SELECT count(*) AS n FROM model_calls WHERE base_call_id IS NULL");
    const relationBytes = await count(
      "SELECT pg_total_relation_size('model_calls') + pg_total_relation_size('model_call_contents') + pg_total_relation_size('model_call_messages') AS n",
    );

    // One content row per distinct message; the two system prompts and the tool list.
    expect(contentsRows).toBe(distinct.size);
    expect(otherRows).toBe(3);
    // Linear: join rows stay within a small multiple of the distinct messages…
    expect(joinRows).toBeLessThan(3 * distinct.size);
    // …and doubling the session about doubles them (a square would quadruple).
    expect(joinRows / joinAt.get(250)!).toBeLessThan(2.6);
    expect(callRows).toBe(expected.size);

    // Every list reads back exactly, across deltas, full copies, the compaction and the prune.
    const read0 = Date.now();
    const db = getDb();
    for (const [callId, hashes] of expected) {
      expect(await readHashList(db, { id: callId, messageCount: hashes.length })).toEqual(hashes);
    }
    const readAllMs = Date.now() - read0;
    const lastId = [...expected.keys()].at(-1)!;
    const last = (await getModelCall({ sessionId, callId: lastId, prompts: TEST_PROMPTS }))!;
    expect(last.request.messages.map((m) => m.hash)).toEqual(expected.get(lastId));
    // The last call sent the context as it was before its answer was appended.
    expect(last.request.messages.map((m) => m.message)).toEqual(context().slice(0, -1));

    console.info(
      [
        `recorded-call storage, ${TURNS} turns (${chatCalls} chat calls + 2 summarization calls, MAX_CHAIN_DEPTH ${MAX_CHAIN_DEPTH}):`,
        `  distinct messages ${distinct.size} → model_call_contents message rows ${contentsRows} (+${otherRows} system/tools), ${(contentBytes / 1e6).toFixed(2)} MB of content`,
        `  model_call_messages rows ${joinRows} (${(joinRows / distinct.size).toFixed(2)} per distinct message; ${fullLists} calls stored in full)`,
        `  join rows after 125/250/375/500 turns: ${[...joinAt.values()].join(" / ")}`,
        `  naive full list per call: ${naiveRows} rows, ${(naiveBytes / 1e6).toFixed(2)} MB (${(naiveRows / joinRows).toFixed(1)}× the rows, ${(naiveBytes / contentBytes).toFixed(1)}× the bytes)`,
        `  on disk (3 tables with indexes): ${(relationBytes / 1e6).toFixed(2)} MB; recording ${recordMs} ms, reading all ${expected.size} lists ${readAllMs} ms`,
      ].join("\n"),
    );
  });
});
