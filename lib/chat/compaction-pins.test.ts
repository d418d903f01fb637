/**
 * Compaction you can trust (docs/engine.md "Arbor extensions around compaction"), part two, over HTTP with the fake model server:
 * compact again with another prompt and another model (a sibling), compare and choose it; a
 * pinned message survives two compactions verbatim; cited summaries name their entries.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CITE_INSTRUCTION } from "@/lib/compaction/citations";
import { loadTree } from "@/lib/db";
import { createProviderRegistry } from "@/lib/llm/providers";
import { PINNED_HEADER } from "@/lib/session/pins";
import { useTestDatabase } from "@/test/db";
import { KEEP, again, compactions, review } from "@/test/compaction-routes";
import { looksLikeSummarization } from "@/test/fake-llm-server";
import { messageText } from "@/test/fake-llm-steps";
import { configureChatRuntime } from "./runtime-config";
import { moveLeafBack, pinEntry } from "./session-edits";
import { MODEL_ID, compactRun, dataOf, newSession, postChat, readAll, seedHistory, storedEntries, useHarness } from "@/test/chat-harness";

useTestDatabase();
const h = useHarness();
const OTHER_MODEL = "fake-small";

beforeAll(() => {
  // A second model on the same fake server, so "another model" is a real provider call.
  configureChatRuntime({ registry: createProviderRegistry({ compatible: { baseURL: h.fake.url, models: [MODEL_ID, OTHER_MODEL] } }) });
});

const leafOf = async (id: string) => (await loadTree({ sessionId: id })).meta.leafId;

describe("compact again with another prompt and model", () => {
  it("writes the sibling with the other model and prompt, records both, and 'use this one' picks it", async () => {
    const s = await newSession(KEEP);
    await seedHistory(s.id, 4);
    h.fake.script({ text: "## Goal\nAnswer the questions." }, { text: "I answered." });
    await readAll(await compactRun(s.id));
    const [first] = await compactions(s.id);
    const leafBefore = await leafOf(s.id);

    h.fake.reset();
    h.fake.script({ text: "- question 0 and question 1 were answered" }, { text: "Short." });
    const prompt = "List every question the user asked, one bullet each.";
    const chunks = await readAll(await again(s.id, first!.id, { prompt, model: `openai-compatible/${OTHER_MODEL}` }));
    expect(dataOf(chunks, "error")).toEqual([]);
    const history = h.fake.requests.find(looksLikeSummarization)!;
    expect(history.model).toBe(OTHER_MODEL);
    expect(history.lastUserText?.endsWith(prompt)).toBe(true);

    const [, second] = await compactions(s.id);
    expect(second).toMatchObject({ parentId: first!.parentId, firstKeptEntryId: first!.firstKeptEntryId });
    expect(second!.details).toMatchObject({ arborModel: `openai-compatible/${OTHER_MODEL}`, arborPrompt: prompt });
    expect(await leafOf(s.id)).toBe(leafBefore);

    const r = await review(s.id, first!.id);
    expect(r.alternatives.map((c) => [c.id, c.model ?? null, c.active])).toEqual([
      [first!.id, null, true],
      [second!.id, `openai-compatible/${OTHER_MODEL}`, false],
    ]);
    expect((await moveLeafBack({ sessionId: s.id, leafId: second!.id, expectedLeafId: leafBefore })).ok).toBe(true);
    expect((await review(s.id, first!.id)).alternatives.map((c) => c.active)).toEqual([false, true]);
  });

  it("a model that is not configured is refused by name and nothing is written", async () => {
    const s = await newSession(KEEP);
    await seedHistory(s.id, 4);
    h.fake.script({ text: "## Goal\nA." }, { text: "B." });
    await readAll(await compactRun(s.id));
    const [first] = await compactions(s.id);
    const before = (await storedEntries(s.id)).length;
    const chunks = await readAll(await again(s.id, first!.id, { model: "anthropic/claude-nope" }));
    expect(dataOf<{ message: string }>(chunks, "error").map((e) => e.message)).toEqual(["No API key for anthropic"]);
    expect((await storedEntries(s.id)).length).toBe(before);
  });
});

describe("a pinned message", () => {
  it("survives two compactions verbatim: never summarized, carried after each summary", async () => {
    const s = await newSession(KEEP);
    const seeded = await seedHistory(s.id, 4);
    const question0 = seeded[0]!;
    const verbatim = messageText((question0 as { message: { content: unknown } }).message.content);
    expect((await pinEntry({ sessionId: s.id, entryId: question0.id, pinned: true })).ok).toBe(true);

    h.fake.script({ text: "## Goal\nFirst summary." }, { text: "I answered." });
    await readAll(await compactRun(s.id));
    expect(h.fake.requests.find(looksLikeSummarization)?.lastUserText).not.toContain("question 0:");
    for (let i = 0; i < 3; i++) {
      h.fake.script({ text: `reply ${i}: ${"dolor sit amet ".repeat(30)}` });
      await readAll(await postChat(s.id, `follow-up ${i}: ${"consectetur ".repeat(30)}`));
    }
    h.fake.reset();
    h.fake.script({ text: "## Goal\nSecond summary." }, { text: "Still here." });
    expect(dataOf(await readAll(await compactRun(s.id)), "error")).toEqual([]);
    const both = await compactions(s.id);
    expect(both.map((c) => c.pinnedEntryIds)).toEqual([[question0.id], [question0.id]]);
    expect(h.fake.requests.find(looksLikeSummarization)?.lastUserText).not.toContain("question 0:");

    h.fake.reset();
    h.fake.script({ text: "Answered." });
    await readAll(await postChat(s.id, "What did I ask first?"));
    const turn = h.fake.requests.find((q) => !looksLikeSummarization(q))!;
    const sent = turn.messages.filter((m) => m.role !== "system").map((m) => messageText(m.content));
    const carried = sent.filter((t) => t.includes(verbatim));
    expect(carried).toHaveLength(1);
    expect(carried[0]).toContain(`${PINNED_HEADER} (user message ${question0.id}):`);
    expect(sent.findIndex((t) => t.includes("Second summary."))).toBe(sent.indexOf(carried[0]!) - 1);
  });
});

describe("cited summaries (opt-in)", () => {
  it("with citeSources on, the prompt names each entry and asks for [src: …] tags; off, it does not", async () => {
    const on = await newSession({ compaction: { keepRecentTokens: 150, citeSources: true } });
    const seeded = await seedHistory(on.id, 4);
    h.fake.script({ text: `## Goal\n- Answer the questions [src: ${seeded[0]!.id}]` }, { text: "ok" });
    await readAll(await compactRun(on.id));
    const asked = h.fake.requests.find(looksLikeSummarization)!.lastUserText!;
    expect(asked).toContain(`[User] (entry ${seeded[0]!.id}): question 0:`);
    expect(asked).toContain(`[Assistant] (entry ${seeded[1]!.id}): answer 0:`);
    expect(asked).toContain(CITE_INSTRUCTION);

    h.fake.reset();
    const off = await newSession(KEEP);
    await seedHistory(off.id, 4);
    h.fake.script({ text: "## Goal\n- Answer" }, { text: "ok" });
    await readAll(await compactRun(off.id));
    const plain = h.fake.requests.find(looksLikeSummarization)!.lastUserText!;
    expect(plain).not.toContain("(entry ");
    expect(plain).not.toContain(CITE_INSTRUCTION);
  });
});
