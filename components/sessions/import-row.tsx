"use client";
/** One file of the import drop zone: its progress, outcome and the buttons that fit its state. */
import Link from "next/link";
import { describeKept, describeTruncation, truncationHeadline } from "@/lib/import-report";
import { formatBytes } from "@/lib/text/byte-size";
import { formatCount } from "./format";
import type { ImportDoneEvent } from "@/lib/types/import-events";
import type { ImportItem } from "./use-imports";

type ImportedSidechainRow = ImportDoneEvent["sidechains"][number];

export interface ImportRowActions {
  cancel: (key: string) => void;
  importAsCopy: (key: string) => void;
  decline: (key: string) => void;
  dismiss: (key: string) => void;
}

const button =
  "rounded border border-line px-2 py-0.5 text-sm hover:bg-[var(--panel)] focus-visible:outline-2 focus-visible:outline-[var(--color-accent)]";
const primary =
  "rounded bg-[var(--color-accent)] px-2 py-0.5 text-sm font-medium text-white hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--color-accent)] dark:text-black";
const errorText = "text-sm text-red-700 dark:text-red-300";

function Skipped({ item }: { item: ImportItem }) {
  const r = item.result;
  if (!r || r.skippedCount === 0) return null;
  const first = r.skipped[0];
  const more = r.skippedCount - r.skipped.length;
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-muted">
        Skipped {formatCount(r.skippedCount, "malformed line", "malformed lines")}
        {first ? `: line ${first.line}: ${first.reason}${r.skippedCount > 1 ? " …" : ""}` : ""}
      </summary>
      <ul className="mt-1 max-h-40 list-disc overflow-auto pl-6 font-mono text-xs">
        {r.skipped.map((s) => (
          <li key={s.line}>
            line {s.line}: {s.reason}
          </li>
        ))}
        {more > 0 && <li>… and {formatCount(more, "more line", "more lines")}</li>}
      </ul>
    </details>
  );
}

/** Entries whose long texts were cut before storing (session-engine.md §1.9): said, never silent. */
function Truncated({ item }: { item: ImportItem }) {
  const r = item.result;
  const headline = r ? truncationHeadline(r.truncatedCount ?? 0) : undefined;
  if (!r || !headline) return null;
  const list = r.truncated ?? [];
  const more = r.truncatedCount - list.length;
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-amber-800 dark:text-amber-300">
        {headline}
        {list[0] ? `: ${describeTruncation(list[0])}${r.truncatedCount > 1 ? " …" : ""}` : ""}
      </summary>
      <ul className="mt-1 max-h-40 list-disc overflow-auto pl-6 font-mono text-xs">
        {list.map((t) => (
          <li key={t.line}>{describeTruncation(t)}</li>
        ))}
        {more > 0 && <li>… and {formatCount(more, "more entry", "more entries")}</li>}
      </ul>
    </details>
  );
}

/** What the import repaired, nothing lost, by line (docs/formats.md). */
function Repaired({ item }: { item: ImportItem }) {
  const r = item.result;
  const count = r?.repairCount ?? 0;
  if (!r || count === 0) return null;
  const list = r.repairs ?? [];
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-muted">
        Repaired {formatCount(count, "line", "lines")}
        {list[0] ? `: line ${list[0].line}: ${list[0].message}${count > 1 ? " …" : ""}` : ""}
      </summary>
      <ul className="mt-1 max-h-40 list-disc overflow-auto pl-6 font-mono text-xs">
        {list.map((n) => (
          <li key={`${n.line}:${n.message}`}>
            line {n.line}: {n.message}
          </li>
        ))}
        {count > list.length && <li>… and {formatCount(count - list.length, "more", "more")}</li>}
      </ul>
    </details>
  );
}

/** Records of another agent's file kept without being shown, per kind (docs/formats.md), and the sidechain sessions it held. */
function Kept({ item }: { item: ImportItem }) {
  const r = item.result;
  const kept = r?.kept ? describeKept(r.kept) : undefined;
  const sidechains = r?.sidechains ?? [];
  if (!kept && sidechains.length === 0) return null;
  return (
    <div className="mt-1 text-sm text-muted">
      {kept && <p>{kept}</p>}
      <SidechainLine sidechains={sidechains.filter((s) => !s.existing)} what="imported with it" />
      <SidechainLine sidechains={sidechains.filter((s) => s.existing)} what="already in Arbor" />
    </div>
  );
}

