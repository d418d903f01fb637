/**
 * Seeded synthetic Claude Code session files, our own, for tests and e2e (no real sessions
 * needed). Pure: no network, disk or database access; the same options give the same bytes.
 *
 * What a file holds: a leading file-history snapshot; turns of a prompt, then model responses
 * written the way Claude Code writes them (one record per content block, sharing `message.id`),
 * tool_use blocks answered by tool_result user records (some `is_error`), progress and
 * attachment records in the chain, queue operations, `isMeta` records, an unknown record kind;
 * optional branches (a prompt re-asked from an earlier point), compactions (compact_boundary +
 * isCompactSummary), a sidechain (its own root, `isSidechain`), summary records (one naming a
 * leaf of this file, one naming another file), Task calls whose subagents run in their own files
 * (claude-subagent.ts), and a last line cut in the middle.
 * `expected` counts what the mapping must find (count.ts terms).
 */
import { Rng } from "@/lib/random";
import { sentence } from "@/test/generators/text";
import { emptyCounts, type SessionCounts } from "@/lib/formats/count";
import { type GeneratedSubagent, generateClaudeCodeSubagent } from "./claude-subagent";

export interface GenerateClaudeOptions {
  seed: number;
  turns: number;
  branches?: number;
  compactions?: number;
  sidechain?: boolean;
  /** Cut the file in the middle of its last line (that record is lost). */
  cutLastLine?: boolean;
  /** Task tool calls run by subagents, one in each of the first turns; their files are in `subagents`. */
  subagents?: number;
}

export interface GeneratedFile {
  text: string;
  sessionId: string;
  expected: SessionCounts;
  /** Number of JSON records in the file (a cut last line not counted). */
  records: number;
  /** The subagent files of its Task calls (`subagents` option). */
  subagents?: GeneratedSubagent[];
}

type Rec = Record<string, unknown>;

