import "server-only";
/**
 * The context inspector's views: a TurnView (types.ts) for a recorded call, for an assistant
 * entry (its recorded call if there is one, else a reconstruction), or for the next turn.
 * Assembled here from lib/db's reads (lib/db/model-calls/read.ts) and the session index; lib/db only reads.
 *
 * Contract:
 * - A recorded chat call is diffed against the session's previous chat call; a summarization
 *   call has no diff. A reconstructed turn is diffed against the previous assistant turn on its
 *   path (that turn's recorded call when it has one, else its reconstruction). The preview is
 *   diffed against the turn it follows.
 * - The preview takes the system prompt and tools of the latest recorded chat call (a session
 *   without one previews the messages only, and says so).
 * - Returns null for an unknown or deleted session / call / entry, and "not_assistant" when the
 *   entry exists but is not an assistant message (nothing was sent for it).
 * - The view returned holds a window of its messages (message-window.ts windowTurn); a list cut
 *   so is kept whole (turn-messages-cache.ts) under the turn's key, for its pages (message-pages.ts).
 * - Statements: at most TWO per view — the session with its calls (the read model's version
 *   check, calls.ts), then every list and content the view and its diff need that the bodies
 *   cache (bodies.ts) does not hold, in one read. A view whose bodies are cached, or that needs
 *   no recorded content (an imported session), is ONE.
 */
import type { CompactionSettings } from "@/lib/compaction/summarize-types";
import type { CallBodies, CallRow, SessionMeta } from "@/lib/db";
import { previewNextTurn } from "@/lib/inspector/preview";
import { previousAssistantId, reconstructTurn } from "@/lib/inspector/reconstruct";
import { buildTurnView, type PreviousTurn, toMessageRefs } from "@/lib/inspector/turn-view";
import type { InspectTarget, TurnView } from "@/lib/types/inspector";
import type { PromptSet, SessionEntry } from "@/lib/session/types";
import { type CallsContext, callDetail, callForEntry, callsContext, detailHashes, previousChatCall, producedEntryId, sentMessages } from "./calls";
import { callBodies } from "./bodies";
import { pendingNotes, reconstructedInput, recordedInput } from "./turn-inputs";
import { windowTurn } from "./message-window";
import { recalledTurnView, rememberTurnMessages, rememberTurnView, turnKey } from "./turn-messages-cache";

/** `diff: false` when only the messages are wanted (a page): no previous turn is read or diffed. */
export interface BuildOptions {
  diff: boolean;
}

/**
 * A turn, found but not built yet: `key` names what its whole message list is built from
 * (turn-messages-cache.ts), so a page can look the list up before building anything.
 */
export interface ResolvedTurn {
  key: string;
  build(opts: BuildOptions): Promise<TurnView>;
}

/** What of the session's recorded calls a view depends on: how many, the newest, how many know their entry. */
function callsVersion(calls: readonly CallRow[]): string {
  let linked = 0;
  for (const c of calls) if (c.entry_id !== null) linked++;
  return `${calls.length}.${calls.at(-1)?.id ?? ""}.${linked}`;
}

const keyOf = (ctx: CallsContext, source: string) =>
  turnKey(ctx.sessionId, ctx.read.view.rev, ctx.prompts, `${source}@${callsVersion(ctx.calls)}`);

/**
 * The view as sent: windowed, and when it is cut, its whole list remembered for the pages. The
 * view itself is remembered under the turn's key (turn-messages-cache.ts), so the same turn is
 * built once per version of the session and its calls, not once per request.
 */
async function sent(turn: ResolvedTurn): Promise<TurnView> {
  const kept = recalledTurnView(turn.key);
  if (kept) return kept;
  const view = await turn.build({ diff: true });
  const shown = windowTurn(view);
  if (shown.messages.length < view.messages.length) rememberTurnMessages(turn.key, view.messages);
  rememberTurnView(turn.key, shown);
  return shown;
}

/** The bodies of `calls` and the `extra` contents: from the cache, else in one statement (bodies.ts). */
const bodiesOf = callBodies;