function Progress({ item }: { item: ImportItem }) {
  const total = item.file.size;
  const sent = item.status === "queued" ? 0 : Math.min(item.sent, total);
  const saving = item.status === "uploading" && sent >= total;
  const entries = item.entries > 0 ? formatCount(item.entries, "entry", "entries") : "";
  const status =
    item.status === "queued"
      ? "Waiting…"
      : saving
        ? `Saving…${entries ? ` ${entries} imported` : ""}`
        : `${formatBytes(sent)} of ${formatBytes(total)} uploaded${entries ? ` · ${entries} imported` : ""}`;
  const percent = total > 0 ? Math.round((sent / total) * 100) : 0;
  return (
    <div className="mt-1">
      <div
        role="progressbar"
        aria-label={`Import progress of ${item.file.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={status}
        className="h-1.5 w-full overflow-hidden rounded-full bg-[var(--panel)] ring-1 ring-[var(--border)]"
      >
        <div
          className={`h-full rounded-full bg-[var(--color-accent)] transition-[width] duration-200 ${saving ? "animate-pulse" : ""}`}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className="mt-0.5 text-sm text-muted">{status}</p>
    </div>
  );
}

export function ImportRow({ item, actions }: { item: ImportItem; actions: ImportRowActions }) {
  const running = item.status === "queued" || item.status === "uploading";
  const r = item.result;
  return (
    <li aria-label={item.file.name} className="px-3 py-2">
      <div className="flex items-center justify-between gap-3">
        <span className="min-w-0 truncate font-medium">{item.file.name}</span>
        {running ? (
          <button type="button" className={button} onClick={() => actions.cancel(item.key)}>
            Cancel
          </button>
        ) : (
          item.status !== "exists" && (
            <button type="button" className={button} onClick={() => actions.dismiss(item.key)}>
              Dismiss
            </button>
          )
        )}
      </div>
      {running && <Progress item={item} />}
      <div aria-live="polite">
        {item.status === "done" && r && (
          <p className="text-sm">
            Imported {r.title ?? "Untitled session"} ({r.formatLabel ? `${r.formatLabel}, ${formatCount(r.records, "record", "records")} → ` : ""}
            {formatCount(r.entryCount, "entry", "entries")}
            {r.migrated ? ", migrated from an older file version" : ""}){" "}
            <Link href={`/sessions/${encodeURIComponent(r.sessionId)}`} className="font-medium text-[var(--color-accent)] underline">
              Open
            </Link>
          </p>
        )}
        {item.status === "cancelled" && <p className="text-sm text-muted">Import cancelled — nothing was saved</p>}
        {item.status === "declined" && (
          <p className="text-sm text-muted">
            Not imported: this session is already in Arbor.{" "}
            {item.existingSessionId && (
              <Link href={`/sessions/${encodeURIComponent(item.existingSessionId)}`} className="text-[var(--color-accent)] underline">
                Open it
              </Link>
            )}
          </p>
        )}
        {item.status === "exists" && (
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <p className="text-sm">This session is already imported. Import as a copy?</p>
            <button type="button" className={primary} onClick={() => actions.importAsCopy(item.key)}>
              Import as copy
            </button>
            <button type="button" className={button} onClick={() => actions.decline(item.key)}>
              Cancel
            </button>
          </div>
        )}
      </div>
      {item.status === "failed" && (
        <p role="alert" className={errorText}>
          {item.error}
        </p>
      )}
      <Truncated item={item} />
      <Kept item={item} />
      <Repaired item={item} />
      <Skipped item={item} />
    </li>
  );
}

/** "2 subagent sessions imported with it: A, B" (linked), or nothing for none. */
function SidechainLine({ sidechains, what }: { sidechains: ImportedSidechainRow[]; what: string }) {
  if (sidechains.length === 0) return null;
  return (
    <p>
      {formatCount(sidechains.length, "subagent session", "subagent sessions")} {what}:{" "}
      {sidechains.map((s, i) => (
        <span key={s.sessionId}>
          {i > 0 && ", "}
          <Link href={`/sessions/${encodeURIComponent(s.sessionId)}`} className="underline">
            {s.title ?? s.sessionId}
          </Link>
        </span>
      ))}
    </p>
  );
}
