/**
 * Real Gemini CLI and opencode files (../shared/fixtures/formats, or $ARBOR_FIXTURES/formats: public,
 * MIT-licensed logs of other projects, see NOTICE.md there) through the real import into the test
 * database, exported as pi v3, and checked against counts computed here from the raw JSON with a
 * few lines of independent reading: prompts, responses, tool calls and results, their pairing,
 * the models, tokens and cost, notes and the title. Skipped, saying why, where the folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, SessionEntry } from "@/lib/session/types";
import { useTestDatabase } from "@/test/db";
import { FIXTURES_DIR } from "@/test/fixtures";
import { chunked, exportedJsonl } from "@/test/import-helpers";
import { importSession } from "..";

const FORMATS_DIR = path.join(FIXTURES_DIR, "formats");
const present = existsSync(path.join(FORMATS_DIR, "gemini")) && existsSync(path.join(FORMATS_DIR, "opencode"));
if (!present) console.warn(`real session logs not found at ${FORMATS_DIR} (set ARBOR_FIXTURES); skipping the Gemini CLI and opencode fixture tests`);

useTestDatabase();

/** The raw files' shapes, as loosely as this test reads them. */
interface GeminiCall {
  id: string;
  status: string;
  result?: { functionResponse?: { response?: { error?: unknown } } }[] | null;
}
interface GeminiFile {
  summary?: string;
  messages: { type: string; content?: unknown; model?: string; toolCalls?: GeminiCall[]; tokens?: { total?: number } }[];
}
interface OpencodePart {
  type: string;
  synthetic?: boolean;
  ignored?: boolean;
  callID?: string;
  state?: { status: string };
  tokens?: { total: number };
  cost?: number;
}
interface OpencodeFile {
  info: { title?: string };
  messages: { info: { role: string; summary?: boolean; modelID?: string }; parts: OpencodePart[] }[];
}

/** What a reader of the raw file sees, counted without Arbor's code. */
interface RawCounts {
  prompts: number;
  responses: number;
  callIds: string[];
  failedCalls: number;
  models: string[];
  notes: number;
  /** The session's title: the file's own, else its first prompt. */
  title: string | undefined;
  totalTokens: number;
  cost?: number;
}

function rawGemini(doc: GeminiFile): RawCounts {
  const gemini = doc.messages.filter((m) => m.type === "gemini");
  const calls = gemini.flatMap((m) => m.toolCalls ?? []);
  const firstPrompt = doc.messages.find((m) => m.type === "user")?.content;
  return {
    prompts: doc.messages.filter((m) => m.type === "user").length,
    responses: gemini.length,
    callIds: calls.map((c) => c.id),
    failedCalls: calls.filter((c) => c.status !== "success" || c.result?.[0]?.functionResponse?.response?.error !== undefined).length,
    models: gemini.map((m) => m.model ?? ""),
    notes: doc.messages.filter((m) => ["info", "error", "warning"].includes(m.type)).length,
    title: doc.summary ?? (typeof firstPrompt === "string" ? firstPrompt : undefined),
    totalTokens: gemini.reduce((n, m) => n + (m.tokens?.total ?? 0), 0),
  };
}

function rawOpencode(doc: OpencodeFile): RawCounts {
  const users = doc.messages.filter((m) => m.info.role === "user" && !m.parts.some((p) => p.type === "compaction"));
  const assistants = doc.messages.filter((m) => m.info.role === "assistant" && m.info.summary !== true);
  const tools = assistants.flatMap((m) => m.parts.filter((p) => p.type === "tool"));
  const steps = (m: OpencodeFile["messages"][number]) => Math.max(1, m.parts.filter((p) => p.type === "step-start").length);
  const finishes = assistants.flatMap((m) => m.parts.filter((p) => p.type === "step-finish"));
  return {
    prompts: users.filter((m) => m.parts.some((p) => p.type === "text" && !p.synthetic && !p.ignored)).length,
    responses: assistants.reduce((n, m) => n + steps(m), 0),
    callIds: tools.map((p) => p.callID ?? ""),
    failedCalls: tools.filter((p) => p.state?.status !== "completed").length,
    models: assistants.flatMap((m) => Array<string>(steps(m)).fill(m.info.modelID ?? "")),
    notes: assistants.flatMap((m) => m.parts.filter((p) => p.type === "patch" || p.type === "retry")).length,
    title: doc.info.title,
    totalTokens: finishes.reduce((n, p) => n + (p.tokens?.total ?? 0), 0),
    cost: finishes.reduce((n, p) => n + (p.cost ?? 0), 0),
  };
}

/** The same facts, read from the pi v3 export. */
function exportedCounts(entries: SessionEntry[]): Omit<RawCounts, "title"> & { resultIds: string[]; paired: boolean } {
  const messages = entries.flatMap((e) => (e.type === "message" ? [e.message] : []));
  const assistants = messages.filter((m) => m.role === "assistant");
  const results = messages.filter((m) => m.role === "toolResult");
  const callsOf = (m: AssistantMessage) => m.content.filter((p) => p.type === "toolCall");
  // Each response's calls are answered by the results right after it, in order.
  const paired = messages.every((m, i) => {
    if (m.role !== "assistant") return true;
    return callsOf(m).every((c, k) => {
      const r = messages[i + 1 + k];
      return r?.role === "toolResult" && r.toolCallId === c.id;
    });
  });
  return {
    prompts: messages.filter((m) => m.role === "user" && !m.synthetic).length,
    responses: assistants.length,
    callIds: assistants.flatMap((m) => callsOf(m).map((c) => c.id)),
    resultIds: results.map((r) => r.toolCallId),
    paired,
    failedCalls: results.filter((r) => r.isError).length,
    models: assistants.map((m) => m.model),
    notes: entries.filter((e) => e.type === "custom").length,
    totalTokens: assistants.reduce((n, m) => n + (m.usage.totalTokens ?? 0), 0),
    cost: assistants.reduce((n, m) => n + (m.usage.cost?.total ?? 0), 0),
  };
}

const files = present
  ? (["gemini", "opencode"] as const).flatMap((format) =>
      readdirSync(path.join(FORMATS_DIR, format))
        .sort()
        .map((name) => ({ format, name, file: path.join(FORMATS_DIR, format, name) })),
    )
  : [];

describe.skipIf(!present)("real Gemini CLI and opencode files", () => {
  it.each(files)("$format/$name imports with its counts intact", async ({ format, name, file }) => {
    const text = readFileSync(file, "utf8");
    const raw = format === "gemini" ? rawGemini(JSON.parse(text) as GeminiFile) : rawOpencode(JSON.parse(text) as OpencodeFile);
    const r = await importSession({ source: chunked(text), fileName: name });
    expect(r.format).toBe(format);
    expect(r.skippedCount).toBe(0);
    const jsonl = await exportedJsonl(r.sessionId);
    const got = exportedCounts(jsonl.trimEnd().split("\n").slice(1).map((l) => JSON.parse(l) as SessionEntry));

    expect(got.prompts).toBe(raw.prompts);
    expect(got.responses).toBe(raw.responses);
    expect(got.callIds).toEqual(raw.callIds);
    expect(got.resultIds).toEqual(raw.callIds);
    expect(got.paired).toBe(true);
    expect(got.failedCalls).toBe(raw.failedCalls);
    expect(got.models).toEqual(raw.models);
    expect(got.notes).toBe(raw.notes);
    expect(got.totalTokens).toBe(raw.totalTokens);
    if (raw.cost !== undefined) expect(got.cost).toBeCloseTo(raw.cost, 9);
    expect(r.title).toBe(raw.title);
  });
});