function recordedPrevious(ctx: CallsContext, row: CallRow, bodies: CallBodies): PreviousTurn {
  return { origin: "recorded", callId: row.id, entryId: producedEntryId(row, ctx.index), refs: toMessageRefs(sentMessages(ctx, row, bodies)) };
}

/** A recorded call, diffed against the previous chat call: both read in one statement. */
function recordedTurn(ctx: CallsContext, row: CallRow): ResolvedTurn {
  return {
    key: keyOf(ctx, `call:${row.id}`),
    build: async ({ diff }) => {
      const previous = diff && row.kind === "chat" ? previousChatCall(ctx, row) : null;
      const bodies = await bodiesOf([row, previous], detailHashes(row));
      const detail = callDetail(ctx, row, bodies);
      return buildTurnView(recordedInput(detail), ctx.index, previous ? recordedPrevious(ctx, previous, bodies) : null);
    },
  };
}

/**
 * The turn of assistant entry `entryId` as the diff's "previous" side, reading its recorded
 * call (if any) together with the `extra` contents the caller needs.
 */
async function previousForEntry(
  ctx: CallsContext,
  entryId: string | null,
  extra: readonly (string | null)[] = [],
): Promise<{ previous: PreviousTurn | null; bodies: CallBodies }> {
  const entry = entryId ? ctx.index.byId.get(entryId) : undefined;
  const call = entry ? callForEntry(ctx, entry.id, entry) : null;
  const bodies = await bodiesOf([call], extra);
  if (!entryId) return { previous: null, bodies };
  if (call) return { previous: recordedPrevious(ctx, call, bodies), bodies };
  const turn = reconstructTurn(ctx.index.entries, entryId, ctx.prompts, ctx.index.byId);
  return { previous: turn ? { origin: "reconstructed", callId: null, entryId, refs: toMessageRefs(turn.messages) } : null, bodies };
}

/** A recorded call of the session, or null when it has no such call. */
export function resolveCall(ctx: CallsContext, callId: string): ResolvedTurn | null {
  const row = ctx.calls.find((c) => c.id === callId);
  return row ? recordedTurn(ctx, row) : null;
}

/** An assistant entry's turn: its recorded call if there is one, else a reconstruction. */
export function resolveEntry(ctx: CallsContext, entryId: string): ResolvedTurn | "not_assistant" | null {
  const entry = ctx.index.byId.get(entryId);
  if (!entry) return null;
  if (entry.type !== "message" || entry.message.role !== "assistant") return "not_assistant";
  const call = callForEntry(ctx, entry.id, entry);
  if (call) return recordedTurn(ctx, call);
  return {
    key: keyOf(ctx, `entry:${entry.id}`),
    build: async ({ diff }) => {
      const { entries, byId } = ctx.index;
      const turn = reconstructTurn(entries, entry.id, ctx.prompts, byId)!;
      const { previous } = diff ? await previousForEntry(ctx, previousAssistantId(entries, entry.id, byId)) : { previous: null };
      return buildTurnView(reconstructedInput(ctx.sessionId, turn, ctx.read.view.meta.header), ctx.index, previous);
    },
  };
}

export async function inspectCall(input: { sessionId: string; callId: string; prompts: PromptSet }): Promise<TurnView | null> {
  const ctx = await callsContext(input.sessionId, input.prompts);
  const turn = ctx ? resolveCall(ctx, input.callId) : null;
  return turn ? sent(turn) : null;
}

export async function inspectEntry(input: {
  sessionId: string;
  entryId: string;
  prompts: PromptSet;
}): Promise<TurnView | "not_assistant" | null> {
  const ctx = await callsContext(input.sessionId, input.prompts);
  const turn = ctx ? resolveEntry(ctx, input.entryId) : null;
  return turn && turn !== "not_assistant" ? sent(turn) : turn;
}

export interface NextTurnConfig {
  settings: CompactionSettings;
  /** The current model (the session's, else the default). */
  model: { ref: string; provider: string; id: string; contextWindow: number };
}

export type InspectNextTurnInput = {
  sessionId: string;
  prompts: PromptSet;
  now?: number;
} & (NextTurnConfig | { configure(meta: SessionMeta, branch: readonly SessionEntry[]): Promise<NextTurnConfig> });

