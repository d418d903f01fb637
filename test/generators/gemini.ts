/**
 * Seeded synthetic Gemini CLI chat recordings, our own, for tests and e2e. Pure: no network, disk
 * or database access; the same options give the same bytes.
 *
 * What a recording holds: the metadata (`sessionId`, `projectHash`, `startTime`, `lastUpdated`,
 * optionally `summary`), an `info` message, then turns: the user's prompt (a string, or a list
 * of parts), `gemini` responses with thoughts, text and tool calls (results as
 * `functionResponse` parts; statuses success, error, and one cancelled call with no result),
 * token counts and the model (it changes once), an API `error` message, a `warning`, and a
 * message of a type Gemini CLI may add later. Written the way Gemini CLI writes it: the
 * document pretty-printed with two spaces, no final newline — or, with `jsonl`, as the records
 * of Gemini CLI 0.39+ (metadata, each message written again when its tool results arrive, a
 * `$set` of the summary, and one `$rewindTo` that drops a turn).
 * `expected` counts what the mapping must find (lib/formats/count.ts terms).
 */
import { emptyCounts, type SessionCounts } from "@/lib/formats/count";
import { Rng } from "@/lib/random";
import { sentence } from "@/test/generators/text";

export interface GenerateGeminiOptions {
  seed: number;
  turns: number;
  /** A top-level `summary` (the session's title). */
  summary?: string;
  /** Write the JSONL records of Gemini CLI 0.39+ instead of one document. */
  jsonl?: boolean;
}

export interface GeneratedGemini {
  text: string;
  sessionId: string;
  expected: SessionCounts;
  /** Messages in the conversation (the document's `messages`, after folding for JSONL). */
  records: number;
  /** The models of the gemini messages, in order. */
  models: string[];
  /** The conversation as a document (also for JSONL: what it folds into). */
  document: Record<string, unknown>;
}

type Rec = Record<string, unknown>;

export function generateGeminiSession(opts: GenerateGeminiOptions): GeneratedGemini {
  const rng = Rng.seeded(opts.seed);
  const sessionId = rng.uuid();
  const expected = emptyCounts();
  const models: string[] = [];
  let clock = Date.UTC(2026, 0, 10, 20, 0, 0);
  const stamp = () => {
    clock += rng.int(300, 5000);
    return new Date(clock).toISOString();
  };
  const startTime = stamp();
  const messages: Rec[] = [];
  /** JSONL records: what Gemini CLI appends, in order. */
  const records: Rec[] = [];
  const push = (m: Rec, early?: Rec) => {
    messages.push(m);
    if (early) records.push(early);
    records.push(m);
  };
  const note = (type: string, content: string) => {
    push({ id: rng.uuid(), timestamp: stamp(), type, content });
    expected.custom += 1;
  };
  note("info", "Gemini CLI update available! 0.24.0 → 0.25.1");
  let cancelledLeft = 1;
  let errorsLeft = 1;
  for (let turn = 0; turn < opts.turns; turn++) {
    const prompt = `Turn ${turn}: ${sentence(rng)}`;
    push({ id: rng.uuid(), timestamp: stamp(), type: "user", content: turn === 1 ? [{ text: prompt }] : prompt });
    expected.prompts += 1;
    if (turn === 2) note("error", "[API Error: No capacity available for model gemini-2.5-flash on the server]");
    const rounds = rng.int(1, 3);
    for (let r = 0; r < rounds; r++) {
      const final = r === rounds - 1;
      const model = turn >= Math.ceil(opts.turns / 2) ? "gemini-2.5-pro" : "gemini-2.5-flash";
      models.push(model);
      const toolCalls: Rec[] = [];
      if (!final) {
        for (let k = rng.int(1, 2); k > 0; k--) {
          const name = rng.pick(["read_file", "write_file", "run_shell_command"]);
          const id = `${name}-${clock}-${rng.hex(14)}`;
          const cancelled = cancelledLeft > 0 && turn === 1;
          const failed = !cancelled && errorsLeft > 0;
          if (cancelled) cancelledLeft -= 1;
          if (failed) errorsLeft -= 1;
          const response = failed ? { error: `File not found: src/${rng.hex(6)}.ts` } : { output: sentence(rng) };
          toolCalls.push({
            id,
            name,
            args: { file_path: `src/${rng.hex(6)}.ts` },
            ...(cancelled ? { result: null } : { result: [{ functionResponse: { id, name, response } }] }),
            status: cancelled ? "cancelled" : failed ? "error" : "success",
            timestamp: stamp(),
            displayName: name,
            description: "A tool of the generated session.",
            renderOutputAsMarkdown: true,
          });
          expected.toolCalls += 1;
          expected.toolResults += 1;
          if (cancelled || failed) expected.toolErrors += 1;
        }
      }
      const input = 9000 + turn * 700 + r * 150;
      const message: Rec = {
        id: rng.uuid(),
        timestamp: stamp(),
        type: "gemini",
        content: final || rng.chance(0.5) ? sentence(rng) : "",
        thoughts: [{ subject: `Planning step ${r}`, description: sentence(rng), timestamp: stamp() }],
        tokens: { input, output: 40 + r, cached: r === 0 ? 0 : input - 500, thoughts: 30, tool: 0, total: input + 70 + r },
        model,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
      };
      // Gemini CLI writes a response's tool calls before they have run, then the whole message again.
      const early = toolCalls.length > 0 ? { ...message, toolCalls: toolCalls.map((c) => ({ ...c, result: undefined, status: "executing" })), tokens: undefined } : undefined;
      push(message, opts.jsonl ? early : undefined);
      expected.assistants += 1;
    }
    if (turn === 0) note("warning", "Skipping unreadable file: .env");
    if (turn === 1) {
      push({ id: rng.uuid(), timestamp: stamp(), type: "mystery", content: "a message type from a later Gemini CLI" });
      expected.custom += 1;
    }
  }
  const document: Rec = {
    sessionId,
    projectHash: rng.hex(64),
    startTime,
    lastUpdated: new Date(clock).toISOString(),
    messages,
    ...(opts.summary ? { summary: opts.summary } : {}),
  };
  if (!opts.jsonl) return { text: JSON.stringify(document, null, 2), sessionId, expected, records: messages.length, models, document };

  // JSONL: a turn that was rewound (the user went back before it) comes first after the metadata.
  const { messages: _, summary, ...meta } = document;
  const rewound = { id: rng.uuid(), timestamp: startTime, type: "user", content: "A prompt the user took back" };
  const lines: Rec[] = [meta, rewound, { $rewindTo: rewound.id }, ...records];
  if (summary) lines.push({ $set: { summary } });
  return { text: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`, sessionId, expected, records: messages.length, models, document };
}
