/**
 * "Continue in…" round trips (docs/formats.md "Hand-off"): a branch of a generated session with
 * tool calls, thinking, a compaction and a branch summary is written in each agent's format,
 * read back with Arbor's own importer, and the context a model would see is compared with the
 * original branch's. The Claude Code and Codex files also pass format detection and the real-file
 * corpus test's raw counting (test/corpus-counters.ts).
 */
import { describe, expect, it } from "vitest";
import { loadPrompts } from "@/lib/llm/prompts";
import { Rng } from "@/lib/random";
import { pathToRoot } from "@/lib/session/tree/branch-path";
import { buildSessionContext } from "@/lib/session/context";
import { convertToLlm } from "@/lib/session/file/convert";
import { parseSessionText } from "@/lib/session/file/jsonl";
import type { LlmMessage, SessionEntry } from "@/lib/session/types";
import { CORPUS_FORMATS, jsonObjects } from "@/test/corpus-counters";
import { generateSession } from "@/test/generators/session";
import { assistantEntry, chain, messageEntry, userEntry } from "@/test/session-factories";
import { toolCall, toolResultMsg } from "@/test/session-messages";
import { detectFormat } from "@/lib/formats/detect";
import { type HandoffFormat, type HandoffInput, writeHandoff } from "./handoff";
import { mapSessionText } from "@/lib/formats/map-lines";

const prompts = loadPrompts();

/** A generated session whose current branch holds a compaction, a branch summary after it, tool calls and thinking. */
function chosenBranch() {
  for (let seed = 1; seed < 200; seed++) {
    const s = generateSession({ seed, entries: 160, branches: 3, compactions: true, labels: 2 });
    const byId = new Map(s.entries.map((e) => [e.id, e]));
    const path = pathToRoot(s.entries.at(-1)!, byId);
    const compaction = path.findLastIndex((e) => e.type === "compaction");
    const summaryAfter = path.findIndex((e, i) => i > compaction && e.type === "branch_summary");
    const ctx = buildSessionContext(path, path.at(-1)!.id, undefined, path).messages;
    const thinking = ctx.some((m) => m.role === "assistant" && m.content.some((c) => c.type === "thinking"));
    const calls = ctx.some((m) => m.role === "assistant" && m.content.some((c) => c.type === "toolCall"));
    if (compaction >= 0 && summaryAfter >= 0 && thinking && calls) return { session: s, path: signThinking(path) };
  }
  throw new Error("no generated session has a compaction, a branch summary after it, tool calls and thinking");
}

/** Anthropic responses' thinking gets a signature (as Claude's API returns it), so Claude Code can carry it. */
function signThinking(path: SessionEntry[]): SessionEntry[] {
  return path.map((e) => {
    if (e.type !== "message" || e.message.role !== "assistant" || e.message.provider !== "anthropic") return e;
    const content = e.message.content.map((c) => (c.type === "thinking" ? { ...c, thinkingSignature: `sig-${e.id}` } : c));
    return { ...e, message: { ...e.message, content } };
  });
}

const { session, path } = chosenBranch();
const rng = Rng.seeded(33);
const input = (): HandoffInput => ({
  path,
  cwd: "/home/dev/my_project.v2",
  title: "Generated",
  sourceSessionId: session.header.id,
  sessionEntryCount: session.entries.length,
  prompts,
  newId: () => rng.uuid(),
  now: new Date("2026-12-05T08:00:00Z"),
});

/** What a model reads of a message list: roles, texts, images, tool calls and results. */
function view(messages: LlmMessage[], thinking: "all" | "signed" | "none") {
  const failed = new Set<string>();
  const out: unknown[] = [];
  for (const m of messages) {
    if (m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted")) {
      for (const c of m.content) if (c.type === "toolCall") failed.add(c.id);
      continue;
    }
    if (m.role === "toolResult") {
      if (!failed.has(m.toolCallId)) out.push({ role: "toolResult", id: m.toolCallId, name: m.toolName, isError: m.isError, content: m.content });
      continue;
    }
    if (m.role === "user") {
      const parts = typeof m.content === "string" ? [{ type: "text" as const, text: m.content }] : m.content;
      out.push({ role: "user", text: parts.map((p) => (p.type === "text" ? p.text : `[image ${p.mimeType}]`)).join("") });
      continue;
    }
    const content = m.content.filter((c) => c.type !== "thinking" || thinking === "all" || (thinking === "signed" && !!c.thinkingSignature));
    if (content.length > 0) out.push({ role: "assistant", content: content.map((c) => (c.type === "thinking" ? { type: "thinking", thinking: c.thinking } : c)) });
  }
  return out;
}

const contextOf = (entries: SessionEntry[]) => convertToLlm(buildSessionContext(entries, entries.at(-1)!.id).messages, prompts);
const original = contextOf(path);

describe("the chosen branch", () => {
  it("has what a hand-off must carry: a compaction, a branch summary, tool calls, signed thinking, and other branches", () => {
    expect(path.some((e) => e.type === "compaction")).toBe(true);
    expect(original.some((m) => m.role === "user" && JSON.stringify(m.content).includes("summary"))).toBe(true);
    expect(session.entries.length).toBeGreaterThan(path.length);
  });
});