export function generateClaudeCodeSession(opts: GenerateClaudeOptions): GeneratedFile {
  const rng = Rng.seeded(opts.seed);
  const sessionId = rng.uuid();
  const expected = emptyCounts();
  const records: Rec[] = [];
  let clock = Date.UTC(2025, 5, 1, 9, 0, 0);
  let tail: string | null = null;
  const turnEnds: string[] = [];
  const common = (sidechain = false) => ({ isSidechain: sidechain, userType: "external", cwd: "/home/dev/project", sessionId, version: "2.0.14", gitBranch: "main" });
  const stamp = () => {
    clock += rng.int(200, 4000);
    return new Date(clock).toISOString();
  };
  const chained = (rec: Rec, sidechain = false): string => {
    const uuid = rng.uuid();
    records.push({ parentUuid: tail, ...common(sidechain), ...rec, uuid, timestamp: stamp() });
    tail = uuid;
    return uuid;
  };
  const prompt = (text: string, sidechain = false) => {
    chained({ type: "user", message: { role: "user", content: text } }, sidechain);
    expected.prompts += 1;
  };
  const response = (final: boolean, sidechain = false) => {
    const id = `msg_${rng.hex(20)}`;
    const model = "claude-sonnet-4-5-20250929";
    const usage = { input_tokens: rng.int(5, 50), cache_creation_input_tokens: rng.int(0, 2000), cache_read_input_tokens: rng.int(1000, 30000), output_tokens: rng.int(20, 900) };
    const blocks: Rec[] = [];
    if (rng.chance(0.4)) blocks.push({ type: "thinking", thinking: sentence(rng), signature: rng.hex(40) });
    blocks.push({ type: "text", text: sentence(rng) });
    const calls = final ? 0 : rng.int(1, 3);
    for (let i = 0; i < calls; i++) blocks.push({ type: "tool_use", id: `toolu_${rng.hex(20)}`, name: rng.pick(["Read", "Bash", "Edit", "Grep"]), input: { file_path: `/home/dev/project/src/f${i}.ts` } });
    blocks.forEach((b, i) => {
      const last = i === blocks.length - 1;
      chained({ type: "assistant", requestId: `req_${rng.hex(12)}`, message: { id, type: "message", role: "assistant", model, content: [b], stop_reason: last ? (calls > 0 ? "tool_use" : "end_turn") : null, stop_sequence: null, usage } }, sidechain);
    });
    expected.assistants += 1;
    expected.toolCalls += calls;
    if (calls > 0 && rng.chance(0.3)) {
      chained({ type: "progress", data: { type: "hook_progress", hookName: "PreToolUse" }, toolUseID: blocks.at(-1)!.id });
      expected.custom += 1;
    }
    for (const b of blocks.filter((x) => x.type === "tool_use")) {
      const isError = (expected.toolErrors === 0 && expected.toolResults === 1) || rng.chance(0.2);
      const result = isError ? "Error: file not found" : sentence(rng);
      chained({ type: "user", message: { role: "user", content: [{ tool_use_id: b.id, type: "tool_result", content: result, ...(isError ? { is_error: true } : {}) }] }, toolUseResult: isError ? result : { stdout: result, stderr: "" } }, sidechain);
      expected.toolResults += 1;
      if (isError) expected.toolErrors += 1;
    }
  };

  const subagents: GeneratedSubagent[] = [];
  // A Task call: the subagent runs in its own file; the result names it by agentId.
  const task = (turn: number) => {
    const agentId = rng.hex(8);
    const toolId = `toolu_${rng.hex(20)}`;
    const taskPrompt = `Subtask ${turn}: ${sentence(rng)}`;
    const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 40 };
    chained({ type: "assistant", message: { id: `msg_${rng.hex(20)}`, type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [{ type: "tool_use", id: toolId, name: "Task", input: { description: `Subtask ${turn}`, prompt: taskPrompt, subagent_type: "general-purpose" } }], stop_reason: "tool_use", usage } });
    const sub = generateClaudeCodeSubagent({ seed: opts.seed * 1000 + turn, sessionId, agentId, prompt: taskPrompt, start: clock });
    subagents.push(sub);
    chained({ type: "user", message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content: [{ type: "text", text: sub.answer }] }] }, toolUseResult: { status: "completed", prompt: taskPrompt, agentId, content: [{ type: "text", text: sub.answer }], totalDurationMs: 4200, totalTokens: 5000, totalToolUseCount: sub.expected.toolCalls } });
    expected.assistants += 1;
    expected.toolCalls += 1;
    expected.toolResults += 1;
  };

  records.push({ type: "file-history-snapshot", messageId: rng.uuid(), snapshot: { trackedFileBackups: {}, timestamp: stamp() }, isSnapshotUpdate: false });
  expected.custom += 1;
  const branchAt = new Set<number>();
  for (let b = 0; b < (opts.branches ?? 0); b++) branchAt.add(2 + Math.floor(((b + 1) * (opts.turns - 2)) / ((opts.branches ?? 0) + 1)));
  const compactAt = new Set<number>();
  for (let c = 0; c < (opts.compactions ?? 0); c++) compactAt.add(1 + Math.floor(((c + 1) * (opts.turns - 1)) / ((opts.compactions ?? 0) + 1)));
  for (let turn = 0; turn < opts.turns; turn++) {
    if (branchAt.has(turn) && turnEnds.length >= 2) tail = turnEnds[turnEnds.length - 2]!;
    if (compactAt.has(turn)) {
      const logical = tail;
      tail = null;
      chained({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", isMeta: false, level: "info", logicalParentUuid: logical, compactMetadata: { trigger: "auto", preTokens: 150_000 + turn } });
      chained({ type: "user", isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: "user", content: `This session is being continued. Summary of turn ${turn}: ${sentence(rng)}` } });
      expected.compactions += 1;
    }
    if (turn % 4 === 1) {
      records.push({ type: "queue-operation", operation: "enqueue", timestamp: stamp(), content: "later", sessionId });
      expected.custom += 1;
    }
    if (turn % 5 === 2) {
      chained({ type: "user", isMeta: true, message: { role: "user", content: "<local-command-caveat>Caveat: generated by a local command.</local-command-caveat>" } });
      expected.custom += 1;
    }
    prompt(`Turn ${turn}: ${sentence(rng)}`);
    if (turn < (opts.subagents ?? 0)) task(turn);
    if (turn % 3 === 0) {
      chained({ type: "attachment", attachment: { type: "todo_reminder", content: [] } });
      expected.custom += 1;
    }
    const rounds = rng.int(0, 2);
    for (let r = 0; r < rounds; r++) response(false);
    response(true);
    if (turn === 1) {
      chained({ type: "system", subtype: "local_command", content: "<command-name>/cost</command-name>", level: "info" });
      chained({ type: "mystery-kind", payload: { anything: [1, 2, 3] } });
      expected.custom += 2;
    }
    turnEnds.push(tail!);
  }
  const mainLeaf = tail!;
  if (opts.sidechain) {
    tail = null;
    prompt("Sidechain task: look around", true);
    response(true, true);
    // The file's last records continue the main chain, so the leaf is on it.
    tail = mainLeaf;
    prompt("Back on the main chain");
    response(true);
  }
  const leaf = tail!;
  const lines = [
    JSON.stringify({ type: "summary", summary: "Generated work session", leafUuid: leaf }),
    JSON.stringify({ type: "summary", summary: "Named in another file", leafUuid: rng.uuid() }),
    ...records.map((r) => JSON.stringify(r)),
  ];
  expected.labels += 1;
  expected.custom += 1;
  let text = `${lines.join("\n")}\n`;
  let count = lines.length;
  if (opts.cutLastLine) {
    const extra = JSON.stringify({ parentUuid: leaf, ...common(), type: "user", message: { role: "user", content: "cut" }, uuid: rng.uuid(), timestamp: stamp() });
    text += extra.slice(0, Math.floor(extra.length / 2));
    count += 0;
  }
  return { text, sessionId, expected, records: count, ...(subagents.length > 0 ? { subagents } : {}) };
}
