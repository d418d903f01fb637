/**
 * Step types and response builders for the fake OpenAI-compatible server (fake-llm-server.ts).
 * Pure: builds JSON bodies and SSE chunk objects from a step and the recorded request; the server
 * does the writing, delays and socket tricks.
 *
 * Usage numbers default to an estimate (characters / 4, like session-engine.md §4) unless a step gives them.
 */

/** A tool call the fake model makes; `arguments` is streamed in `argumentChunks` pieces. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
  argumentChunks?: number;
}

export interface FakeUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}

/** A normal answer: optional reasoning, then text, then tool calls. */
export interface FakeReplyStep {
  kind?: "reply";
  /** A string is cut into `chunkSize`-character pieces; an array gives the exact chunks. */
  text?: string | string[];
  /** Streamed as `reasoning_content` deltas before the text. */
  reasoning?: string | string[];
  toolCalls?: FakeToolCall[];
  /** Omitted fields are estimated; `false` sends no usage at all. */
  usage?: FakeUsage | false;
  /** Default "tool_calls" when there are tool calls, else "stop"; `null` sends none. */
  finishReason?: string | null;
  chunkSize?: number;
  /** Delay after each streamed chunk, so tests can abort mid-stream. */
  delayMs?: number;
  /** Delay before anything is written. */
  initialDelayMs?: number;
  /** Destroy the socket after this many chunks (a mid-stream failure). */
  failAfterChunks?: number;
  /** Stop writing (but keep the connection open) after this many chunks. */
  hangAfterChunks?: number;
  headers?: Record<string, string>;
  model?: string;
}

/** An HTTP error; the default body is OpenAI's `{ error: { message, type, code } }`. */
export interface FakeErrorStep {
  kind: "error";
  status: number;
  message?: string;
  errorType?: string;
  code?: string | number | null;
  /** A string is sent as text/plain (`""` sends no body); an object as JSON. */
  body?: string | Record<string, unknown>;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A 200 whose body (or SSE data) is not JSON. */
export interface FakeGarbageStep {
  kind: "garbage";
  body?: string;
  initialDelayMs?: number;
}

/** Accept the request and never answer. */
export interface FakeHangStep {
  kind: "hang";
  initialDelayMs?: number;
}

/** Destroy the socket before any response. */
export interface FakeResetStep {
  kind: "reset";
}

export type FakeStep = FakeReplyStep | FakeErrorStep | FakeGarbageStep | FakeHangStep | FakeResetStep;
export type FakeResponder = (request: FakeRequest) => FakeStep | Promise<FakeStep>;
export type ScriptItem = FakeStep | FakeResponder;

export interface FakeMessage {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

/** One recorded `POST /v1/chat/completions`. */
export interface FakeRequest {
  index: number;
  /** When the whole body had arrived, before it was parsed: epoch ms (performance.timeOrigin + performance.now(), comparable across processes). */
  receivedAt?: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  model?: string;
  stream: boolean;
  includeUsage: boolean;
  messages: FakeMessage[];
  tools?: unknown[];
  maxTokens?: number;
  reasoningEffort?: string;
  /** Text of the first system message. */
  system?: string;
  /** Text of the last user message. */
  lastUserText?: string;
  /** Set when the client went away before the response finished. */
  clientClosed?: boolean;
}

export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => (p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : ""))
    .join("");
}

export function toFakeRequest(
  body: Record<string, unknown>,
  headers: Record<string, string | string[] | undefined>,
  index: number,
): FakeRequest {
  const messages = Array.isArray(body.messages) ? (body.messages as FakeMessage[]) : [];
  const system = messages.find((m) => m.role === "system" || m.role === "developer");
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const maxTokens = body.max_tokens ?? body.max_completion_tokens;
  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
  return {
    index,
    body,
    headers,
    model: typeof body.model === "string" ? body.model : undefined,
    stream: body.stream === true,
    includeUsage: streamOptions?.include_usage === true,
    messages,
    tools: Array.isArray(body.tools) ? body.tools : undefined,
    maxTokens: typeof maxTokens === "number" ? maxTokens : undefined,
    reasoningEffort: typeof body.reasoning_effort === "string" ? body.reasoning_effort : undefined,
    system: system ? messageText(system.content) : undefined,
    lastUserText: lastUser ? messageText(lastUser.content) : undefined,
  };
}

/** A summarization call as lib/llm sends it (session-engine.md §6.2): a summarizer system prompt and a conversation block. */
export function looksLikeSummarization(req: FakeRequest): boolean {
  return /summar/i.test(req.system ?? "") && (req.lastUserText ?? "").includes("<conversation>");
}