describe("pi", () => {
  const out = writeHandoff("pi", input());
  it("writes the path's entries verbatim under a new header, and the same context comes back", () => {
    const parsed = parseSessionText(out.text);
    expect(parsed.header?.id).toBe(out.sessionId);
    expect(parsed.header?.cwd).toBe("/home/dev/my_project.v2");
    expect(parsed.entries.map((e) => e.id)).toEqual(path.map((e) => e.id));
    expect(contextOf(parsed.entries as SessionEntry[])).toEqual(original);
    expect(out.folder).toBe("--home-dev-my_project.v2--");
    expect(out.fileName).toBe(`2026-12-05T08-00-00-000Z_${out.sessionId}.jsonl`);
    expect(out.notes.join(" ")).toMatch(/entries on other branches of the session are not written/);
  });
});

const targets: { format: HandoffFormat; detected: "claude-code" | "codex"; folder: string; thinking: "signed" | "none" }[] = [
  { format: "claude", detected: "claude-code", folder: "claude", thinking: "signed" },
  { format: "codex", detected: "codex", folder: "codex", thinking: "none" },
];

describe.each(targets)("$format", ({ format, detected, folder, thinking }) => {
  const out = writeHandoff(format, input());
  const mapped = mapSessionText(out.text);

  it("is detected as its format and read back with the same context a model would see", () => {
    expect(detectFormat(jsonObjects(out.text))).toBe(detected);
    expect(mapped?.format).toBe(detected);
    expect(mapped!.header.id).toBe(out.sessionId);
    expect(mapped!.header.cwd).toBe("/home/dev/my_project.v2");
    expect(mapped!.notes).toEqual([]);
    const back = view(contextOf(mapped!.entries), "all");
    expect(back).toEqual(view(original, thinking));
    // Signed thinking crosses to Claude Code; the compaction comes back as a compaction.
    if (format === "claude") expect(back.some((m) => JSON.stringify(m).includes('"type":"thinking"'))).toBe(true);
    expect(mapped!.entries.filter((e) => e.type === "compaction")).toHaveLength(1);
  });

  it("counts, by the corpus test's raw counting, the prompts, calls, results and compaction written", () => {
    const raw = CORPUS_FORMATS.find((f) => f.folder === folder)!.count(out.text).main;
    // The first message is the compaction's summary: a compaction, not a prompt.
    const expected = view(original, thinking).slice(1) as { role: string; content?: { type: string }[] }[];
    expect(raw.prompts).toBe(expected.filter((m) => m.role === "user").length);
    expect(raw.toolCalls).toBe(expected.flatMap((m) => (m.role === "assistant" ? m.content!.filter((c) => c.type === "toolCall") : [])).length);
    expect(raw.toolResults).toBe(expected.filter((m) => m.role === "toolResult").length);
    expect(raw.compactions).toBe(1);
    expect(raw.forks).toBe(0);
  });

  it("lists what the target cannot hold before anything is written", () => {
    const notes = out.notes.join("\n");
    expect(notes).toMatch(/entries on other branches/);
    expect(notes).toMatch(/compaction's summary is written as the target's own compaction/);
    expect(notes).toMatch(/branch summar(y is|ies are) written as a user message/);
    expect(notes).toMatch(/labels? \(Arbor's names for entries\)/);
    // Codex replays no other model's reasoning; Claude Code only Anthropic-signed thinking (all of it here).
    if (format === "codex") expect(notes).toMatch(/\d+ thinking blocks? (is|are) not written/);
    else expect(notes).not.toMatch(/thinking block/);
  });
});

describe("file places", () => {
  it("names the file as each agent looks for it", () => {
    const claude = writeHandoff("claude", input());
    expect(claude.folder).toBe("-home-dev-my-project-v2");
    expect(claude.fileName).toBe(`${claude.sessionId}.jsonl`);
    const codex = writeHandoff("codex", input());
    expect(codex.folder).toBe("2026/12/05");
    expect(codex.fileName).toBe(`rollout-2026-12-05T08-00-00-${codex.sessionId}.jsonl`);
  });
});

describe("what a target cannot replay", () => {
  // A failed response with a call (and its result), an error result, then a response whose call
  // has no result yet: the path ends there.
  const small = chain(
    userEntry("u1", null, "Fix the failing build"),
    assistantEntry("a1", "u1", "", { stopReason: "error", errorMessage: "overloaded", toolCalls: [toolCall("c0", "bash", { command: "make" })] }),
    messageEntry("r0", "a1", toolResultMsg("c0", "never ran", { toolName: "bash" })),
    assistantEntry("a2", "r0", "Running the build.", { toolCalls: [toolCall("c1", "bash", { command: "make" })] }),
    messageEntry("r1", "a2", toolResultMsg("c1", "make: *** [all] Error 2", { toolName: "bash", isError: true })),
    assistantEntry("a3", "r1", "Reading the log.", { toolCalls: [toolCall("c2", "read", { path: "build.log" })] }),
  );
  const smallInput = (): HandoffInput => ({ ...input(), path: small, sessionEntryCount: small.length });

  it.each(["claude", "codex"] as const)("%s: the failed response and the unanswered call are left out, an error result stays one, and the notes say so", (format) => {
    const out = writeHandoff(format, smallInput());
    const back = contextOf(mapSessionText(out.text)!.entries);
    expect(back.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    const [, a2, r1, a3] = back;
    expect(a2?.role === "assistant" && a2.content.filter((c) => c.type === "toolCall").map((c) => c.id)).toEqual(["c1"]);
    expect(r1).toMatchObject({ role: "toolResult", toolCallId: "c1", isError: true, content: [{ type: "text", text: "make: *** [all] Error 2" }] });
    expect(a3?.role === "assistant" && a3.content).toEqual([{ type: "text", text: "Reading the log." }]);
    expect(out.notes).toContain("1 failed or aborted response (and the results of its calls) is not written.");
    expect(out.notes).toContain("1 tool call without a result on the path is left out.");
  });
});
