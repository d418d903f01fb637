/**
 * Seeded synthetic opencode sessions, our own, for tests and e2e. Pure: no network, disk or
 * database access; the same options give the same bytes.
 *
 * What a session holds: `info` (id, slug, projectID, directory, title, version, time, and
 * `parentID` for a child session), then turns: the user's prompt (one names a file: a `file` part
 * and the synthetic text parts opencode adds), assistant messages of one step each (`step-start`,
 * `reasoning`, `text`, `tool` parts — completed, one error, one still running at the end — then
 * `step-finish` with tokens and cost), `patch` parts, a `retry` part, a part type opencode may add
 * later, one assistant message of two steps (older opencode), optional compactions (a user
 * message with a `compaction` part answered by a `summary` message) and a `task` call whose
 * child session is generated too (`subagent`). `text` is the export (`opencode export`, two-space
 * JSON); `storage` the same session as opencode's storage folder holds it (one file per object).
 * `expected` counts what the mapping must find (lib/formats/count.ts terms).
 */
import { emptyCounts, type SessionCounts } from "@/lib/formats/count";
import { Rng } from "@/lib/random";
import { sentence } from "@/test/generators/text";

export interface GenerateOpencodeOptions {
  seed: number;
  turns: number;
  compactions?: number;
  /** Give the first turn a `task` call whose child session is generated as `child`. */
  subagent?: boolean;
  /** Make this a child session of that session id. */
  parentID?: string;
}

export interface GeneratedOpencode {
  text: string;
  sessionId: string;
  projectId: string;
  title: string;
  expected: SessionCounts;
  /** Messages in the export. */
  records: number;
  models: string[];
  document: { info: Rec; messages: { info: Rec; parts: Rec[] }[] };
  /** The storage folder's files, path (relative to `storage/`) → contents. */
  storage: Record<string, string>;
  child?: GeneratedOpencode;
}

