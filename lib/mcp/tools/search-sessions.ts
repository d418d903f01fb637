/**
 * `search_sessions`: full-text search over every session (the home list's search,
 * lib/db search/session-list: words, prefix match, all words required; no regex), or over one
 * session's entries (the tree's search, lib/session/search-text.ts). Filters: agent (the
 * imported file's format; "arbor" for sessions begun in Arbor), project (a substring of the
 * working directory), date and model. Paged by an opaque cursor, capped in bytes.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { findSessionSource, listSessions, type SessionSummary } from "@/lib/db";
import { matchingIds } from "@/lib/session/search-text";
import { searchableText } from "@/lib/session/tree/tree-row-text";
import { answer, clipText, DEFAULT_MAX_BYTES, maxBytesSchema, offsetSchema, pageOf, ToolInputError } from "../bounded";
import { allEntries, findSession, sessionMeta } from "../sessions";

/** Sessions of the list read per page (a cursor resumes inside a page). */
const PAGE = 25;
const SNIPPET = 240;
const REGEX_SIGNS = /[\\^$*+?()[\]{}|]|\.\*/;

const inputSchema = {
  query: z.string().min(1).max(400).describe("Words to find (all required, prefix match). Plain words only: regular expressions are refused."),
  session: z.string().min(1).optional().describe("Search inside this session only: every matching entry."),
  agent: z.string().min(1).optional().describe('The agent that wrote the session: "pi", "claude-code", "codex", "gemini", "opencode", or "arbor".'),
  project: z.string().min(1).optional().describe("A part of the session's working directory."),
  after: z.iso.date().optional().describe("Only sessions active on or after this day (YYYY-MM-DD)."),
  before: z.iso.date().optional().describe("Only sessions created on or before this day (YYYY-MM-DD)."),
  model: z.string().min(1).optional().describe('A part of the session\'s last model ("provider/modelId").'),
  cursor: z.string().optional().describe("The `next` of a previous answer."),
  offset: offsetSchema,
  maxBytes: maxBytesSchema,
};
type Input = { [K in keyof typeof inputSchema]: z.infer<(typeof inputSchema)[K]> };

interface Hit {
  session: string;
  title: string | null;
  model: string | null;
  lastActivityAt: string;
  /** The first entry holding all the words; absent when only the title matched. */
  entry?: string;
  snippet?: string;
}

function refuseRegex(query: string): void {
  if (REGEX_SIGNS.test(query)) {
    throw new ToolInputError(`search_sessions takes plain words, not a regular expression: "${query}" holds ${query.match(REGEX_SIGNS)![0]}`);
  }
}

function decodeCursor(raw: string | undefined): { c: string | null; s: number } {
  if (!raw) return { c: null, s: 0 };
  try {
    const v: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (Array.isArray(v) && (typeof v[0] === "string" || v[0] === null) && Number.isInteger(v[1]) && v[1] >= 0) return { c: v[0], s: v[1] };
  } catch {}
  throw new ToolInputError(`cursor "${raw}" is not one this server gave`);
}
const encodeCursor = (c: string | null, s: number) => Buffer.from(JSON.stringify([c, s])).toString("base64url");

async function agentOf(id: string): Promise<string> {
  return (await findSessionSource({ sessionId: id }))?.format ?? "arbor";
}

async function passes(s: SessionSummary, input: Input): Promise<boolean> {
  if (input.model && !(s.model ?? "").toLowerCase().includes(input.model.toLowerCase())) return false;
  if (input.after && s.lastActivityAt.slice(0, 10) < input.after) return false;
  if (input.before && s.createdAt.slice(0, 10) > input.before) return false;
  if (input.project) {
    const meta = await findSession(s.id);
    if (!meta?.cwd.toLowerCase().includes(input.project.toLowerCase())) return false;
  }
  if (input.agent && (await agentOf(s.id)) !== input.agent) return false;
  return true;
}

async function searchAll(input: Input) {
  const maxBytes = input.maxBytes ?? DEFAULT_MAX_BYTES;
  const { c, s } = decodeCursor(input.cursor);
  const page = await listSessions({ query: input.query, cursor: c, limit: PAGE });
  if (s > page.sessions.length) throw new ToolInputError(`cursor "${input.cursor}" points past its page`);
  const hits: Hit[] = [];
  let used = 200;
  let i = s;
  for (; i < page.sessions.length; i++) {
    const summary = page.sessions[i]!;
    if (!(await passes(summary, input))) continue;
    const { id, title, model, lastActivityAt, match } = summary;
    const hit: Hit = { session: id, title, model, lastActivityAt };
    if (match) Object.assign(hit, { entry: match.entryId, snippet: clipText(match.snippet, SNIPPET) });
    const size = Buffer.byteLength(JSON.stringify(hit)) + 4;
    if (used + size > maxBytes) break;
    hits.push(hit);
    used += size;
  }
  const next = i < page.sessions.length ? encodeCursor(c, i) : page.nextCursor ? encodeCursor(page.nextCursor, 0) : null;
  return answer({ query: input.query, hits, truncated: next !== null, next });
}

async function searchOne(input: Input, id: string) {
  const meta = await sessionMeta(id);
  const entries = await allEntries(meta);
  const labels = new Map<string, string>();
  for (const e of entries) if (e.type === "label") e.label ? labels.set(e.targetId, e.label) : labels.delete(e.targetId);
  const ids = matchingIds({ entries, labels, query: input.query }) ?? [];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const words = input.query.toLowerCase().split(/\s+/).filter(Boolean);
  const hits = ids.map((entryId) => {
    // The snippet keeps the entry's own case; the words are found in its lowercased form.
    const text = searchableText(byId.get(entryId)!, undefined);
    const lower = text.toLowerCase();
    // A match by the label alone has no word in the text: the snippet is its start.
    const first = Math.min(...words.map((w) => lower.indexOf(w)).filter((n) => n >= 0));
    const at = Number.isFinite(first) ? Math.max(0, first - 60) : 0;
    return { session: id, entry: entryId, snippet: text.slice(at, at + SNIPPET).replace(/\s+/g, " ").trim() };
  });
  return answer(await pageOf(hits, { offset: input.offset, maxBytes: input.maxBytes, head: { query: input.query, session: id }, what: "hits" }));
}

export function registerSearchSessions(server: McpServer): void {
  server.registerTool(
    "search_sessions",
    {
      title: "Search past sessions",
      description:
        "Full-text search over every Arbor session (or one, with `session`): each hit names the session, the first entry holding all the words and a snippet. Filters: agent, project, after/before, model. Paged: pass `next` back as `cursor` (or `offset` inside one session).",
      inputSchema,
      annotations: { readOnlyHint: true },
    },
    async (input) => {
      refuseRegex(input.query);
      return input.session ? searchOne(input, input.session) : searchAll(input);
    },
  );
}