export async function inspectNextTurn(input: InspectNextTurnInput): Promise<TurnView | null> {
  const ctx = await callsContext(input.sessionId, input.prompts);
  return ctx ? sent(await resolvePreview(ctx, input)) : null;
}

/** How a preview finds the next turn's model and settings (and, in tests, its clock). */
export type PreviewOptions = Omit<Extract<InspectNextTurnInput, { configure: unknown }>, "sessionId" | "prompts">;

/**
 * The turn `target` names in `ctx`'s session: null for an unknown call or entry,
 * "not_assistant" for an entry that is not an assistant message.
 */
export async function resolveTurn(ctx: CallsContext, target: InspectTarget, preview: PreviewOptions): Promise<ResolvedTurn | "not_assistant" | null> {
  if (target.kind === "call") return resolveCall(ctx, target.callId);
  if (target.kind === "entry") return resolveEntry(ctx, target.entryId);
  return resolvePreview(ctx, { sessionId: ctx.sessionId, prompts: ctx.prompts, ...preview });
}

/** The view of the turn `target` names, as sent (windowed); null also for an unknown session. */
export async function inspectTurn(
  input: { sessionId: string; prompts: PromptSet; target: InspectTarget } & PreviewOptions,
): Promise<TurnView | "not_assistant" | null> {
  const { sessionId, prompts, target, ...preview } = input;
  const ctx = await callsContext(sessionId, prompts);
  const turn = ctx ? await resolveTurn(ctx, target, preview) : null;
  return turn && turn !== "not_assistant" ? sent(turn) : turn;
}

/** The next-turn preview of `ctx`'s session, for the model and settings `input` gives or configures. */
export async function resolvePreview(ctx: CallsContext, input: InspectNextTurnInput): Promise<ResolvedTurn> {
  const { meta } = ctx.read.view;
  const { settings, model } = "configure" in input ? await input.configure(meta, ctx.read.view.tree.getBranch()) : input;
  return {
    // The preview depends on the leaf (in `rev`), the model and the settings; a clock the caller
    // sets (tests) too. Its times (the placeholder's and a pending compaction's) are those of its
    // first build for this version, and a pending prune's that of the first preview that pruned
    // the result (preview.ts keeps its pruned copies): guesses of "now" either way.
    key: keyOf(ctx, `preview:${JSON.stringify([model, settings, input.now ?? null])}`),
    build: async ({ diff }) => {
      const { entries, byId } = ctx.index;
      const preview = previewNextTurn(entries, meta.leafId, settings, input.prompts, model.contextWindow, {
        model: { provider: model.provider, id: model.id },
        byId,
        ...(input.now !== undefined ? { now: input.now } : {}),
      });
      const setup = ctx.calls.findLast((c) => c.kind === "chat") ?? null;
      // Messages only (a page): neither the previous turn nor the system prompt and tools are read.
      const { previous, bodies } = diff
        ? await previousForEntry(ctx, preview.lastAssistantEntryId, setup ? [setup.system_hash, setup.tools_hash] : [])
        : { previous: null, bodies: { lists: new Map(), contents: new Map() } satisfies CallBodies };
      const notes = ["Preview: what the model will be sent if you send a message now", ...pendingNotes(preview.pending)];
      if (!setup) notes.push("No recorded call yet: the system prompt and tool definitions are not shown");
      const lookup = preview.pendingCompaction ? ctx.index.with(preview.pendingCompaction) : ctx.index;
      const content = (hash: string | null | undefined) => (hash ? bodies.contents.get(hash) : undefined);
      return buildTurnView(
        {
          origin: "preview",
          sessionId: input.sessionId,
          callId: null,
          kind: "chat",
          entryId: null,
          model: model.ref,
          contextWindow: model.contextWindow > 0 ? model.contextWindow : null,
          system: (content(setup?.system_hash) as string | undefined) ?? null,
          tools: (content(setup?.tools_hash) as TurnView["tools"] | undefined) ?? null,
          settings: setup?.settings ?? {},
          messages: preview.messages,
          providerPromptTokens: null,
          response: null,
          startedAt: null,
          durationMs: null,
          pending: preview.pending,
          notes,
        },
        lookup,
        previous,
      );
    },
  };
}
