/** The Gemini CLI adapter over our own generated recordings (docs/formats.md "Gemini CLI"). */
import { describe, expect, it } from "vitest";
import { buildSessionContext } from "@/lib/session/context";
import type { AssistantMessage, ToolResultMessage } from "@/lib/session/types";
import { generateGeminiSession } from "@/test/generators/gemini";
import { expectCallsAnswered, expectLinearChain, messagesOf } from "@/test/mapped-entries";
import { countEntries } from "./count";
import { documentFormatOf, locateJsonError, mapDocument, sniffDocumentFormat } from "./document";
import { GEMINI_GAP, reconstructionGaps } from "./gaps";
import { mapGeminiConversation } from "./gemini-map";
import { GeminiRecordFolder, isGeminiMetadataRecord } from "./gemini-records";
import type { JsonObject } from "./types";

describe("Gemini CLI recordings", () => {
  const file = generateGeminiSession({ seed: 5, turns: 6, summary: "Fix the parser" });
  const doc = JSON.parse(file.text) as JsonObject;
  const mapped = mapDocument("gemini", doc);

  it("are told by their top-level shape, also when they do not parse", () => {
    expect(documentFormatOf(doc)).toBe("gemini");
    expect(documentFormatOf({ sessionId: "s", messages: [] })).toBeNull();
    expect(sniffDocumentFormat(file.text.slice(0, 300))).toBe("gemini");
    expect(sniffDocumentFormat('{"type":"session","id":"x"}')).toBeNull();
  });

  it("map every prompt, response, tool call and result, error and note of the file", () => {
    expect(mapped.records).toBe(file.records);
    expect(countEntries(mapped.entries)).toEqual(file.expected);
    expect(file.expected.toolErrors).toBeGreaterThanOrEqual(2);
    expectLinearChain(mapped.entries);
  });

  it("take the header from the recording, with its summary as the title", () => {
    expect(mapped.header).toMatchObject({ type: "session", version: 3, id: file.sessionId, title: "Fix the parser", sourceFormat: "gemini", timestamp: doc.startTime });
    expect(mapped.header.gemini).toMatchObject({ projectHash: doc.projectHash, lastUpdated: doc.lastUpdated });
    // The inspector says what the file does not record.
    expect(reconstructionGaps(mapped.header, mapped.entries)).toEqual([GEMINI_GAP]);
  });

  it("answer every tool call right after its response, a cancelled one with a result that says so", () => {
    expectCallsAnswered(mapped.entries);
    const msgs = messagesOf(mapped.entries);
    const cancelled = msgs.find((m): m is ToolResultMessage => m.role === "toolResult" && (m.details as { status?: string }).status === "cancelled")!;
    expect(cancelled.isError).toBe(true);
    expect(cancelled.content).toEqual([{ type: "text", text: expect.stringMatching(/^Cancelled/) }]);
    const failed = msgs.find((m): m is ToolResultMessage => m.role === "toolResult" && (m.details as { status?: string }).status === "error")!;
    expect(failed.isError).toBe(true);
    expect(failed.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^File not found/) });
  });

  it("keep thoughts as thinking, the model of each response, and its tokens as usage", () => {
    const assistants = messagesOf(mapped.entries).filter((m): m is AssistantMessage => m.role === "assistant");
    expect(assistants.map((a) => a.model)).toEqual(file.models);
    expect(new Set(file.models).size).toBe(2);
    const raw = (doc.messages as JsonObject[]).filter((m) => m.type === "gemini");
    assistants.forEach((a, i) => {
      const t = raw[i]!.tokens as Record<string, number>;
      expect(a.provider).toBe("google");
      expect(a.content[0]).toMatchObject({ type: "thinking", thinking: expect.stringMatching(/^\*\*Planning step \d\*\* /) });
      expect(a.usage).toEqual({ input: t.input! - t.cached!, output: t.output! + t.thoughts!, cacheRead: t.cached, cacheWrite: 0, totalTokens: t.total });
    });
    const ctx = buildSessionContext(mapped.entries, mapped.entries.at(-1)!.id);
    expect(ctx.models.default).toBe("google/gemini-2.5-pro");
  });

  it("keep info, error and warning messages as custom entries that the model never sees", () => {
    const notes = mapped.entries.filter((e) => e.type === "custom");
    expect(notes.map((e) => e.type === "custom" && e.customType)).toEqual(["gemini/info", "gemini/warning", "gemini/mystery", "gemini/error"]);
    expect(notes[3]).toMatchObject({ data: { type: "error", content: expect.stringMatching(/^\[API Error/) } });
    const ctx = buildSessionContext(mapped.entries, mapped.entries.at(-1)!.id);
    expect(JSON.stringify(ctx.messages)).not.toContain("API Error");
  });

  it("name the message a file gets wrong", () => {
    const bad = { ...doc, messages: [{ id: "a", type: "user", content: "hi" }, { id: "b", content: "no type" }] };
    expect(() => mapGeminiConversation(bad)).toThrowError(/messages\[1\]: Gemini CLI message has no type/);
  });
});

describe("Gemini CLI 0.39+ JSONL recordings", () => {
  it("fold (messages written again, a rewind, a $set) into the same conversation as the document", () => {
    const asDocument = generateGeminiSession({ seed: 9, turns: 4, summary: "Rename things" });
    const asRecords = generateGeminiSession({ seed: 9, turns: 4, summary: "Rename things", jsonl: true });
    const lines = asRecords.text.trimEnd().split("\n").map((l) => JSON.parse(l) as JsonObject);
    expect(isGeminiMetadataRecord(lines[0])).toBe(true);
    const folder = new GeminiRecordFolder();
    for (const l of lines) folder.push(l);
    expect(folder.records).toBe(lines.length);
    const folded = mapDocument("gemini", folder.conversation());
    expect(folded).toEqual(mapDocument("gemini", JSON.parse(asDocument.text) as JsonObject));
    expect(countEntries(folded.entries)).toEqual(asRecords.expected);
  });
});

describe("locateJsonError", () => {
  const error = (text: string) => {
    try {
      JSON.parse(text);
    } catch (e) {
      return locateJsonError(text, e);
    }
    throw new Error("parsed");
  };

  it("names the line and column of a syntax error", () => {
    expect(error('{\n  "a": 1,\n  "b" 2\n}')).toMatchObject({ line: 3, column: 7, cutOff: false });
  });

  it("says when the document ends early", () => {
    const text = JSON.stringify({ sessionId: "s", messages: [{ id: "a" }] }, null, 2);
    const cut = text.slice(0, text.length - 10);
    expect(error(cut)).toMatchObject({ cutOff: true, line: cut.split("\n").length });
  });
});
