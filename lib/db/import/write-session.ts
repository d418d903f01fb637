import "server-only";
/**
 * The import's writes inside its one transaction (lib/db/import/import.ts states the contract):
 * the file's session — its row, every entry through one COPY, the original file, the secrets
 * found, labels, header links and usage ledger — then the sessions the file holds of their own
 * (Claude Code sidechain runs; docs/formats.md "Subagents").
 */
import { createStreamMigrator } from "@/lib/session/file/migrate-stream";
import { modelRef } from "@/lib/session/model-ref";
import type { SessionHeader } from "@/lib/session/types";
import type { ImportDoneEvent } from "@/lib/types/import-events";
import { toPgText } from "../pg-json";
import { findSessionMeta } from "../store/read";
import { insertFindings } from "../store/secret-findings";
import { finishSessionRow, insertSessionRow, setHeaderLinks } from "../store/session";
import { normalizeTitle } from "../store/session-rows";
import { applyLabels, type BulkSql } from "../store/sql";
import { writeLedger } from "../usage/ledger-write";
import { leafOf, loadEntries, type Plan } from "./entry-step";
import { SearchRows } from "./search-rows";
import type { LineReader } from "./line-reader";
import { DEFAULT_MAX_SKIPPED_LINES } from "@/lib/import-limits";
import { ImportState, type Lines } from "./parse";
import type { UsageRow } from "@/lib/usage/rows";

/** A sidechain session the file held (lib/types/import-events.ts ImportDoneEvent). */
export type ImportedSidechain = ImportDoneEvent["sidechains"][number];

export interface WriteContext {
  plan: Plan;
  state: ImportState;
  lines: Lines;
  reader: LineReader;
  header: SessionHeader;
  sessionId: string;
  givenTitle?: string;
  /** A session the file holds (a sidechain run): the file's original is kept with the main one only. */
  side?: true;
}

/**
 * Inside the transaction: the file's session (below), then the sessions it holds of their own,
 * then the usage ledger of each, in that order. The ledger goes last because its insert updates
 * the shared sums (usage_daily: one row per day and model, whichever session) and holds those
 * rows' locks until the commit: written before the full-text rows and the sidechains, it made
 * every other import of the same days wait that long (two files synced at once mostly took
 * turns; bench/sync-profile.ts).
 */
export async function writeFile(sql: BulkSql, ctx: WriteContext): Promise<{ leafId: string | null; title: string | null; sidechains: ImportedSidechain[] }> {
  const ledgers: Ledger[] = [];
  const main = await writeSession(sql, ctx, ledgers);
  const sidechains: ImportedSidechain[] = [];
  for (const side of ctx.plan.detected.sidechains()) {
    const sessionId = toPgText(side.header.id);
    // Imported before (the file imported again as a copy): its Task links already lead there.
    const stored = await findSessionMeta({ id: sessionId });
    if (stored) {
      sidechains.push({ sessionId, title: stored.title, entryCount: stored.entryCount, existing: true });
      continue;
    }
    const migrator = createStreamMigrator(side.header);
    // No progress events of its own: the file's progress has been reported.
    const { onProgress: _progress, ...opts } = ctx.plan.opts;
    const plan: Plan = { ...ctx.plan, migrator, arborLeafId: undefined, secrets: [], opts: { ...opts, asCopy: false } };
    const state = new ImportState(ctx.plan.file, ctx.plan.opts.maxSkippedLines ?? DEFAULT_MAX_SKIPPED_LINES);
    const lines = (async function* () {
      yield* side.lines;
    })();
    const r = await writeSession(sql, { ...ctx, plan, state, lines, header: migrator.header, sessionId, side: true }, ledgers);
    sidechains.push({ sessionId, title: r.title, entryCount: state.count });
  }
  for (const { sessionId, rows } of ledgers) await writeLedger(sql, sessionId, rows);
  return { ...main, sidechains };
}

/** A session's usage ledger rows, written at the end of writeFile. */
interface Ledger {
  sessionId: string;
  rows: readonly UsageRow[];
}

async function writeSession(sql: BulkSql, ctx: WriteContext, ledgers: Ledger[]): Promise<{ leafId: string | null; title: string | null }> {
  const { plan, state, header, sessionId, givenTitle } = ctx;
  const created = Date.parse(header.timestamp);
  state.headerTime = Number.isNaN(created) ? 0 : created;
  const storedHeader: SessionHeader = { ...header, id: sessionId, ...(givenTitle ? { title: givenTitle } : {}) };
  await insertSessionRow(sql, {
    header: storedHeader,
    ...(ctx.side ? {} : { sourceFileName: plan.file }),
    ...(Number.isNaN(created) ? {} : { createdAt: new Date(created) }),
  });
  if (!ctx.side) await plan.capture.attach(sql, { sessionId, format: plan.detected.format, fileName: plan.file });
  plan.opts.onProgress?.({ bytes: ctx.reader.bytesRead, entries: 0, ...(plan.opts.totalBytes ? { totalBytes: plan.opts.totalBytes } : {}) });
  const search = new SearchRows(sessionId, plan.opts.searchRows !== false);
  try {
    const written = await writeRows(sql, ctx, search);
    ledgers.push({ sessionId, rows: state.usage });
    return written;
  } finally {
    await search.dispose();
  }
}

async function writeRows(sql: BulkSql, ctx: WriteContext, search: SearchRows): Promise<{ leafId: string | null; title: string | null }> {
  const { plan, state, header, sessionId, givenTitle } = ctx;
  const created = Date.parse(header.timestamp);
  await loadEntries(sql, ctx.lines, ctx.reader, plan, state, { sessionId, search });
  // The COPY is over, so the connection is free for the original file's chunks.
  if (!ctx.side) await plan.capture.finish(recordsOf(plan, state));
  await insertFindings(sql, sessionId, plan.secrets);

  const leafId = leafOf(plan, state);
  const derived = givenTitle ?? normalizeTitle(header.title) ?? state.sessionInfoName ?? state.summaryTitle ?? normalizeTitle(state.prompts.title);
  const title = (plan.opts.asCopy && !givenTitle && derived ? normalizeTitle(`${derived} (copy)`) : derived) ?? null;
  const latest = Math.max(state.latest, Number.isNaN(created) ? Number.NEGATIVE_INFINITY : created);
  await finishSessionRow(sql, {
    id: sessionId,
    leafId,
    entryCount: state.count,
    model: state.model ?? legacyModel(header),
    title,
    lastActivityAt: Number.isFinite(latest) ? new Date(latest) : null,
  });
  await applyLabels(sql, { sessionId, labels: state.labels });
  if (state.links.size > 0) await setHeaderLinks(sql, sessionId, [...state.links].map(([url, title]) => ({ url, title })));
  await search.write(sql, state.count);
  return { leafId, title };
}


/** pi files are not re-parsed to count: their records are the header and the entries. */
export function recordsOf(plan: Plan, state: ImportState): number {
  return plan.detected.format === "pi" ? state.count + 1 : plan.detected.records();
}

/** v1 headers name the model; used when no entry does. */
function legacyModel(header: SessionHeader): string | null {
  return typeof header.provider === "string" && typeof header.modelId === "string" ? toPgText(modelRef(header.provider, header.modelId)) : null;
}