/** Default responder: echoes chat turns; gives summarization calls a small structured summary. */
export function echoResponder(req: FakeRequest): FakeStep {
  if (looksLikeSummarization(req)) {
    const prompt = req.lastUserText ?? "";
    if (!prompt.includes("## ")) return { text: "I worked through the conversation with the fake model." };
    return {
      text: `## Goal\nFake summary of a ${prompt.length}-character prompt.\n\n## Progress\n### Done\n- [x] Summarized by the fake model\n\n## Next Steps\n1. Continue the task`,
    };
  }
  const last = req.messages.at(-1);
  if (last?.role === "tool") return { text: `Echo: tool result ${messageText(last.content)}` };
  return { text: `Echo: ${req.lastUserText ?? ""}` };
}

const ceil4 = (chars: number) => Math.ceil(chars / 4);

function pieces(value: string | string[] | undefined, size: number): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  const out: string[] = [];
  for (let i = 0; i < value.length; i += size) out.push(value.slice(i, i + size));
  return out;
}

const joined = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join("") : (v ?? ""));

function argsText(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

function usageOf(step: FakeReplyStep, req: FakeRequest) {
  if (step.usage === false) return undefined;
  const u = step.usage ?? {};
  const promptChars = req.messages.reduce((n, m) => n + messageText(m.content).length, 0);
  const outChars =
    joined(step.text).length + joined(step.reasoning).length + (step.toolCalls ?? []).reduce((n, c) => n + argsText(c).length + c.name.length, 0);
  const prompt = u.promptTokens ?? ceil4(promptChars);
  const completion = u.completionTokens ?? ceil4(outChars);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: u.totalTokens ?? prompt + completion,
    prompt_tokens_details: { cached_tokens: u.cachedTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens ?? 0 },
  };
}

function finishOf(step: FakeReplyStep): string | null {
  if (step.finishReason !== undefined) return step.finishReason;
  return step.toolCalls?.length ? "tool_calls" : "stop";
}

const callId = (req: FakeRequest, call: FakeToolCall, i: number) => call.id ?? `call_${req.index}_${i}`;

function envelope(req: FakeRequest, step: FakeReplyStep, object: string) {
  return { id: `chatcmpl-fake-${req.index}`, object, created: 1_700_000_000, model: step.model ?? req.model ?? "fake-model" };
}

/** The chunk objects of a streamed reply, in order (without the `[DONE]` terminator). */
export function buildStreamChunks(step: FakeReplyStep, req: FakeRequest): Record<string, unknown>[] {
  const base = envelope(req, step, "chat.completion.chunk");
  const size = Math.max(1, step.chunkSize ?? 8);
  const delta = (d: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });
  const chunks: Record<string, unknown>[] = [delta({ role: "assistant", content: "" })];
  for (const r of pieces(step.reasoning, size)) chunks.push(delta({ reasoning_content: r }));
  for (const t of pieces(step.text, size)) chunks.push(delta({ content: t }));
  (step.toolCalls ?? []).forEach((call, index) => {
    const args = argsText(call);
    const parts = Math.max(1, call.argumentChunks ?? 3);
    const argSize = Math.max(1, Math.ceil(args.length / parts));
    chunks.push(delta({ tool_calls: [{ index, id: callId(req, call, index), type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const a of pieces(args, argSize)) chunks.push(delta({ tool_calls: [{ index, function: { arguments: a } }] }));
  });
  const finish = finishOf(step);
  if (finish !== null) chunks.push(delta({}, finish));
  const usage = usageOf(step, req);
  if (req.includeUsage && usage) chunks.push({ ...base, choices: [], usage });
  return chunks;
}

/** The body of a non-streamed reply. */
export function buildCompletion(step: FakeReplyStep, req: FakeRequest): Record<string, unknown> {
  const toolCalls = (step.toolCalls ?? []).map((call, i) => ({
    id: callId(req, call, i),
    type: "function",
    function: { name: call.name, arguments: argsText(call) },
  }));
  const message: Record<string, unknown> = { role: "assistant", content: joined(step.text) };
  if (step.reasoning !== undefined) message.reasoning_content = joined(step.reasoning);
  if (toolCalls.length) message.tool_calls = toolCalls;
  return {
    ...envelope(req, step, "chat.completion"),
    choices: [{ index: 0, message, finish_reason: finishOf(step) }],
    usage: usageOf(step, req),
  };
}
