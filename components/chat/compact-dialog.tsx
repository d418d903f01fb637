"use client";
/**
 * Manual compaction (session-engine.md §13.4, ui.md "Long work"): a preview of what will be summarised and
 * kept, then — once the user confirms — the summary streaming in, with Cancel (nothing is written).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { runCompactionStream } from "@/lib/chat-protocol/compaction-stream";
import { readErrorMessage } from "@/lib/text/error-text";
import { invalidateSession } from "@/lib/query/keys";
import { applySavedEntry } from "@/lib/query/session-cache";
import { Modal } from "./modal";
import { groupDigits } from "@/lib/text/group-digits";

export interface CompactionPreview {
  canCompact: boolean;
  reason?: string;
  firstKeptEntryId?: string;
  firstKeptText?: string;
  counts?: { summarized: number; turnPrefix: number; kept: number };
  tokensBefore?: number;
  keptTokens?: number;
  readFiles?: string[];
  modifiedFiles?: string[];
  /** The model that writes the summary (the session's compaction model). */
  model?: { ref: string; label?: string; hasApiKey: boolean; offline: boolean };
}

type Phase = { kind: "loading" } | { kind: "preview"; preview: CompactionPreview } | { kind: "running"; text: string } | { kind: "done" } | { kind: "error"; message: string } | { kind: "cancelled" };

export function CompactDialog({ sessionId, focus, open, onClose }: { sessionId: string; focus?: string; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!open) return;
    setPhase({ kind: "loading" });
    const ctrl = new AbortController();
    const q = focus ? `?focus=${encodeURIComponent(focus)}` : "";
    fetch(`/api/sessions/${encodeURIComponent(sessionId)}/compact${q}`, { signal: ctrl.signal })
      .then(async (res) => (res.ok ? setPhase({ kind: "preview", preview: (await res.json()) as CompactionPreview }) : setPhase({ kind: "error", message: await readErrorMessage(res) })))
      .catch((e: Error) => !ctrl.signal.aborted && setPhase({ kind: "error", message: e.message }));
    return () => ctrl.abort();
  }, [open, focus, sessionId]);

  const run = async () => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setPhase({ kind: "running", text: "" });
    try {
      const failed = await runCompactionStream(`/api/sessions/${encodeURIComponent(sessionId)}/compact`, focus ? { focus } : {}, {
        signal: ctrl.signal,
        onDelta: (delta) => setPhase((p) => (p.kind === "running" ? { kind: "running", text: p.text + delta } : p)),
        onEntry: (entry, leafId) => applySavedEntry(qc, sessionId, entry, leafId),
      });
      if (failed) return setPhase({ kind: "error", message: failed });
      setPhase({ kind: "done" });
      void invalidateSession(qc, sessionId);
      onClose();
    } catch (e) {
      if (ctrl.signal.aborted) setPhase({ kind: "cancelled" });
      else setPhase({ kind: "error", message: (e as Error).message });
    } finally {
      abort.current = null;
    }
  };

  const cancel = () => {
    if (abort.current) abort.current.abort();
    else onClose();
  };

  return (
    <Modal open={open} title="Compact session" onClose={cancel}>
      {focus && (
        <p className="mb-2 text-sm">
          Focus: <q>{focus}</q>
        </p>
      )}
      {phase.kind === "loading" && <p role="status">Preparing the compaction plan…</p>}
      {phase.kind === "preview" && <PreviewBody preview={phase.preview} />}
      {phase.kind === "running" && (
        <div>
          <p role="status" className="mb-2 font-medium">
            Summarizing…
          </p>
          <pre role="log" aria-label="Summary so far" className="max-h-80 overflow-auto rounded border border-line bg-panel p-2 text-sm whitespace-pre-wrap">
            {phase.text || " "}
          </pre>
        </div>
      )}
      {phase.kind === "cancelled" && <p role="status">Compaction cancelled — nothing was written.</p>}
      {phase.kind === "error" && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {phase.message}
        </p>
      )}
      <div className="mt-4 flex justify-end gap-2">
        {phase.kind === "running" ? (
          <button type="button" onClick={cancel} className="rounded border border-line px-3 py-1.5">
            Cancel
          </button>
        ) : (
          <>
            <button type="button" onClick={onClose} className="rounded border border-line px-3 py-1.5">
              {phase.kind === "preview" ? "Cancel" : "Close"}
            </button>
            {phase.kind === "preview" && phase.preview.canCompact && (
              <button type="button" onClick={run} className="rounded bg-[var(--color-compaction)] px-3 py-1.5 font-medium text-black">
                Compact
              </button>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}

/** Who writes the summary: a named model, or the offline model's extract (said plainly, ui.md "Words"). */
function SummaryBy({ model }: { model: CompactionPreview["model"] }) {
  if (!model) return null;
  if (model.offline)
    return (
      <p role="note" className="rounded border border-line bg-panel px-2 py-1">
        No model is connected, so the summary will be the offline model's extract: sentences, files and errors picked from
        the conversation, not written by a model. <a href="/settings" className="underline">Connect a model in Settings</a>.
      </p>
    );
  return <p className="text-muted">The summary is written by {model.label ?? model.ref}.</p>;
}

function PreviewBody({ preview }: { preview: CompactionPreview }) {
  if (!preview.canCompact) return <p role="status">{preview.reason ?? "Nothing to compact."}</p>;
  const c = preview.counts;
  return (
    <div className="space-y-2 text-sm">
      <SummaryBy model={preview.model} />
      <p>
        Summarise <strong>{c?.summarized ?? 0}</strong> messages{c?.turnPrefix ? <> and the first {c.turnPrefix} of a long turn</> : null}, keep the last{" "}
        <strong>{c?.kept ?? 0}</strong> messages verbatim.
      </p>
      {preview.firstKeptText && (
        <p>
          The model's memory will start at: <q className="italic">{preview.firstKeptText}</q>
        </p>
      )}
      <p>
        Context now: {groupDigits(preview.tokensBefore ?? 0)} tokens; kept part: about {groupDigits(preview.keptTokens ?? 0)} tokens plus the summary.
      </p>
      {(preview.readFiles?.length ?? 0) + (preview.modifiedFiles?.length ?? 0) > 0 && (
        <p className="text-muted">
          Files tracked: {preview.readFiles?.length ?? 0} read, {preview.modifiedFiles?.length ?? 0} modified.
        </p>
      )}
    </div>
  );
}
