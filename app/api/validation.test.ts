/**
 * Every route handler and server action is a public endpoint (conventions rule 3): bad input
 * gets a clear 4xx — never a 500 — with an `error` a person can read: wrong types, missing
 * fields, unknown ids, oversized bodies, malformed JSON, wrong content types.
 *
 * The routes are found by globbing app/api/**\/route.ts, and every exported HTTP method must
 * have a row in ROUTES below: a new route (or method) without bad-input cases fails this test.
 * Handlers are called directly with `new Request(...)` and `{ params: Promise.resolve(...) }`
 * on a real database. Server actions are called with bad input and must answer
 * `{ ok: false, error: "invalid_input" | "not_found", message }` instead of throwing.
 *
 * Some failures are reported inside a response that has already started streaming, because the
 * work streams: an import's file problems (the body is read as it uploads) and a navigation
 * whose target entry does not exist. Those rows expect a 200 whose stream ends with the error.
 */
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as listActions from "@/app/actions";
import * as sessionActions from "@/app/sessions/[id]/actions";
import * as settingsActions from "@/app/settings/actions";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { configureChatRuntime, resetChatRuntime } from "@/lib/chat/runtime-config";
import { appendEntries, createSession, findSessionMeta, loadEntries } from "@/lib/db";
import { assistantMsg, userMsg } from "@/test/session-factories";
import { useTestDatabase } from "@/test/db";

// biome-ignore lint/correctness/useHookAtTopLevel: a Vitest fixture (test/db.ts), not a React hook
useTestDatabase();

const API_DIR = import.meta.dirname;
const BASE = "http://arbor.test";
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Ids of the data every row may refer to; filled in beforeAll. */
const fx = { session: "", user: "", assistant: "", other: "" };
const MISSING_UUID = "7d9f4a0e-3c1b-4a5e-9f2d-6b8c0e1a2b3c";
const NUL_ID = "bad\u0000id";
const LONG_ID = "x".repeat(201);
const MB = 1024 * 1024;

interface Expect {
  /** Allowed statuses (all 4xx). */
  status: number | number[];
  /** The `error` text (substring or pattern). */
  error?: string | RegExp;
  code?: string;
}

/** 200, with the failure as the stream's last error (NDJSON `error` event or UI `data-error`). */
interface StreamExpect {
  streamError: string | RegExp;
}

/** Input the route tolerates by design (documented in its header): this status, never a 500. */
interface TolerateExpect {
  tolerated: number;
  why: string;
}

interface Case {
  name: string;
  url: string | (() => string);
  params?: Record<string, string> | (() => Record<string, string>);
  init?: RequestInit | (() => RequestInit);
  expect: Expect | StreamExpect | TolerateExpect;
}

/** A route that takes no input at all: the reason, instead of cases. */
type Row = Case[] | { noInput: string };

