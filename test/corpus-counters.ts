/**
 * What a real session file holds, counted straight from its raw records, for the corpus test
 * (test/formats-corpus.test.ts). Written from each format's own rules, never with Arbor's
 * mappers (lib/formats), so a mapping bug cannot hide behind the counts it produced.
 *
 * One counter per format, each giving the counts of the file's main session and of the sessions
 * it holds of its own (Claude Code sidechain runs written inline). Another format is added by
 * adding a counter to CORPUS_FORMATS.
 */
import type { FormatId } from "@/lib/formats/types";

export interface RawCounts {
  /** Prompts a person typed. */
  prompts: number;
  toolCalls: number;
  toolResults: number;
  compactions: number;
  /** Points where the conversation goes on in two or more ways. */
  forks: number;
  /** The model of the last model response, "provider/model"; null when none. */
  model: string | null;
}

export interface FileCounts {
  main: RawCounts;
  /** Sessions the file holds of its own, in the order they start. */
  sides: RawCounts[];
  /** The session's title, where the file says it plainly (a title record, a typed prompt without markup). */
  title?: string;
}

export interface CorpusFormat {
  /** Folder under fixtures/formats/. */
  folder: string;
  format: FormatId;
  count(text: string): FileCounts;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON objects of a JSONL text; a line of two objects back to back gives both (pi's write bug). */
export function jsonObjects(text: string): Rec[] {
  const out: Rec[] = [];
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    try {
      const v: unknown = JSON.parse(t);
      if (isRec(v)) out.push(v);
      continue;
    } catch {
      // Maybe several objects: try each "}{" seam until both sides parse.
    }
    for (let at = t.indexOf("}{"); at !== -1; at = t.indexOf("}{", at + 1)) {
      try {
        const a: unknown = JSON.parse(t.slice(0, at + 1));
        const b: unknown = JSON.parse(t.slice(at + 1));
        if (isRec(a) && isRec(b)) out.push(a, b);
        break;
      } catch {
        // Not this seam.
      }
    }
  }
  return out;
}

function forksOf(children: Map<string, Set<string>>): number {
  let n = 0;
  for (const kids of children.values()) if (kids.size >= 2) n += 1;
  return n;
}

function addChild(children: Map<string, Set<string>>, parent: string | undefined, child: string): void {
  if (parent === undefined || parent === child) return;
  const kids = children.get(parent) ?? new Set<string>();
  kids.add(child);
  children.set(parent, kids);
}

// ---- Claude Code -----------------------------------------------------------------------------

const CLAUDE_NOT_TYPED = /^\s*(<local-command-(stdout|stderr|caveat)>|<task-notification>|<bash-(stdout|stderr)>|\[Request interrupted by user)/;

function claudeBlocks(rec: Rec): Rec[] {
  const content = isRec(rec.message) ? rec.message.content : undefined;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isRec) : [];
}

/** One conversation thread of Claude Code records (the main thread, or one sidechain run). */
function claudeThread(records: Rec[]): RawCounts {
  const c: RawCounts = { prompts: 0, toolCalls: 0, toolResults: 0, compactions: 0, forks: 0, model: null };
  // The tree of model responses and prompts: one node per response (its records share
  // message.id), tool results belong to the response that called them, and records that are
  // not part of the conversation pass their place on to the records under them.
  const nodeOf = new Map<string, string>();
  const children = new Map<string, Set<string>>();
  const callNode = new Map<string, string>();
  for (const r of records) {
    const uuid = typeof r.uuid === "string" ? r.uuid : undefined;
    const parentUuid = r.type === "system" && r.subtype === "compact_boundary" ? r.logicalParentUuid : r.parentUuid;
    const parent = typeof parentUuid === "string" ? (nodeOf.get(parentUuid) ?? undefined) : undefined;
    const blocks = claudeBlocks(r);
    let node: string | undefined = parent;
    if (r.type === "assistant" && isRec(r.message) && r.isMeta !== true) {
      const model = typeof r.message.model === "string" ? r.message.model : undefined;
      if (model && model !== "<synthetic>") c.model = `anthropic/${model}`;
      node = `m:${typeof r.message.id === "string" ? r.message.id : uuid}`;
      addChild(children, parent, node);
      for (const b of blocks) {
        if (b.type !== "tool_use") continue;
        c.toolCalls += 1;
        if (typeof b.id === "string") callNode.set(b.id, node);
      }
    } else if (r.type === "user" && isRec(r.message) && r.isMeta !== true && r.isCompactSummary !== true) {
      const results = blocks.filter((b) => b.type === "tool_result");
      const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string" && b.text !== "");
      c.toolResults += results.length;
      if (results.length > 0 && texts.length === 0) {
        node = callNode.get(String(results[0]!.tool_use_id)) ?? parent;
      } else {
        if (texts.length > 0 && !CLAUDE_NOT_TYPED.test(String(texts[0]!.text))) c.prompts += 1;
        node = uuid;
        if (node) addChild(children, parent, node);
      }
    } else if (r.type === "system" && r.subtype === "compact_boundary") {
      c.compactions += 1;
      node = uuid;
      if (node) addChild(children, parent, node);
    } else if (r.type === "system" && r.subtype === "api_error") {
      node = uuid;
      if (node) addChild(children, parent, node);
    } else if (r.type === "user" && r.isCompactSummary === true) {
      node = parent;
    }
    if (uuid && node) nodeOf.set(uuid, node);
  }
  c.forks = forksOf(children);
  return c;
}

const claude: CorpusFormat = {
  folder: "claude",
  format: "claude-code",
  count(text) {
    const records = jsonObjects(text);
    const firstTurn = records.find((r) => r.type === "user" || r.type === "assistant");
    const titled = records.filter((r) => r.type === "ai-title" && typeof r.aiTitle === "string").at(-1);
    const typed = records.find((r) => r.type === "user" && r.isMeta !== true && typeof (isRec(r.message) ? r.message.content : undefined) === "string");
    const typedText = typed && isRec(typed.message) ? String(typed.message.content) : undefined;
    const title = titled ? String(titled.aiTitle) : typedText && !typedText.includes("<") && !CLAUDE_NOT_TYPED.test(typedText) ? typedText : undefined;
    // A subagent's own file: every record is a sidechain record, and all of it is one session.
    if (firstTurn?.isSidechain === true) return { main: claudeThread(records), sides: [], ...(title ? { title } : {}) };
    const main = records.filter((r) => r.isSidechain !== true);
    // Sidechain runs: a record joins the run of its parent, else starts one.
    const runOf = new Map<string, number>();
    const runs: Rec[][] = [];
    for (const r of records) {
      if (r.isSidechain !== true) continue;
      let run = typeof r.parentUuid === "string" ? runOf.get(r.parentUuid) : undefined;
      if (run === undefined) {
        run = runs.length;
        runs.push([]);
      }
      runs[run]!.push(r);
      if (typeof r.uuid === "string") runOf.set(r.uuid, run);
    }
    return { main: claudeThread(main), sides: runs.map(claudeThread), ...(title ? { title } : {}) };
  },
};

// ---- Codex CLI -------------------------------------------------------------------------------

const CODEX_CALLS = new Set(["function_call", "custom_tool_call", "local_shell_call", "tool_search_call"]);

const codex: CorpusFormat = {
  folder: "codex",
  format: "codex",
  count(text) {
    const c: RawCounts = { prompts: 0, toolCalls: 0, toolResults: 0, compactions: 0, forks: 0, model: null };
    let provider = "openai";
    let title: string | undefined;
    for (const r of jsonObjects(text)) {
      const p = isRec(r.payload) ? r.payload : {};
      if (r.type === "session_meta" && typeof p.model_provider === "string") provider = p.model_provider;
      if (r.type === "turn_context" && typeof p.model === "string") c.model = `${provider}/${p.model}`;
      // Codex records each prompt a person typed as a user_message event.
      if (r.type === "event_msg" && p.type === "user_message") {
        c.prompts += 1;
        if (typeof p.message === "string") title ??= p.message;
      }
      if (r.type === "response_item" && CODEX_CALLS.has(String(p.type))) c.toolCalls += 1;
      if (r.type === "response_item" && String(p.type).endsWith("_output")) c.toolResults += 1;
      if (r.type === "compacted") c.compactions += 1;
    }
    // A rollout is one line of events: no forks (a fork is another file).
    return { main: c, sides: [], ...(title ? { title } : {}) };
  },
};

// ---- pi --------------------------------------------------------------------------------------

/** A pi file, or Arbor's pi v3 export of any session. */
export function countPi(text: string): RawCounts {
  const c: RawCounts = { prompts: 0, toolCalls: 0, toolResults: 0, compactions: 0, forks: 0, model: null };
  const children = new Map<string, Set<string>>();
  for (const e of jsonObjects(text)) {
    if (typeof e.id === "string" && typeof e.parentId === "string") addChild(children, e.parentId, e.id);
    if (e.type === "compaction") c.compactions += 1;
    if (e.type === "model_change") {
      if (typeof e.model === "string") c.model = e.model;
      else if (typeof e.provider === "string" && typeof e.modelId === "string") c.model = `${e.provider}/${e.modelId}`;
    }
    const m = isRec(e.message) ? e.message : undefined;
    if (e.type !== "message" || !m) continue;
    if (m.role === "user" && m.synthetic !== true) c.prompts += 1;
    if (m.role === "toolResult") c.toolResults += 1;
    if (m.role === "assistant") {
      if (Array.isArray(m.content)) c.toolCalls += m.content.filter((b) => isRec(b) && b.type === "toolCall").length;
      if (typeof m.provider === "string" && typeof m.model === "string") c.model = `${m.provider}/${m.model}`;
    }
  }
  c.forks = forksOf(children);
  return c;
}

const pi: CorpusFormat = {
  folder: "pi",
  format: "pi",
  count(text) {
    const entries = jsonObjects(text);
    const named = entries.filter((e) => e.type === "session_info" && typeof e.name === "string").at(-1);
    const first = entries.find((e) => e.type === "message" && isRec(e.message) && e.message.role === "user");
    const content = first && isRec(first.message) ? first.message.content : undefined;
    const firstText = typeof content === "string" ? content : Array.isArray(content) ? content.find((b) => isRec(b) && b.type === "text")?.text : undefined;
    const title = named ? String(named.name) : typeof firstText === "string" && !firstText.startsWith("/") ? firstText : undefined;
    return { main: countPi(text), sides: [], ...(title ? { title } : {}) };
  },
};

export const CORPUS_FORMATS: CorpusFormat[] = [claude, codex, pi];
