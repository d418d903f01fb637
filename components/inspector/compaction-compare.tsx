"use client";
/**
 * Compare compactions of the same span (docs/engine.md "Arbor extensions around compaction"): "Compact again with…" (CompactAgain) runs
 * another one with another focus, prompt (it replaces the summary prompt) or model as a sibling
 * (the summary streams in; Cancel writes nothing), and CompactionAlternatives shows the summaries
 * of every sibling side by side with their fact checks and token counts; "Use this one" moves the
 * leaf to it.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { modelsOptions } from "@/components/session/models-query";
import { useRef, useState } from "react";
import type { CompactionReview } from "@/lib/compaction/compaction-review";
import { runCompactionStream } from "@/lib/chat-protocol/compaction-stream";
import { invalidateSession } from "@/lib/query/keys";
import { CardFacts, SummaryText } from "./compaction-card";

type Phase = { kind: "idle" } | { kind: "asking" } | { kind: "running"; text: string } | { kind: "error"; message: string };

/** "Compact again with…": the button, its form, and the new summary streaming in. */
export function CompactAgain({
  sessionId,
  review,
  onStatus,
  startAsking = false,
}: {
  sessionId: string;
  review: CompactionReview;
  onStatus(text: string): void;
  /** Open with the form showing (the canvas's "Compact again with…"). */
  startAsking?: boolean;
}) {
  const qc = useQueryClient();
  const [phase, setPhase] = useState<Phase>(startAsking ? { kind: "asking" } : { kind: "idle" });
  const [focus, setFocus] = useState("");
  const [prompt, setPrompt] = useState("");
  const [model, setModel] = useState("");
  const models = useQuery({ ...modelsOptions(), enabled: phase.kind === "asking" });
  const abort = useRef<AbortController | null>(null);
  const id = review.compaction.id;

  const run = async () => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setPhase({ kind: "running", text: "" });
    try {
      const url = `/api/sessions/${encodeURIComponent(sessionId)}/compactions/${encodeURIComponent(id)}/again`;
      const body = {
        ...(focus.trim() ? { focus: focus.trim() } : {}),
        ...(prompt.trim() ? { prompt: prompt.trim() } : {}),
        ...(model ? { model } : {}),
      };
      const failed = await runCompactionStream(url, body, {
        signal: ctrl.signal,
        onDelta: (delta) => setPhase((p) => (p.kind === "running" ? { kind: "running", text: p.text + delta } : p)),
      });
      await invalidateSession(qc, sessionId);
      if (failed) return setPhase({ kind: "error", message: failed });
      setPhase({ kind: "idle" });
      onStatus("Second compaction ready: compare them below");
    } catch (e) {
      setPhase(ctrl.signal.aborted ? { kind: "idle" } : { kind: "error", message: (e as Error).message });
      if (ctrl.signal.aborted) onStatus("Compaction cancelled — nothing was written.");
    } finally {
      abort.current = null;
    }
  };

  return (
    <div className="space-y-2">
      {phase.kind === "idle" || phase.kind === "error" ? (
        <button type="button" onClick={() => setPhase({ kind: "asking" })} className="rounded border border-line px-2 py-0.5 text-xs">
          Compact again with…
        </button>
      ) : null}
      {phase.kind === "error" ? <p role="alert" className="text-xs text-red-700 dark:text-red-300">{phase.message}</p> : null}
      {phase.kind === "asking" ? (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void run();
          }}
        >
          <label className="flex items-center gap-1 text-xs">
            Focus for the new summary
            <input value={focus} onChange={(e) => setFocus(e.target.value)} className="rounded border border-line bg-transparent px-1" />
          </label>
          <label className="flex items-center gap-1 text-xs">
            Model
            <select value={model} onChange={(e) => setModel(e.target.value)} className="rounded border border-line bg-transparent px-1">
              <option value="">Session's compaction model</option>
              {(models.data?.models ?? []).map((m) => (
                <option key={m.ref} value={m.ref}>
                  {m.label || m.ref}
                </option>
              ))}
            </select>
          </label>
          <label className="flex w-full flex-col gap-1 text-xs">
            Prompt (replaces the summary prompt; empty keeps it)
            <textarea value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={3} className="rounded border border-line bg-transparent px-1 font-mono" />
          </label>
          <button type="submit" className="rounded border border-line px-2 py-0.5 text-xs font-medium">
            Compact again
          </button>
          <button type="button" onClick={() => setPhase({ kind: "idle" })} className="text-xs underline">
            Cancel
          </button>
        </form>
      ) : null}
      {phase.kind === "running" ? (
        <div>
          <p className="text-xs font-medium">
            Summarizing again…{" "}
            <button type="button" className="underline" onClick={() => abort.current?.abort()}>
              Cancel
            </button>
          </p>
          <pre role="log" aria-label="New summary so far" className="max-h-40 overflow-auto whitespace-pre-wrap rounded bg-panel p-2 text-xs">
            {phase.text || " "}
          </pre>
        </div>
      ) : null}
    </div>
  );
}

/** Every summary of the span side by side, with its fact check and "Use this one" (when there are several). */
export function CompactionAlternatives({
  review,
  onFocusEntry,
  onMove,
  onStatus,
}: {
  review: CompactionReview;
  onFocusEntry(entryId: string): void;
  onMove(leafId: string | null, expectedLeafId: string | null): Promise<string | undefined>;
  onStatus(text: string): void;
}) {
  const use = async (targetId: string) => {
    const failed = await onMove(targetId, review.leafId);
    onStatus(failed ?? `Using compaction ${targetId}`);
  };
  const others = review.alternatives.length > 1;
  return (
    <>
      {others ? (
        <section aria-label="Compare compactions" className="grid gap-2" style={{ gridTemplateColumns: `repeat(${review.alternatives.length}, minmax(14rem, 1fr))` }}>
          {review.alternatives.map((c) => (
            <article key={c.id} aria-label={`Compaction ${c.id}`} className="min-w-0 space-y-1 rounded border border-line p-2">
              <div className="flex items-center gap-2 text-xs">
                <span className="font-mono font-semibold">{c.id}</span>
                {c.focus ? <span className="text-muted">focus: {c.focus}</span> : null}
                {c.model ? <span className="text-muted">model: {c.model}</span> : null}
                {c.prompt ? <span className="text-muted" title={c.prompt}>own prompt</span> : null}
                <span className="flex-1" />
                {c.active ? (
                  <span className="font-medium">in use</span>
                ) : (
                  <button type="button" onClick={() => void use(c.id)} className="rounded border border-line px-2 py-0.5 font-medium">
                    Use this one
                  </button>
                )}
              </div>
              <SummaryText card={c} onFocusEntry={onFocusEntry} />
              <CardFacts card={c} onFocusEntry={onFocusEntry} />
            </article>
          ))}
        </section>
      ) : null}
    </>
  );
}
