/** The opencode adapter over our own generated exports (docs/formats.md "opencode"). */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import type { AssistantMessage, CompactionEntry, ToolResultMessage } from "@/lib/session/types";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { expectCallsAnswered, expectLinearChain, messagesOf } from "@/test/mapped-entries";
import { countEntries } from "./count";
import { documentFormatOf, mapDocument, sniffDocumentFormat } from "./document";
import { OPENCODE_GAP, reconstructionGaps } from "./gaps";
import { mapOpencodeExport } from "./opencode-map";
import type { JsonObject } from "./types";

describe("opencode exports", () => {
  const file = generateOpencodeSession({ seed: 21, turns: 6, compactions: 1, subagent: true });
  const doc = JSON.parse(file.text) as JsonObject;
  const mapped = mapDocument("opencode", doc);

  it("are told by their top-level shape, also when they do not parse", () => {
    expect(documentFormatOf(doc)).toBe("opencode");
    expect(documentFormatOf({ info: { id: "x" }, messages: [] })).toBeNull();
    expect(sniffDocumentFormat(file.text.slice(0, 200))).toBe("opencode");
  });

  it("map every prompt, step, tool call and result, compaction and kept part of the export", () => {
    expect(mapped.records).toBe(file.records);
    expect(countEntries(mapped.entries)).toEqual(file.expected);
    expectLinearChain(mapped.entries);
  });

  it("take the header from info: title, directory, and a child session's parent", () => {
    expect(mapped.header).toMatchObject({ id: file.sessionId, title: file.title, cwd: "/home/dev/app", sourceFormat: "opencode" });
    expect(mapped.header.parentSession).toBeUndefined();
    expect(reconstructionGaps(mapped.header, mapped.entries)).toEqual([OPENCODE_GAP]);
    const child = mapDocument("opencode", JSON.parse(file.child!.text) as JsonObject);
    expect(child.header).toMatchObject({ id: file.child!.sessionId, parentSession: file.sessionId });
    const placeholder = mapOpencodeExport({ ...doc, info: { ...(doc.info as JsonObject), title: "New session - 2026-03-18T21:00:00.000Z" } });
    expect(placeholder.header.title).toBeUndefined();
  });

  it("answer every tool call after its step: errors flagged, a call still running answered explicitly, a task linked to its child session", () => {
    expectCallsAnswered(mapped.entries);
    const results = messagesOf(mapped.entries).filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.find((r) => r.toolName === "read" && r.isError)!.content[0]).toMatchObject({ text: expect.stringMatching(/^Error: /) });
    expect(results.find((r) => r.toolName === "bash")).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringMatching(/^No result was recorded: the tool call was still running/) }] });
    expect(results.find((r) => r.toolName === "task")).toMatchObject({ isError: false, subagentSessionId: file.child!.sessionId });
  });

  it("keep reasoning, the model, and each step's tokens and cost", () => {
    const assistants = messagesOf(mapped.entries).filter((m): m is AssistantMessage => m.role === "assistant");
    expect(assistants.map((a) => a.model)).toEqual(file.models);
    expect(assistants.every((a) => a.provider === "anthropic")).toBe(true);
    expect(assistants.filter((a) => a.content.some((p) => p.type === "thinking")).length).toBeGreaterThan(0);
    const finishes = (doc.messages as { info: JsonObject; parts: JsonObject[] }[]).filter((m) => m.info.role === "assistant" && m.info.summary !== true).flatMap((m) => m.parts.filter((p) => p.type === "step-finish"));
    expect(assistants.map((a) => a.usage.cost?.total)).toEqual(finishes.map((f) => f.cost));
    expect(assistants.map((a) => a.usage.cacheWrite)).toEqual(finishes.map((f) => (f.tokens as { cache: { write: number } }).cache.write));
    const last = assistants.at(-1)!;
    expect(last).toMatchObject({ stopReason: "aborted", errorMessage: "The operation was aborted." });
  });

  it("split a message of two steps into two responses, each followed by its results", () => {
    const split = mapped.entries.filter((e) => /#1$/.test(e.id) && e.type === "message" && e.message.role === "assistant");
    expect(split).toHaveLength(1);
  });

  it("turn a compaction request and its summary into one compaction that keeps what follows", () => {
    const at = mapped.entries.findIndex((e) => e.type === "compaction");
    const compaction = mapped.entries[at] as CompactionEntry;
    expect(compaction.summary).toMatch(/^Summary before turn \d+: /);
    expect(compaction.tokensBefore).toBeGreaterThan(20_000);
    const next = mapped.entries[at + 1]!;
    expect(compaction.firstKeptEntryId).toBe(next.id);
    const ctx = buildSessionContext(mapped.entries, mapped.entries.at(-1)!.id);
    expect(ctx.messages[0]).toMatchObject({ role: "compactionSummary", summary: compaction.summary });
  });

  it("keep patch, retry and unknown parts as custom entries the model never sees", () => {
    const customs = mapped.entries.filter((e) => e.type === "custom").map((e) => e.type === "custom" && e.customType);
    expect(customs.sort()).toEqual(["opencode/mystery-part", "opencode/patch", "opencode/retry"]);
    const ctx = buildSessionContext(mapped.entries, mapped.entries.at(-1)!.id);
    expect(ctx.messages.some((m) => m.role === "custom")).toBe(false);
  });

  it("keep a prompt's named file as a reference and mark it a person's prompt; opencode's added text is in it", () => {
    const prompt = messagesOf(mapped.entries).find((m) => m.role === "user" && JSON.stringify(m.content).includes("[file: src/app.ts (text/plain)]"))!;
    expect(prompt).toBeDefined();
    expect(prompt.role === "user" && prompt.synthetic).toBeFalsy();
  });

  it("name the message an export gets wrong", () => {
    expect(() => mapOpencodeExport({ ...doc, messages: [{ parts: [] }] })).toThrowError(/messages\[0\]: an opencode message has no info.role/);
  });
});