type Rec = Record<string, unknown>;

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function generateOpencodeSession(opts: GenerateOpencodeOptions): GeneratedOpencode {
  const rng = Rng.seeded(opts.seed);
  let counter = 0x0d02be000000 + opts.seed * 0x1000;
  // opencode ids sort in creation order: a prefix, 12 hex digits of time, 14 random characters.
  const newId = (prefix: string) => `${prefix}_${(counter++).toString(16).padStart(12, "0")}${Array.from({ length: 14 }, () => B62[rng.int(0, 61)]).join("")}`;
  const sessionId = newId("ses");
  const projectId = rng.hex(40);
  const expected = emptyCounts();
  const models: string[] = [];
  let clock = Date.UTC(2026, 2, 18, 21, 0, 0);
  const tick = () => (clock += rng.int(200, 4000));
  const created = tick();
  const title = opts.parentID ? `Explore the code (@explore subagent)` : `Generated session ${opts.seed}`;
  const info: Rec = {
    id: sessionId,
    slug: "quick-panda",
    projectID: projectId,
    directory: "/home/dev/app",
    ...(opts.parentID ? { parentID: opts.parentID } : {}),
    title,
    version: "1.2.27",
    summary: { additions: 3, deletions: 1, files: 1 },
    time: { created, updated: created },
  };
  const messages: { info: Rec; parts: Rec[] }[] = [];
  const message = (m: Rec, parts: Rec[]) => {
    const id = newId("msg");
    const full = { info: { ...m, id, sessionID: sessionId }, parts: parts.map((p) => ({ ...p, id: newId("prt"), sessionID: sessionId, messageID: id })) };
    messages.push(full);
    return id;
  };
  let child: GeneratedOpencode | undefined;
  let userId = "";
  const user = (parts: Rec[]) => {
    userId = message({ role: "user", time: { created: tick() }, agent: "build", model: { providerID: "anthropic", modelID: "claude-opus-4-6" } }, parts);
  };
  let errorsLeft = 1;
  const assistant = (steps: Rec[][], extra: Rec = {}) => {
    const model = messages.length > opts.turns * 2 ? "claude-sonnet-4-5" : "claude-opus-4-6";
    const start = tick();
    let cost = 0;
    const parts: Rec[] = [];
    for (const step of steps) {
      const input = 3 + rng.int(0, 40);
      const stepCost = Math.round(rng.next() * 5000) / 100000;
      cost += stepCost;
      const tokens = { total: input + 300 + 20000, input, output: 300, reasoning: 0, cache: { read: 20000 - input, write: input } };
      const calls = step.filter((p) => p.type === "tool").length;
      parts.push({ type: "step-start", snapshot: rng.hex(40) }, ...step, { type: "step-finish", reason: calls > 0 ? "tool-calls" : "stop", snapshot: rng.hex(40), cost: stepCost, tokens });
      models.push(model);
      expected.assistants += 1;
    }
    const finish = parts.filter((p) => p.type === "step-finish").at(-1)?.reason;
    message({ role: "assistant", time: { created: start, completed: tick() }, parentID: userId, modelID: model, providerID: "anthropic", mode: "build", agent: "build", path: { cwd: "/home/dev/app", root: "/home/dev/app" }, cost, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, finish, ...extra }, parts);
  };
  const tool = (name: string, input: Rec, status: "completed" | "error" | "running", metadata: Rec = {}): Rec => {
    expected.toolCalls += 1;
    expected.toolResults += 1;
    if (status !== "completed") expected.toolErrors += 1;
    const time = { start: tick(), end: tick() };
    const state =
      status === "completed"
        ? { status, input, output: sentence(rng), title: name, metadata, time }
        : status === "error"
          ? { status, input, error: `Error: ${sentence(rng)}`, metadata, time }
          : { status, input, title: name, time: { start: time.start } };
    return { type: "tool", callID: `toolu_${rng.hex(24)}`, tool: name, state };
  };
  const custom = (part: Rec): Rec => {
    expected.custom += 1;
    return part;
  };
  const compactAt = new Set<number>();
  for (let c = 0; c < (opts.compactions ?? 0); c++) compactAt.add(1 + Math.floor(((c + 1) * (opts.turns - 1)) / ((opts.compactions ?? 0) + 1)));

  for (let turn = 0; turn < opts.turns; turn++) {
    if (compactAt.has(turn)) {
      user([{ type: "compaction", auto: true }]);
      message({ role: "assistant", time: { created: tick(), completed: tick() }, parentID: userId, modelID: "claude-opus-4-6", providerID: "anthropic", mode: "compaction", agent: "compaction", summary: true, cost: 0.01, tokens: { input: 5, output: 800, reasoning: 0, cache: { read: 0, write: 0 } }, finish: "stop", path: { cwd: "/home/dev/app", root: "/home/dev/app" } }, [
        { type: "step-start" },
        { type: "text", text: `Summary before turn ${turn}: ${sentence(rng)}` },
        { type: "step-finish", reason: "stop", cost: 0.01, tokens: { input: 5, output: 800, reasoning: 0, cache: { read: 0, write: 0 } } },
      ]);
      expected.compactions += 1;
    }
    const prompt = `Turn ${turn}: ${sentence(rng)}`;
    if (turn === 1) {
      user([
        { type: "text", text: `${prompt} @src/app.ts` },
        { type: "text", text: 'Called the Read tool with the following input: {"filePath":"/home/dev/app/src/app.ts"}', synthetic: true },
        { type: "text", text: "<file>\n00001| export const app = 1;\n</file>", synthetic: true },
        { type: "file", mime: "text/plain", filename: "src/app.ts", url: "file:///home/dev/app/src/app.ts", source: { type: "file", path: "src/app.ts", text: { value: "@src/app.ts", start: 0, end: 11 } } },
      ]);
    } else user([{ type: "text", text: prompt }]);
    expected.prompts += 1;
    const rounds = rng.int(1, 2);
    for (let r = 0; r < rounds; r++) {
      const calls: Rec[] = [];
      if (turn === 0 && r === 0 && opts.subagent) {
        child = generateOpencodeSession({ seed: opts.seed + 500, turns: 1, parentID: sessionId });
        calls.push(tool("task", { description: "Explore the code", prompt: "Find the app entry point", subagent_type: "explore" }, "completed", { sessionId: child.sessionId, summary: [] }));
      } else {
        const failed = errorsLeft > 0 && turn === 1;
        if (failed) errorsLeft -= 1;
        calls.push(tool("read", { filePath: `/home/dev/app/src/${rng.hex(6)}.ts` }, failed ? "error" : "completed"));
      }
      assistant([[{ type: "reasoning", text: sentence(rng), time: { start: tick(), end: tick() } }, { type: "text", text: sentence(rng) }, ...calls]]);
    }
    const tail: Rec[] = [{ type: "text", text: sentence(rng) }];
    if (turn === 0) tail.push(custom({ type: "patch", hash: rng.hex(40), files: ["/home/dev/app/src/app.ts"] }));
    if (turn === 1) tail.push(custom({ type: "mystery-part", anything: [1, 2, 3] }));
    if (turn === 2) tail.unshift(custom({ type: "retry", attempt: 1, error: { name: "APIError", data: { message: "Overloaded", isRetryable: true } }, time: { created: tick() } }));
    if (turn === 3) {
      // An older opencode wrote several steps in one assistant message.
      assistant([[{ type: "text", text: sentence(rng) }, tool("glob", { pattern: "**/*.ts" }, "completed")], tail]);
    } else assistant([tail]);
  }
  if (!opts.parentID) {
    user([{ type: "text", text: "One more thing: run the tests" }]);
    expected.prompts += 1;
    assistant([[{ type: "text", text: "Running them." }, tool("bash", { command: "npm test" }, "running")]], { error: { name: "MessageAbortedError", data: { message: "The operation was aborted." } }, finish: undefined });
  }
  info.time = { created, updated: clock };
  const document = { info, messages };
  const storage: Record<string, string> = { [`session/${projectId}/${sessionId}.json`]: JSON.stringify(info, null, 2) };
  for (const m of messages) {
    storage[`message/${sessionId}/${m.info.id}.json`] = JSON.stringify(m.info, null, 2);
    for (const p of m.parts) storage[`part/${m.info.id}/${p.id}.json`] = JSON.stringify(p, null, 2);
  }
  return { text: JSON.stringify(document, null, 2), sessionId, projectId, title, expected, records: messages.length, models, document, storage, ...(child ? { child } : {}) };
}