const jsonInit = (body: unknown, type = "application/json"): RequestInit => ({
  method: "POST",
  headers: { "content-type": type },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const textInit = (body: string, type: string): RequestInit => ({ method: "POST", headers: { "content-type": type }, body });
const oversized = (): RequestInit => jsonInit({ id: "x", padding: "p".repeat(MB + 10) });
const sid = () => ({ id: fx.session });

/** The cases every JSON POST body gets: malformed JSON, wrong content types, an oversized body. */
function jsonBodyCases(url: () => string, params?: () => Record<string, string>): Case[] {
  return [
    { name: "malformed JSON", url, params, init: jsonInit("{not json"), expect: { status: 400, error: "The request body is not valid JSON", code: "invalid_input" } },
    { name: "a JSON array", url, params, init: jsonInit([1, 2]), expect: { status: 400, code: "invalid_input" } },
    {
      name: "text/plain content type",
      url,
      params,
      init: textInit('{"id":"x"}', "text/plain"),
      expect: { status: 415, error: "The request body must be JSON (content-type: application/json), not text/plain", code: "unsupported_media_type" },
    },
    {
      name: "a form post",
      url,
      params,
      init: textInit("id=x&message=hi", "application/x-www-form-urlencoded"),
      expect: { status: 415, code: "unsupported_media_type" },
    },
    { name: "a body over 1 MB", url, params, init: oversized, expect: { status: 413, error: "The request body is larger than 1 MB", code: "too_large" } },
  ];
}

/** The cases every `[id]` route gets: unknown, control characters, too long. */
function sessionIdCases(url: (id: string) => string, init?: () => RequestInit, unknownStatus = 404): Case[] {
  return [
    { name: "an unknown session", url: () => url("no-such-session"), params: { id: "no-such-session" }, init, expect: { status: unknownStatus, error: "Session no-such-session not found" } },
    { name: "a session id with a NUL character", url: () => url("bad%00id"), params: { id: NUL_ID }, init, expect: { status: 400, error: /session id/i } },
    { name: "a session id with another control character", url: () => url("bad%1Bid"), params: { id: "bad\u001bid" }, init, expect: { status: 400, error: /session id must not contain control characters such as NUL \(found U\+001B at position 4\)/ } },
    { name: "a session id over 200 characters", url: () => url(LONG_ID), params: { id: LONG_ID }, init, expect: { status: 400, error: /session id/i } },
  ];
}

const chatMessage = (text: string) => ({ id: "m1", role: "user", parts: [{ type: "text", text }] });
const sessionUrl = (suffix = "") => (id: string) => `${BASE}/api/sessions/${encodeURIComponent(id)}${suffix}`;

const handoffBody = () => ({ entry: fx.user, format: "claude", sessionId: MISSING_UUID, createdAt: "2026-12-05T08:00:00.000Z", path: "/tmp/elsewhere.jsonl" });

const ROUTES: Record<string, Partial<Record<Method, Row>>> = {
  "chat/route.ts": {
    POST: [
      ...jsonBodyCases(() => `${BASE}/api/chat`),
      { name: "missing message", url: `${BASE}/api/chat`, init: () => jsonInit({ id: fx.session }), expect: { status: 400, error: /^message: /, code: "invalid_input" } },
      { name: "missing id", url: `${BASE}/api/chat`, init: jsonInit({ message: chatMessage("hi") }), expect: { status: 400, error: "id: expected the session id" } },
      { name: "id of the wrong type", url: `${BASE}/api/chat`, init: jsonInit({ id: 42, message: chatMessage("hi") }), expect: { status: 400, error: "id: expected the session id" } },
      {
        name: "parts of the wrong type",
        url: `${BASE}/api/chat`,
        init: () => jsonInit({ id: fx.session, message: { id: "m", role: "user", parts: "hi" } }),
        expect: { status: 400, error: "message.parts: expected the message parts" },
      },
      {
        name: "an unsupported part",
        url: `${BASE}/api/chat`,
        init: () => jsonInit({ id: fx.session, message: { id: "m", role: "user", parts: [{ type: "tool-call" }] } }),
        expect: { status: 400, error: /message\.parts\.0/ },
      },
      {
        name: "a message with no text",
        url: `${BASE}/api/chat`,
        init: () => jsonInit({ id: fx.session, message: chatMessage("  ") }),
        expect: { status: 400, error: "message: the message has no text" },
      },
      {
        name: "a malformed model",
        url: `${BASE}/api/chat`,
        init: () => jsonInit({ id: fx.session, message: chatMessage("hi"), model: "gpt" }),
        expect: { status: 400, error: 'model: expected a "provider/modelId" string' },
      },
      {
        name: "a model whose provider is not configured",
        url: `${BASE}/api/chat`,
        init: () => jsonInit({ id: fx.session, message: chatMessage("hi"), model: "anthropic/claude-sonnet-4-5" }),
        expect: { status: 400, error: /is not available/, code: "unavailable" },
      },
      { name: "an unknown session", url: `${BASE}/api/chat`, init: jsonInit({ id: "no-such-session", message: chatMessage("hi") }), expect: { status: 404, error: "Session no-such-session not found", code: "not_found" } },
      { name: "a session id with a NUL character", url: `${BASE}/api/chat`, init: jsonInit({ id: NUL_ID, message: chatMessage("hi") }), expect: { status: 400, error: /^id: / } },
      { name: "a session id over 200 characters", url: `${BASE}/api/chat`, init: jsonInit({ id: LONG_ID, message: chatMessage("hi") }), expect: { status: 400, error: "id: the session id is too long" } },
    ],
  },
  "chat/stop/route.ts": {
    POST: [
      ...jsonBodyCases(() => `${BASE}/api/chat/stop`),
      { name: "missing id", url: `${BASE}/api/chat/stop`, init: jsonInit({}), expect: { status: 400, error: "id: expected the session id" } },
      {
        name: "no body and no content type",
        url: `${BASE}/api/chat/stop`,
        init: { method: "POST" },
        expect: { status: 415, error: "The request body must be JSON (content-type: application/json); it was sent without a content type" },
      },
      { name: "no body", url: `${BASE}/api/chat/stop`, init: { method: "POST", headers: { "content-type": "application/json" } }, expect: { status: 400, error: /expected/ } },
      { name: "id of the wrong type", url: `${BASE}/api/chat/stop`, init: jsonInit({ id: ["x"] }), expect: { status: 400, error: "id: expected the session id" } },
      { name: "a session id with a NUL character", url: `${BASE}/api/chat/stop`, init: jsonInit({ id: NUL_ID }), expect: { status: 400, error: /^id: / } },
      {
        name: "an unknown session",
        url: `${BASE}/api/chat/stop`,
        init: jsonInit({ id: "no-such-session" }),
        expect: { tolerated: 200, why: "Stop is idempotent: { stopped: false } when nothing runs there" },
      },
    ],
  },
  "sync/route.ts": {
    POST: [
      ...jsonBodyCases(() => `${BASE}/api/sync`),
      { name: "no folders", url: `${BASE}/api/sync`, init: jsonInit({}), expect: { status: 400, code: "invalid_input" } },
      { name: "an empty folder list", url: `${BASE}/api/sync`, init: jsonInit({ folders: [] }), expect: { status: 400, error: /name at least one folder/ } },
      { name: "a folder that is not a string", url: `${BASE}/api/sync`, init: jsonInit({ folders: [42] }), expect: { status: 400, code: "invalid_input" } },
      { name: "watch not a boolean", url: `${BASE}/api/sync`, init: jsonInit({ folders: ["/tmp"], watch: "yes" }), expect: { status: 400, code: "invalid_input" } },
      { name: "an unknown key", url: `${BASE}/api/sync`, init: jsonInit({ folders: ["/tmp"], extra: 1 }), expect: { status: 400, code: "invalid_input" } },
      {
        name: "a relative or disallowed folder",
        url: `${BASE}/api/sync`,
        init: jsonInit({ folders: ["relative/dir"] }),
        expect: { status: 400, error: /^Folder relative\/dir (refused: ARBOR_ALLOWED_ROOTS is not set|must be an absolute path)/ },
      },
    ],
  },
  "import/route.ts": {
    POST: [
      { name: "no fileName", url: `${BASE}/api/import`, init: textInit("{}", "application/octet-stream"), expect: { status: 400, error: "fileName is required" } },
      { name: "a blank fileName", url: `${BASE}/api/import?fileName=%20`, init: textInit("{}", "application/octet-stream"), expect: { status: 400, error: "fileName is required" } },
      { name: "a fileName with control characters", url: `${BASE}/api/import?fileName=a%0Ab.jsonl`, init: textInit("{}", "application/octet-stream"), expect: { status: 400, error: "fileName must not contain control characters" } },
      { name: "a fileName over 255 characters", url: `${BASE}/api/import?fileName=${"f".repeat(256)}`, init: textInit("{}", "application/octet-stream"), expect: { status: 400, error: /fileName is too long/ } },
      { name: "asCopy not 0 or 1", url: `${BASE}/api/import?fileName=a.jsonl&asCopy=yes`, init: textInit("{}", "application/octet-stream"), expect: { status: 400, error: "asCopy must be 0 or 1" } },
      { name: "a title over 1000 characters", url: `${BASE}/api/import?fileName=a.jsonl&title=${"t".repeat(1001)}`, init: textInit("{}", "application/octet-stream"), expect: { status: 400, error: "title is too long" } },
      { name: "no body", url: `${BASE}/api/import?fileName=a.jsonl`, init: { method: "POST" }, expect: { status: 400, error: "a.jsonl: the request has no file in its body" } },
      {
        name: "a declared size over the import limit",
        url: `${BASE}/api/import?fileName=a.jsonl`,
        init: { method: "POST", headers: { "content-length": String(300 * MB), "content-type": "application/octet-stream" }, body: "x" },
        expect: { status: 413, error: "a.jsonl: file is larger than the 256 MB import limit" },
      },
      {
        name: "a multipart form instead of the raw file",
        url: `${BASE}/api/import?fileName=a.jsonl`,
        init: textInit('--b\r\nContent-Disposition: form-data; name="file"\r\n\r\n{}\r\n--b--\r\n', "multipart/form-data; boundary=b"),
        expect: { status: 415, error: /^a\.jsonl: the session file must be sent as content-type: application\/octet-stream or application\/x-ndjson or application\/jsonl, not multipart\/form-data$/ },
      },
      { name: "a text/plain body", url: `${BASE}/api/import?fileName=a.jsonl`, init: textInit("{}", "text/plain"), expect: { status: 415, error: /must be sent as content-type: application\/octet-stream.*, not text\/plain$/ } },
      { name: "no content type", url: `${BASE}/api/import?fileName=a.jsonl`, init: { method: "POST", body: new TextEncoder().encode("{}") }, expect: { status: 415, error: /it was sent without a content type$/ } },
      { name: "a body that is not a session", url: `${BASE}/api/import?fileName=notes.jsonl`, init: textInit('{"hello":"world"}\n', "application/octet-stream"), expect: { streamError: /^notes\.jsonl: not a session file/ } },
      { name: "malformed JSON", url: `${BASE}/api/import?fileName=broken.jsonl`, init: textInit("{not json\n", "application/octet-stream"), expect: { streamError: "broken.jsonl: not a session file" } },
      {
        name: "an unsupported version",
        url: `${BASE}/api/import?fileName=v99.jsonl`,
        init: textInit('{"type":"session","version":99,"id":"v99","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}\n', "application/octet-stream"),
        expect: { streamError: /unsupported session version 99/ },
      },
      {
        name: "an entry of the wrong shape",
        url: `${BASE}/api/import?fileName=shape.jsonl`,
        init: textInit('{"type":"session","version":3,"id":"shape","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}\n{"type":7,"id":"a"}\n', "application/octet-stream"),
        expect: { streamError: "shape.jsonl:2: entry has no type (field type)" },
      },
    ],
  },
  "models/route.ts": { GET: { noInput: "lists the configured models; it reads no parameters" } },
  "discovery/route.ts": {
    GET: { noInput: "lists the agent folders found on this machine; it reads no parameters" },
    POST: [
      ...jsonBodyCases(() => `${BASE}/api/discovery`),
      { name: "no folders", url: `${BASE}/api/discovery`, init: () => jsonInit({ folders: [] }), expect: { status: 400, error: /tick at least one folder/, code: "invalid_input" } },
      { name: "a folder that was not found", url: `${BASE}/api/discovery`, init: () => jsonInit({ folders: ["/nowhere/at/all"] }), expect: { status: 400, error: /is not one of the agent folders found/, code: "invalid_input" } },
    ],
  },
  "settings/local-servers/route.ts": { GET: { noInput: "asks the fixed local ports; it reads no parameters" } },
  "sessions/route.ts": {
    GET: [
      { name: "limit 0", url: `${BASE}/api/sessions?limit=0`, expect: { status: 400, error: /^Bad limit: / } },
      { name: "limit not a number", url: `${BASE}/api/sessions?limit=ten`, expect: { status: 400, error: /^Bad limit: / } },
      { name: "limit over 200", url: `${BASE}/api/sessions?limit=201`, expect: { status: 400, error: /^Bad limit: / } },
      { name: "an unknown sort", url: `${BASE}/api/sessions?sort=price`, expect: { status: 400, error: /^Bad sort: / } },
      { name: "a cost cursor of bad digits", url: `${BASE}/api/sessions?sort=cost&cursor=${Buffer.from(JSON.stringify(["cost", "1e9", "x"])).toString("base64url")}`, expect: { tolerated: 200, why: "a malformed cursor starts from the top" } },
      { name: "a search over 500 characters", url: `${BASE}/api/sessions?q=${"q".repeat(501)}`, expect: { status: 400, error: "Bad q: The search is too long (500 characters at most)" } },
      { name: "a search with a NUL character", url: `${BASE}/api/sessions?q=a%00b`, expect: { tolerated: 200, why: "the search keeps only words" } },
      {
        name: "a cursor naming an id with a NUL character",
        url: `${BASE}/api/sessions?cursor=${Buffer.from(JSON.stringify(["2025-01-01T00:00:00Z", "a\u0000b"])).toString("base64url")}`,
        expect: { tolerated: 200, why: "a malformed cursor starts from the top" },
      },
      { name: "a cursor over 1000 characters", url: `${BASE}/api/sessions?cursor=${"c".repeat(1001)}`, expect: { status: 400, error: /^Bad cursor: / } },
      { name: "an unknown agent", url: `${BASE}/api/sessions?agent=vim`, expect: { status: 400, error: /^Bad agent: / } },
      { name: "a date that is none", url: `${BASE}/api/sessions?from=yesterday`, expect: { status: 400, error: /^Bad from: / } },
      { name: "a project with a NUL character", url: `${BASE}/api/sessions?project=a%00b`, expect: { status: 400, error: "Bad project: must not hold a NUL character" } },
    ],
  },
  "sessions/[id]/route.ts": {
    GET: [
      ...sessionIdCases(sessionUrl()),
      { name: "an unknown format", url: () => `${sessionUrl()(fx.session)}?format=xml`, params: sid, expect: { status: 400, error: /^format must be json, jsonl/ } },
      { name: "an unknown session exported", url: `${BASE}/api/sessions/no-such-session?format=jsonl`, params: { id: "no-such-session" }, expect: { status: 404, error: "Session no-such-session not found" } },
      { name: "an unknown secrets choice", url: () => `${sessionUrl()(fx.session)}?format=jsonl&secrets=all`, params: sid, expect: { status: 400, error: "secrets must be mask or include" } },
    ],
  },
  "sessions/[id]/secrets/route.ts": { GET: sessionIdCases(sessionUrl("/secrets")) },
  "sessions/[id]/events/route.ts": { GET: sessionIdCases(sessionUrl("/events")) },
  "sessions/events/route.ts": { GET: { noInput: "streams the list's changes; it reads no parameters" } },
  "sessions/facets/route.ts": { GET: { noInput: "counts the live sessions per agent, project and model; it reads no parameters" } },
  "sessions/[id]/tree/route.ts": { GET: sessionIdCases(sessionUrl("/tree")) },
  "sessions/[id]/usage/route.ts": { GET: sessionIdCases(sessionUrl("/usage")) },
  "sessions/[id]/handoff/route.ts": {
    GET: [
      ...sessionIdCases((id) => `${sessionUrl("/handoff")(id)}?format=claude`),
      { name: "no format", url: () => sessionUrl("/handoff")(fx.session), params: sid, expect: { status: 400, error: "format must be pi, claude or codex" } },
      { name: "an unknown format", url: () => `${sessionUrl("/handoff")(fx.session)}?format=gemini`, params: sid, expect: { status: 400, error: "format must be pi, claude or codex" } },
      { name: "an unknown entry", url: () => `${sessionUrl("/handoff")(fx.session)}?format=pi&entry=nope`, params: sid, expect: { status: 404, error: `Entry nope not found in session ${fx.session}` } },
      { name: "an unknown secrets choice", url: () => `${sessionUrl("/handoff")(fx.session)}?format=pi&secrets=all`, params: sid, expect: { status: 400, error: "secrets must be mask or include" } },
    ],
    POST: [
      ...jsonBodyCases(() => sessionUrl("/handoff")(fx.session), sid),
      ...sessionIdCases(sessionUrl("/handoff"), () => jsonInit(handoffBody())),
      { name: "no confirmed path", url: () => sessionUrl("/handoff")(fx.session), params: sid, init: () => jsonInit({ ...handoffBody(), path: undefined }), expect: { status: 400, error: "path: the path the user confirmed is required" } },
      { name: "a session id that is not a UUID", url: () => sessionUrl("/handoff")(fx.session), params: sid, init: () => jsonInit({ ...handoffBody(), sessionId: "x" }), expect: { status: 400, error: "sessionId: must be the UUID the preview gave" } },
      { name: "an unknown entry", url: () => sessionUrl("/handoff")(fx.session), params: sid, init: () => jsonInit({ ...handoffBody(), entry: "nope" }), expect: { status: 404, error: /^Entry nope not found/ } },
      { name: "a path that is not the hand-off's", url: () => sessionUrl("/handoff")(fx.session), params: sid, init: () => jsonInit(handoffBody()), expect: { status: 400, error: /^The confirmed path \/tmp\/elsewhere\.jsonl is not the file this hand-off writes/ } },
    ],
  },
  "sessions/[id]/skeleton/route.ts": {
    GET: [
      ...sessionIdCases(sessionUrl("/skeleton")),
      { name: "a negative since", url: () => `${sessionUrl("/skeleton")(fx.session)}?since=-1`, params: sid, expect: { status: 400, error: "since must be an entry count" } },
      { name: "a since that is not a number", url: () => `${sessionUrl("/skeleton")(fx.session)}?since=abc`, params: sid, expect: { status: 400, error: "since must be an entry count" } },
    ],
  },
  "sessions/[id]/entries/route.ts": {
    GET: [
      ...sessionIdCases((id) => `${sessionUrl("/entries")(id)}?ids=a`),
      { name: "no ids", url: () => sessionUrl("/entries")(fx.session), params: sid, expect: { status: 400, error: "ids must list entry ids, separated by commas" } },
      { name: "an empty id list", url: () => `${sessionUrl("/entries")(fx.session)}?ids=,`, params: sid, expect: { status: 400, error: "ids must name at least one entry" } },
      {
        name: "more than 200 ids",
        url: () => `${sessionUrl("/entries")(fx.session)}?ids=${Array.from({ length: 201 }, (_, i) => `e${i}`).join(",")}`,
        params: sid,
        expect: { status: 400, error: "ids may name at most 200 entries" },
      },
      { name: "an entry id with a NUL character", url: () => `${sessionUrl("/entries")(fx.session)}?ids=a%00b`, params: sid, expect: { status: 400, error: /entry id/ } },
    ],
  },
  "sessions/[id]/search/route.ts": {
    GET: [
      ...sessionIdCases((id) => `${sessionUrl("/search")(id)}?q=x`),
      { name: "no query", url: () => sessionUrl("/search")(fx.session), params: sid, expect: { status: 400, error: "q is the search query" } },
      { name: "a query over 500 characters", url: () => `${sessionUrl("/search")(fx.session)}?q=${"q".repeat(501)}`, params: sid, expect: { status: 400, error: "q may be at most 500 characters" } },
    ],
  },
  "sessions/[id]/calls/route.ts": { GET: sessionIdCases(sessionUrl("/calls")) },
  "sessions/[id]/original/route.ts": {
    GET: [
      ...sessionIdCases(sessionUrl("/original")),
      { name: "a session with no stored original", url: () => sessionUrl("/original")(fx.session), params: sid, expect: { status: 404, error: /has no original file stored$/ } },
      { name: "an unknown count", url: () => `${sessionUrl("/original")(fx.session)}?count=lines`, params: sid, expect: { status: 400, error: "count must be secrets" } },
    ],
  },
  "sessions/[id]/calls/[callId]/route.ts": {
    GET: [
      { name: "a call id that is not a UUID", url: `${BASE}/api/sessions/s/calls/42`, params: () => ({ id: fx.session, callId: "42" }), expect: { status: 400, error: "call id must be a UUID" } },
      { name: "an unknown call", url: `${BASE}/api/sessions/s/calls/${MISSING_UUID}`, params: () => ({ id: fx.session, callId: MISSING_UUID }), expect: { status: 404, error: /^Model call .* not found/ } },
      { name: "an unknown session", url: `${BASE}/api/sessions/x/calls/${MISSING_UUID}`, params: { id: "no-such-session", callId: MISSING_UUID }, expect: { status: 404, error: "Session no-such-session not found" } },
      { name: "a session id with a NUL character", url: `${BASE}/api/sessions/x/calls/${MISSING_UUID}`, params: { id: NUL_ID, callId: MISSING_UUID }, expect: { status: 400, error: /session id/i } },
    ],
  },
  "sessions/[id]/compactions/[entryId]/route.ts": {
    GET: [
      { name: "an unknown session", url: `${BASE}/api/sessions/x/compactions/e`, params: { id: "no-such-session", entryId: "e" }, expect: { status: 404, error: "Session no-such-session not found" } },
      { name: "a session id with a NUL character", url: `${BASE}/api/sessions/x/compactions/e`, params: { id: NUL_ID, entryId: "e" }, expect: { status: 400, error: /session id/i } },
      { name: "an entry id with a NUL character", url: `${BASE}/api/sessions/s/compactions/x`, params: () => ({ id: fx.session, entryId: "a\u0000b" }), expect: { status: 400, error: /entry/i } },
      { name: "an entry that is not a compaction", url: `${BASE}/api/sessions/s/compactions/u`, params: () => ({ id: fx.session, entryId: fx.user }), expect: { status: 404, error: /is not a compaction/ } },
    ],
  },
  "sessions/[id]/compactions/[entryId]/again/route.ts": {
    POST: [
      ...jsonBodyCases(() => `${BASE}/api/sessions/s/compactions/u/again`, () => ({ id: fx.session, entryId: fx.user })),
      { name: "a session id with a NUL character", url: `${BASE}/api/sessions/x/compactions/e/again`, params: { id: NUL_ID, entryId: "e" }, init: jsonInit({}), expect: { status: 400, error: /session id/i } },
      { name: "focus of the wrong type", url: `${BASE}/api/sessions/s/compactions/u/again`, params: () => ({ id: fx.session, entryId: fx.user }), init: jsonInit({ focus: 3 }), expect: { status: 400, error: "focus: expected the focus as text" } },
      { name: "an unknown field", url: `${BASE}/api/sessions/s/compactions/u/again`, params: () => ({ id: fx.session, entryId: fx.user }), init: jsonInit({ focs: "typo" }), expect: { status: 400, error: /focs/ } },
      { name: "an entry that is not a compaction", url: `${BASE}/api/sessions/s/compactions/u/again`, params: () => ({ id: fx.session, entryId: fx.user }), init: jsonInit({}), expect: { status: 404, error: /is not a compaction of session/ } },
    ],
  },
  "sessions/[id]/compact/route.ts": {
    GET: [
      ...sessionIdCases(sessionUrl("/compact")),
      { name: "a focus over 10000 characters", url: () => `${sessionUrl("/compact")(fx.session)}?focus=${"f".repeat(10_001)}`, params: sid, expect: { status: 400, error: "the focus is too long (at most 10000 characters)" } },
    ],
    POST: [
      ...jsonBodyCases(() => sessionUrl("/compact")(fx.session), sid),
      ...sessionIdCases(sessionUrl("/compact"), () => jsonInit({})),
      { name: "focus of the wrong type", url: () => sessionUrl("/compact")(fx.session), params: sid, init: jsonInit({ focus: 3 }), expect: { status: 400, error: "focus: expected the focus as text" } },
      { name: "an unknown field", url: () => sessionUrl("/compact")(fx.session), params: sid, init: jsonInit({ focs: "typo" }), expect: { status: 400, error: /focs/ } },
    ],
  },
  "sessions/[id]/inspect/route.ts": {
    GET: [
      ...sessionIdCases((id) => `${sessionUrl("/inspect")(id)}?preview=1`),
      { name: "no query", url: () => sessionUrl("/inspect")(fx.session), params: sid, expect: { status: 400, error: /give exactly one of/ } },
      { name: "two queries at once", url: () => `${sessionUrl("/inspect")(fx.session)}?preview=1&entry=${fx.assistant}`, params: sid, expect: { status: 400, error: /give exactly one of/ } },
      { name: "preview not 1", url: () => `${sessionUrl("/inspect")(fx.session)}?preview=yes`, params: sid, expect: { status: 400, error: "preview must be 1" } },
      { name: "a call id that is not a UUID", url: () => `${sessionUrl("/inspect")(fx.session)}?call=abc`, params: sid, expect: { status: 400, error: "call id must be a UUID" } },
      { name: "an unknown entry", url: () => `${sessionUrl("/inspect")(fx.session)}?entry=nope`, params: sid, expect: { status: 404, error: /^Entry nope not found/ } },
      { name: "an entry with a NUL character", url: () => `${sessionUrl("/inspect")(fx.session)}?entry=a%00b`, params: sid, expect: { status: 400, error: /entry/i } },
      { name: "an entry that is not an assistant message", url: () => `${sessionUrl("/inspect")(fx.session)}?entry=${fx.user}`, params: sid, expect: { status: 422, error: /is not an assistant message/ } },
      { name: "an unknown call", url: () => `${sessionUrl("/inspect")(fx.session)}?call=${MISSING_UUID}`, params: sid, expect: { status: 404, error: /^Model call .* not found/ } },
    ],
  },
  "sessions/[id]/inspect/messages/route.ts": {
    GET: [
      ...sessionIdCases((id) => `${sessionUrl("/inspect/messages")(id)}?preview=1`),
      { name: "no turn", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?offset=0`, params: sid, expect: { status: 400, error: /give exactly one of/ } },
      { name: "an offset that is not a number", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.assistant}&offset=ten`, params: sid, expect: { status: 400, error: "offset must be a whole number, 0 or more" } },
      { name: "a negative offset", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.assistant}&offset=-1`, params: sid, expect: { status: 400, error: "offset must be a whole number, 0 or more" } },
      { name: "an offset past the turn's end", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.assistant}&offset=500`, params: sid, expect: { status: 400, error: /^offset 500 is past the end of this turn: it sent \d+ messages?/ } },
      { name: "a limit of 0", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.assistant}&limit=0`, params: sid, expect: { status: 400, error: /^limit must be a whole number from 1 to \d+$/ } },
      { name: "a limit over the most", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.assistant}&limit=1000000`, params: sid, expect: { status: 400, error: /^limit must be a whole number from 1 to \d+$/ } },
      { name: "a fractional limit", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.assistant}&limit=1.5`, params: sid, expect: { status: 400, error: /^limit must be/ } },
      { name: "an unknown entry", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=nope`, params: sid, expect: { status: 404, error: /^Entry nope not found/ } },
      { name: "an entry that is not an assistant message", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?entry=${fx.user}`, params: sid, expect: { status: 422, error: /is not an assistant message/ } },
      { name: "an unknown call", url: () => `${sessionUrl("/inspect/messages")(fx.session)}?call=${MISSING_UUID}`, params: sid, expect: { status: 404, error: /^Model call .* not found/ } },
    ],
  },
  "sessions/[id]/navigate/route.ts": {
    POST: [
      ...jsonBodyCases(() => sessionUrl("/navigate")(fx.session), sid),
      ...sessionIdCases(sessionUrl("/navigate"), () => jsonInit({ targetId: "x", summarize: false })),
      { name: "missing summarize", url: () => sessionUrl("/navigate")(fx.session), params: sid, init: () => jsonInit({ targetId: fx.user }), expect: { status: 400, error: "summarize: expected summarize to be true or false" } },
      { name: "summarize of the wrong type", url: () => sessionUrl("/navigate")(fx.session), params: sid, init: () => jsonInit({ targetId: fx.user, summarize: "yes" }), expect: { status: 400, error: "summarize: expected summarize to be true or false" } },
      { name: "an empty target", url: () => sessionUrl("/navigate")(fx.session), params: sid, init: jsonInit({ targetId: " ", summarize: false }), expect: { status: 400, error: "targetId: expected the id of the target entry" } },
      { name: "custom instructions of the wrong type", url: () => sessionUrl("/navigate")(fx.session), params: sid, init: () => jsonInit({ targetId: fx.user, summarize: true, customInstructions: 5 }), expect: { status: 400, error: /customInstructions/ } },
      { name: "an unknown target entry", url: () => sessionUrl("/navigate")(fx.session), params: sid, init: jsonInit({ targetId: "no-such-entry", summarize: false }), expect: { streamError: "Entry no-such-entry not found" } },
    ],
  },
  "sessions/[id]/files/route.ts": {
    GET: sessionIdCases(sessionUrl("/files")),
    POST: [
      ...sessionIdCases((id) => `${sessionUrl("/files")(id)}?path=a.txt`, () => textInit("hello", "application/octet-stream")),
      { name: "no path", url: () => sessionUrl("/files")(fx.session), params: sid, init: textInit("hello", "text/plain"), expect: { status: 400, error: /path: a workspace-relative file path is required/ } },
      { name: "a path outside the workspace", url: () => `${sessionUrl("/files")(fx.session)}?path=../x`, params: sid, init: textInit("hello", "application/octet-stream"), expect: { status: 400, error: 'Path "../x" is outside the workspace' } },
      {
        name: "a text/plain body",
        url: () => `${sessionUrl("/files")(fx.session)}?path=a.txt`,
        params: sid,
        init: textInit("hello", "text/plain"),
        expect: { status: 415, error: "The uploaded file must be sent as content-type: application/octet-stream, not text/plain", code: "unsupported_media_type" },
      },
      { name: "no content type", url: () => `${sessionUrl("/files")(fx.session)}?path=a.txt`, params: sid, init: { method: "POST", body: new TextEncoder().encode("x") }, expect: { status: 415, error: /it was sent without a content type$/ } },
      {
        name: "a declared size over the upload limit",
        url: () => `${sessionUrl("/files")(fx.session)}?path=big.bin`,
        params: sid,
        init: { method: "POST", headers: { "content-type": "application/octet-stream", "content-length": String(2048 * MB) }, body: "x" },
        expect: { status: 413, error: /upload limit/ },
      },
    ],
  },
  "sessions/[id]/files/download/route.ts": {
    GET: [
      ...sessionIdCases((id) => `${sessionUrl("/files/download")(id)}?path=a.txt`),
      { name: "no path", url: () => sessionUrl("/files/download")(fx.session), params: sid, expect: { status: 400, error: /path: a workspace-relative file path is required/ } },
      { name: "a path outside the workspace", url: () => `${sessionUrl("/files/download")(fx.session)}?path=../../etc/passwd`, params: sid, expect: { status: 400, error: /is outside the workspace/ } },
      { name: "a missing file", url: () => `${sessionUrl("/files/download")(fx.session)}?path=nope.txt`, params: sid, expect: { status: 404, error: /does not exist/ } },
    ],
  },
  // Sign-in is off in tests (no ARBOR_PASSWORD): its routes answer 404 / 403 and never read further.
  "auth/login/route.ts": {
    POST: [
      { name: "malformed JSON", url: `${BASE}/api/auth/login`, init: jsonInit("{not json"), expect: { status: [400, 403, 404] } },
      { name: "password of the wrong type", url: `${BASE}/api/auth/login`, init: jsonInit({ password: 5 }), expect: { status: [400, 403, 404] } },
    ],
  },
  "auth/logout/route.ts": {
    POST: [{ name: "a cross-site request", url: `${BASE}/api/auth/logout`, init: { method: "POST", headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } }, expect: { status: 403 } }],
  },
};

/** Every route file under app/api, as "chat/route.ts", with its exported methods. */
async function discoverRoutes(): Promise<{ file: string; methods: Method[]; module: Record<string, unknown> }[]> {
  const files = (readdirSync(API_DIR, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => f === "route.ts" || f.endsWith("/route.ts"))
    .sort();
  return Promise.all(
    files.map(async (file) => {
      const module = (await import(path.join(API_DIR, file))) as Record<string, unknown>;
      return { file, methods: METHODS.filter((m) => typeof module[m] === "function"), module };
    }),
  );
}

const resolve = <T>(v: T | (() => T)): T => (typeof v === "function" ? (v as () => T)() : v);

async function call(handler: Handler, c: Case): Promise<Response> {
  const init = c.init ? resolve(c.init) : {};
  return handler(new Request(resolve(c.url), init), { params: Promise.resolve(c.params ? resolve(c.params) : {}) });
}

/** The last error a streaming response ended with: an NDJSON `error` event or a UI `data-error`. */
async function streamError(res: Response): Promise<string | undefined> {
  if ((res.headers.get("content-type") ?? "").includes("ndjson")) {
    const events = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; message?: string });
    return events.filter((e) => e.type === "error").at(-1)?.message;
  }
  let message: string | undefined;
  for await (const chunk of readUIStream(res)) {
    if (chunk.type === "data-error") message = (chunk.data as { message: string }).message;
  }
  return message;
}

function expectText(actual: string | undefined, wanted: string | RegExp | undefined) {
  if (wanted === undefined) return;
  if (typeof wanted === "string") expect(actual).toContain(wanted);
  else expect(actual).toMatch(wanted);
}

/** A message a person can read: one line, short, no driver internals or stack. */
function expectPlain(message: unknown) {
  expect(typeof message).toBe("string");
  const text = message as string;
  expect(text.trim().length).toBeGreaterThan(0);
  expect(text).not.toMatch(/\n|prisma|Invalid `|at .*\(.*:\d+:\d+\)|undefined|\[object /i);
  expect(text.length).toBeLessThan(400);
}

let routes: Awaited<ReturnType<typeof discoverRoutes>>;
let workspaces: string;

beforeAll(async () => {
  workspaces = await mkdtemp(path.join(tmpdir(), "arbor-validation-"));
  configureChatRuntime({ workspacesDir: workspaces });
  const meta = await createSession({ cwd: "/work" });
  const other = await createSession({ cwd: "/work" });
  const saved = await appendEntries({
    sessionId: meta.id,
    expectedLeafId: null,
    entries: [
      { type: "message", message: userMsg("hello") },
      { type: "message", message: assistantMsg("hi there", { provider: "openai-compatible", model: "m", api: "openai-completions", usage: { input: 1, output: 1 } }) },
    ],
  });
  Object.assign(fx, { session: meta.id, other: other.id, user: saved.entries[0]!.id, assistant: saved.entries[1]!.id });
  routes = await discoverRoutes();
});

afterAll(async () => {
  resetChatRuntime();
  await rm(workspaces, { recursive: true, force: true });
});

describe("every route handler has bad-input cases", () => {
  it("finds the route files", () => {
    expect(routes.length).toBeGreaterThan(5);
  });

  it("each exported method of each app/api/**/route.ts has a row in the table", () => {
    const missing = routes.flatMap((r) => r.methods.filter((m) => !ROUTES[r.file]?.[m]).map((m) => `${m} app/api/${r.file}`));
    expect(missing, "add cases for these to ROUTES in app/api/validation.test.ts").toEqual([]);
    const rows = routes.flatMap((r) => r.methods.map((m) => ROUTES[r.file]?.[m]));
    for (const row of rows) if (row && !("noInput" in row)) expect(row.length).toBeGreaterThan(0);
  });

  it("the table names no route that does not exist", () => {
    const known = new Set(routes.flatMap((r) => r.methods.map((m) => `${m} ${r.file}`)));
    const stale = Object.entries(ROUTES).flatMap(([file, methods]) => Object.keys(methods).map((m) => `${m} ${file}`)).filter((k) => !known.has(k));
    expect(stale).toEqual([]);
  });
});

const rows = Object.entries(ROUTES).flatMap(([file, methods]) =>
  Object.entries(methods).flatMap(([method, row]) => (row && !("noInput" in row) ? row.map((c) => ({ file, method: method as Method, c })) : [])),
);

describe("bad input gets a clear 4xx, never a 500", () => {
  it.each(rows.map((r) => [`${r.method} ${r.file}: ${r.c.name}`, r] as const))("%s", async (_label, { file, method, c }) => {
    const route = routes.find((r) => r.file === file);
    expect(route, `app/api/${file} exists`).toBeDefined();
    const handler = route!.module[method] as Handler;
    const before = await loadEntries({ sessionId: fx.session });
    const res = await call(handler, c);
    if ("tolerated" in c.expect) {
      expect(res.status, c.expect.why).toBe(c.expect.tolerated);
      await res.body?.cancel();
    } else if ("streamError" in c.expect) {
      expect(res.status).toBe(200);
      const message = await streamError(res);
      expectPlain(message);
      expectText(message, c.expect.streamError);
    } else {
      const allowed = Array.isArray(c.expect.status) ? c.expect.status : [c.expect.status];
      const body = (await res.text()) || "{}";
      expect(res.status, body).toBeGreaterThanOrEqual(400);
      expect(res.status, body).toBeLessThan(500);
      expect(allowed, `status ${res.status}: ${body}`).toContain(res.status);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
      const json = JSON.parse(body) as { error?: unknown; code?: unknown };
      expectPlain(json.error);
      expectText(json.error as string, c.expect.error);
      if (c.expect.code) expect(json.code).toBe(c.expect.code);
    }
    // Bad input changes nothing.
    expect(await loadEntries({ sessionId: fx.session })).toEqual(before);
  });
});

type ActionCase = { name: string; input: unknown; error: "invalid_input" | "not_found"; message?: string | RegExp };
type AnyAction = (input: unknown) => Promise<{ ok: boolean; error?: string; message?: string }>;

const ACTIONS: Record<string, ActionCase[]> = {
  "app/actions.ts createSession": [
    { name: "a title of the wrong type", input: { title: 5 }, error: "invalid_input" },
    { name: "a title over 200 characters", input: { title: "t".repeat(201) }, error: "invalid_input" },
    { name: "an unknown field", input: { title: "x", owner: "me" }, error: "invalid_input" },
    { name: "not an object", input: "a title", error: "invalid_input" },
    { name: "a NUL in the title", input: { title: "a\u0000b" }, error: "invalid_input", message: /title must not contain control characters such as NUL \(found U\+0000 at position 2\)/ },
  ],
  "app/actions.ts renameSession": [
    { name: "no input", input: undefined, error: "invalid_input" },
    { name: "missing title", input: { id: "x" }, error: "invalid_input" },
    { name: "an empty id", input: { id: " ", title: "x" }, error: "invalid_input", message: "expected the session id" },
    { name: "a title of the wrong type", input: { id: "x", title: 3 }, error: "invalid_input" },
    { name: "a NUL in the id", input: { id: NUL_ID, title: "x" }, error: "invalid_input" },
    { name: "another control character in the id", input: { id: "bad\u001bid", title: "x" }, error: "invalid_input", message: /control characters/ },
    { name: "a NUL in the title", input: { id: "@session", title: "a\u0000b" }, error: "invalid_input", message: /title must not contain control characters/ },
    { name: "an unknown session", input: { id: "no-such-session", title: "x" }, error: "not_found", message: "This session no longer exists." },
  ],
  "app/actions.ts deleteSession": [
    { name: "an id of the wrong type", input: { id: 1 }, error: "invalid_input" },
    { name: "an id over 200 characters", input: { id: LONG_ID }, error: "invalid_input" },
    { name: "a NUL in the id", input: { id: NUL_ID }, error: "invalid_input" },
    { name: "an unknown session", input: { id: "no-such-session" }, error: "not_found" },
  ],
  "app/actions.ts restoreSession": [
    { name: "null", input: null, error: "invalid_input" },
    { name: "a NUL in the id", input: { id: NUL_ID }, error: "invalid_input" },
    { name: "an unknown session", input: { id: "no-such-session" }, error: "not_found" },
  ],
  "app/actions.ts deleteSessionForGood": [
    { name: "an id of the wrong type", input: { id: 1 }, error: "invalid_input" },
    { name: "a NUL in the id", input: { id: NUL_ID }, error: "invalid_input" },
    { name: "an unknown session", input: { id: "no-such-session" }, error: "not_found" },
    { name: "a session not in the trash", input: { id: "@session" }, error: "not_found", message: "This session no longer exists." },
  ],
  "app/settings/actions.ts saveProvider": [
    { name: "an unknown provider", input: { provider: "acme", apiKey: "k" }, error: "invalid_input", message: /provider/ },
    { name: "a base URL that is not http(s)", input: { provider: "compatible", baseURL: "ftp://x" }, error: "invalid_input", message: /http:\/\/ or https:\/\/ URL/ },
    { name: "a key with a space", input: { provider: "openai", apiKey: "sk abc" }, error: "invalid_input", message: /spaces or control characters/ },
    { name: "a key of the wrong type", input: { provider: "openai", apiKey: 42 }, error: "invalid_input" },
    { name: "nothing to save for the server", input: { provider: "compatible" }, error: "invalid_input", message: /nothing to save/ },
    { name: "an unknown field", input: { provider: "openai", apiKey: "k", model: "x" }, error: "invalid_input" },
  ],
  "app/settings/actions.ts saveContextWindow": [
    { name: "a malformed model", input: { ref: "gpt", tokens: 64000 }, error: "invalid_input", message: /provider\/modelId/ },
    { name: "a window too small", input: { ref: "openai/gpt-4o", tokens: 10 }, error: "invalid_input", message: /at least 1,000 tokens/ },
    { name: "a window not a whole number", input: { ref: "openai/gpt-4o", tokens: 1.5e4 + 0.5 }, error: "invalid_input", message: /whole number/ },
    { name: "missing tokens", input: { ref: "openai/gpt-4o" }, error: "invalid_input" },
  ],
  "app/sessions/[id]/actions.ts setLabel": [
    { name: "missing label", input: { sessionId: "s", entryId: "e" }, error: "invalid_input", message: /label/ },
    { name: "a label over 200 characters", input: { sessionId: "s", entryId: "e", label: "l".repeat(201) }, error: "invalid_input", message: "label: the label is too long" },
    { name: "a NUL in the session id", input: { sessionId: NUL_ID, entryId: "e", label: "x" }, error: "invalid_input" },
    { name: "a NUL in the entry id", input: { sessionId: "s", entryId: NUL_ID, label: "x" }, error: "invalid_input" },
    { name: "a NUL in the label", input: { sessionId: "@session", entryId: "e", label: "a\u0000b" }, error: "invalid_input", message: /label must not contain control characters/ },
    { name: "an unknown session", input: { sessionId: "no-such-session", entryId: "e", label: "x" }, error: "not_found" },
    { name: "an unknown entry", input: { sessionId: "@session", entryId: "no-such-entry", label: "x" }, error: "not_found", message: /no-such-entry/ },
  ],
  "app/sessions/[id]/actions.ts setPin": [
    { name: "missing pinned", input: { sessionId: "s", entryId: "e" }, error: "invalid_input", message: /pinned/ },
    { name: "pinned of the wrong type", input: { sessionId: "s", entryId: "e", pinned: "yes" }, error: "invalid_input", message: /true or false/ },
    { name: "a NUL in the entry id", input: { sessionId: "@session", entryId: NUL_ID, pinned: true }, error: "invalid_input" },
    { name: "an unknown session", input: { sessionId: "no-such-session", entryId: "e", pinned: true }, error: "not_found" },
    { name: "an unknown entry", input: { sessionId: "@session", entryId: "no-such-entry", pinned: true }, error: "not_found", message: /no-such-entry/ },
  ],
  "app/sessions/[id]/actions.ts setArchive": [
    { name: "missing archived", input: { sessionId: "s", entryId: "e" }, error: "invalid_input", message: /archived/ },
    { name: "archived of the wrong type", input: { sessionId: "s", entryId: "e", archived: 1 }, error: "invalid_input", message: /true or false/ },
    { name: "a NUL in the entry id", input: { sessionId: "@session", entryId: NUL_ID, archived: true }, error: "invalid_input" },
    { name: "an unknown session", input: { sessionId: "no-such-session", entryId: "e", archived: true }, error: "not_found" },
    { name: "an unknown entry", input: { sessionId: "@session", entryId: "no-such-entry", archived: false }, error: "not_found", message: /no-such-entry/ },
    { name: "the branch holding the current leaf", input: { sessionId: "@session", entryId: "@leaf", archived: true }, error: "invalid_input", message: /holds the current leaf/ },
  ],
  "app/sessions/[id]/actions.ts forkSession": [
    { name: "missing entry", input: { sessionId: "s" }, error: "invalid_input", message: /entryId/ },
    { name: "a title of the wrong type", input: { sessionId: "s", entryId: "e", title: {} }, error: "invalid_input" },
    { name: "a NUL in the entry id", input: { sessionId: "@session", entryId: NUL_ID }, error: "invalid_input" },
    { name: "a NUL in the title", input: { sessionId: "@session", entryId: "e", title: "a\u0000b" }, error: "invalid_input", message: /title must not contain control characters/ },
    { name: "an unknown session", input: { sessionId: "no-such-session", entryId: "e" }, error: "not_found" },
    { name: "an unknown entry", input: { sessionId: "@session", entryId: "no-such-entry" }, error: "not_found", message: /no-such-entry/ },
  ],
  "app/sessions/[id]/actions.ts undoNavigation": [
    { name: "missing expectedLeafId", input: { sessionId: "s", leafId: null }, error: "invalid_input" },
    { name: "a leaf of the wrong type", input: { sessionId: "s", leafId: 4, expectedLeafId: null }, error: "invalid_input" },
    { name: "a NUL in the leaf", input: { sessionId: "@session", leafId: NUL_ID, expectedLeafId: null }, error: "invalid_input" },
    { name: "an unknown session", input: { sessionId: "no-such-session", leafId: null, expectedLeafId: null }, error: "not_found" },
    { name: "an unknown entry", input: { sessionId: "@session", leafId: "no-such-entry", expectedLeafId: "@leaf" }, error: "not_found", message: /no-such-entry/ },
  ],
  "app/sessions/[id]/actions.ts updateSessionSettings": [
    { name: "settings of the wrong type", input: { sessionId: "s", settings: "fast" }, error: "invalid_input", message: /settings/ },
    { name: "a malformed model", input: { sessionId: "s", chatModel: "gpt" }, error: "invalid_input", message: /chatModel/ },
    { name: "tools of the wrong type", input: { sessionId: "s", tools: { enabled: "all" } }, error: "invalid_input" },
    { name: "an unknown field", input: { sessionId: "s", theme: "dark" }, error: "invalid_input" },
    { name: "a setting of the wrong type", input: { sessionId: "@session", settings: { compaction: { reserveTokens: "lots" } } }, error: "invalid_input", message: /reserveTokens/ },
    { name: "a NUL in the session id", input: { sessionId: NUL_ID }, error: "invalid_input" },
    { name: "an unknown session", input: { sessionId: "no-such-session", settings: null }, error: "not_found" },
  ],
};

const actionModules: Record<string, Record<string, unknown>> = {
  "app/actions.ts": listActions,
  "app/sessions/[id]/actions.ts": sessionActions,
  "app/settings/actions.ts": settingsActions,
};

/** "@session" / "@leaf" in an input stand for the fixture session and its current leaf. */
async function withFixtures(input: unknown): Promise<unknown> {
  if (!input || typeof input !== "object") return input;
  const leaf = (await findSessionMeta({ id: fx.session }))?.leafId ?? null;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, v === "@session" ? fx.session : v === "@leaf" ? leaf : v]));
}

describe("every server action answers bad input with a typed failure", () => {
  it("each exported action has a row in the table", () => {
    const missing = Object.entries(actionModules).flatMap(([file, module]) =>
      Object.entries(module)
        .filter(([, v]) => typeof v === "function")
        .map(([name]) => `${file} ${name}`)
        .filter((key) => !ACTIONS[key]?.length),
    );
    expect(missing, "add cases for these to ACTIONS in app/api/validation.test.ts").toEqual([]);
  });

  const cases = Object.entries(ACTIONS).flatMap(([key, list]) => list.map((c) => ({ key, c })));
  it.each(cases.map((x) => [`${x.key}: ${x.c.name}`, x] as const))("%s", async (_label, { key, c }) => {
    const [file, name] = key.split(" ") as [string, string];
    const action = actionModules[file]?.[name] as AnyAction;
    const before = await loadEntries({ sessionId: fx.session });
    const result = await action(await withFixtures(c.input));
    expect(result.ok).toBe(false);
    expect(result.error).toBe(c.error);
    expectPlain(result.message);
    expectText(result.message, c.message);
    expect(await loadEntries({ sessionId: fx.session })).toEqual(before);
  });
});
