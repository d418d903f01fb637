/**
 * Seeded synthetic Codex CLI rollout files, our own, for tests and e2e. Pure: no network, disk
 * or database access; the same options give the same bytes.
 *
 * What a file holds: `session_meta` (optionally `forked_from_id`: a fork of another rollout),
 * Codex's own context messages (environment, AGENTS.md instructions), then turns: a
 * `turn_context` (the model or effort changes now and then), the user message and its
 * `user_message` event, model responses split into items (`reasoning`, assistant `message`,
 * `function_call` / `custom_tool_call`), `token_count` events, tool outputs (some with a
 * non-zero exit code), `agent_message` events, an unknown record kind, optional `compacted`
 * records with a replacement history, and a last line cut in the middle.
 * `expected` counts what the mapping must find (count.ts terms).
 */
import { Rng } from "@/lib/random";
import { sentence } from "@/test/generators/text";
import { emptyCounts } from "@/lib/formats/count";
import type { GeneratedFile } from "./claude-code";

export interface GenerateCodexOptions {
  seed: number;
  turns: number;
  compactions?: number;
  forkedFrom?: string;
  cutLastLine?: boolean;
}

type Rec = Record<string, unknown>;

export function generateCodexSession(opts: GenerateCodexOptions): GeneratedFile {
  const rng = Rng.seeded(opts.seed);
  const sessionId = rng.uuid();
  const expected = emptyCounts();
  const lines: string[] = [];
  let clock = Date.UTC(2025, 8, 12, 14, 0, 0);
  const add = (type: string, payload: Rec) => {
    clock += rng.int(100, 3000);
    lines.push(JSON.stringify({ timestamp: new Date(clock).toISOString(), type, payload }));
  };
  const custom = (type: string, payload: Rec) => {
    add(type, payload);
    expected.custom += 1;
  };
  add("session_meta", {
    id: sessionId,
    timestamp: new Date(clock).toISOString(),
    cwd: "/home/dev/app",
    originator: "codex_cli_rs",
    cli_version: "0.46.0",
    instructions: null,
    source: "cli",
    model_provider: "openai",
    git: { commit_hash: rng.hex(40), branch: "main", repository_url: "https://example.invalid/app.git" },
    ...(opts.forkedFrom ? { forked_from_id: opts.forkedFrom } : {}),
  });
  add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "<user_instructions>\nUse tabs.\n</user_instructions>" }] });
  add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/home/dev/app</cwd>\n</environment_context>" }] });
  const compactAt = new Set<number>();
  for (let c = 0; c < (opts.compactions ?? 0); c++) compactAt.add(1 + Math.floor(((c + 1) * (opts.turns - 1)) / ((opts.compactions ?? 0) + 1)));
  let model = "gpt-5-codex";
  let effort = "medium";
  let contextChanges = 0;
  let errorsLeft = 1;
  for (let turn = 0; turn < opts.turns; turn++) {
    if (compactAt.has(turn)) {
      const summary = `Summary before turn ${turn}: ${sentence(rng)}`;
      add("compacted", { message: summary, replacement_history: [{ type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>…</environment_context>" }] }, { type: "message", role: "user", content: [{ type: "input_text", text: summary }] }] });
      expected.compactions += 1;
    }
    if (turn % 3 === 2) model = model === "gpt-5-codex" ? "gpt-5" : "gpt-5-codex";
    if (turn % 4 === 3) effort = effort === "medium" ? "high" : "medium";
    const changed = turn === 0 || turn % 3 === 2 || turn % 4 === 3;
    add("turn_context", { cwd: "/home/dev/app", approval_policy: "on-request", sandbox_policy: { mode: "workspace-write" }, model, effort, summary: "auto" });
    if (!changed) expected.custom += 1;
    else contextChanges += 1;
    const text = `Turn ${turn}: ${sentence(rng)}`;
    add("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
    expected.prompts += 1;
    custom("event_msg", { type: "user_message", message: text, images: [] });
    const rounds = rng.int(0, 2);
    for (let r = 0; r <= rounds; r++) {
      const final = r === rounds;
      add("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: `**Thinking** ${sentence(rng)}` }], content: null, encrypted_content: rng.hex(48) });
      custom("event_msg", { type: "agent_reasoning", text: sentence(rng) });
      const calls: string[] = [];
      if (final) {
        add("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: sentence(rng) }] });
        custom("event_msg", { type: "agent_message", message: "done" });
      } else {
        const n = rng.int(1, 2);
        for (let i = 0; i < n; i++) {
          const id = `call_${rng.hex(24)}`;
          calls.push(id);
          if (rng.chance(0.3)) add("response_item", { type: "custom_tool_call", status: "completed", call_id: id, name: "apply_patch", input: "*** Begin Patch\n*** End Patch" });
          else add("response_item", { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", "ls"], workdir: "/home/dev/app" }), call_id: id });
        }
      }
      const input = 2000 + turn * 900 + r * 300;
      add("event_msg", { type: "token_count", info: { total_token_usage: { input_tokens: input * 2, cached_input_tokens: input, output_tokens: 400, reasoning_output_tokens: 64, total_tokens: input * 2 + 400 }, last_token_usage: { input_tokens: input, cached_input_tokens: input - 500, output_tokens: 120, reasoning_output_tokens: 32, total_tokens: input + 120 }, model_context_window: 272000 }, rate_limits: null });
      expected.assistants += 1;
      expected.toolCalls += calls.length;
      for (const id of calls) {
        const failed = errorsLeft > 0 || rng.chance(0.15);
        if (failed) errorsLeft -= 1;
        add("response_item", { type: "function_call_output", call_id: id, output: JSON.stringify({ output: failed ? "ls: cannot access: No such file" : "src\ntest\n", metadata: { exit_code: failed ? 2 : 0, duration_seconds: 0.1 } }) });
        expected.toolResults += 1;
        if (failed) expected.toolErrors += 1;
      }
    }
    if (turn === 1) custom("mystery_kind", { anything: true });
  }
  void contextChanges;
  let text = `${lines.join("\n")}\n`;
  const records = lines.length;
  if (opts.cutLastLine) {
    const extra = JSON.stringify({ timestamp: new Date(clock + 1000).toISOString(), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "cut" }] } });
    text += extra.slice(0, Math.floor(extra.length / 2));
  }
  return { text, sessionId, expected, records };
}
