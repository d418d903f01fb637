"use client";
/**
 * "Continue from here" (session-engine.md §11.4, §16.5; ui.md "Click looks, actions act"): the one
 * way the canvas, the list, the keyboard and the chat's message menu move the leaf. The dialog
 * first says exactly what will happen (continue-plan.ts: where the new branch starts, what goes
 * into the composer, what becomes of the branch left behind, where a summary would go), then
 * offers the §16.5 choices: continue without a summary, summarize, summarize with a custom prompt
 * (a text box); with branch summaries off, or nothing left behind, just "Continue from here".
 * While summarising, the summary streams in with Cancel; cancelling writes nothing and leaves the
 * leaf where it was.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Modal } from "@/components/chat/modal";
import { readUIStream } from "@/lib/chat-protocol/read-ui-stream";
import { readErrorMessage } from "@/lib/text/error-text";
import type { ArborDataParts } from "@/lib/chat-protocol/ui-types";
import { invalidateSession, keys } from "@/lib/query/keys";
import type { SessionData } from "@/lib/query/session";
import { applySavedEntry, withLeaf } from "@/lib/query/session-cache";
import { type ContinuePlan, continueWords } from "./continue-plan";

export interface NavigationOutcome {
  previousLeafId: string | null;
  leafId: string | null;
  editorText?: string;
  summarized: boolean;
}

interface NavigatedPart {
  leafId: string | null;
  editorText?: string;
  cancelled: boolean;
  aborted?: boolean;
  summaryEntryId?: string;
}

/** Runs a navigation request and applies the streamed entries to the cache. */
export async function runNavigation(opts: {
  sessionId: string;
  targetId: string;
  summarize: boolean;
  customInstructions?: string;
  signal?: AbortSignal;
  onSummaryText?: (delta: string) => void;
  apply: (entry: ArborDataParts["entry"]) => void;
}): Promise<NavigatedPart> {
  const res = await fetch(`/api/sessions/${encodeURIComponent(opts.sessionId)}/navigate`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ targetId: opts.targetId, summarize: opts.summarize, customInstructions: opts.customInstructions || undefined }),
    signal: opts.signal,
  });
  if (!res.ok) throw new Error(await readErrorMessage(res));
  let result: NavigatedPart | undefined;
  let failure: string | undefined;
  for await (const chunk of readUIStream(res)) {
    if (chunk.type === "data-branchSummary") {
      const d = chunk.data as { phase: string; delta?: string; errorMessage?: string };
      if (d.phase === "delta" && d.delta) opts.onSummaryText?.(d.delta);
      if (d.errorMessage) failure = d.errorMessage;
    } else if (chunk.type === "data-entry") opts.apply(chunk.data as ArborDataParts["entry"]);
    else if (chunk.type === "data-navigated") result = chunk.data as NavigatedPart;
    else if (chunk.type === "data-error") failure = (chunk.data as ArborDataParts["error"]).message;
  }
  if (failure) throw new Error(failure);
  if (!result) throw new Error("The server ended the navigation without a result.");
  return result;
}

type Step = { kind: "choose" } | { kind: "custom" } | { kind: "running"; text: string } | { kind: "error"; message: string };

const secondary = "rounded border border-line px-3 py-1.5";
const primary = "rounded bg-[var(--color-branch)] px-3 py-1.5 font-medium text-white disabled:opacity-50 dark:text-black";

export function ContinueDialog({
  sessionId,
  plan,
  draftEmpty,
  summaries,
  previousLeafId,
  onClose,
  onNavigated,
}: {
  sessionId: string;
  plan: ContinuePlan;
  /** The composer holds no text now (the editor text rule, §11.4). */
  draftEmpty: boolean;
  /** Branch summaries are on (session settings, §16.5). */
  summaries: boolean;
  previousLeafId: string | null;
  onClose: (status?: string) => void;
  onNavigated: (outcome: NavigationOutcome) => void;
}) {
  const qc = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: "choose" });
  const [custom, setCustom] = useState("");
  const abort = useRef<AbortController | null>(null);
  const words = continueWords(plan, draftEmpty);
  const offerSummary = summaries && words.summary !== undefined;

  const go = async (summarize: boolean, customInstructions?: string) => {
    const ctrl = new AbortController();
    abort.current = ctrl;
    setStep({ kind: "running", text: "" });
    try {
      const result = await runNavigation({
        sessionId,
        targetId: plan.target.id,
        summarize,
        customInstructions,
        signal: ctrl.signal,
        onSummaryText: (d) => setStep((s) => (s.kind === "running" ? { kind: "running", text: s.text + d } : s)),
        apply: (d) => applySavedEntry(qc, sessionId, d.entry, d.leafId),
      });
      if (result.aborted) return onClose("Branch summarization cancelled");
      if (result.cancelled) return onClose("Navigation cancelled");
      qc.setQueryData<SessionData>(keys.session(sessionId), (old) => withLeaf(old, result.leafId));
      void invalidateSession(qc, sessionId);
      onNavigated({ previousLeafId, leafId: result.leafId, editorText: result.editorText, summarized: summarize });
    } catch (e) {
      if (ctrl.signal.aborted) onClose("Branch summarization cancelled");
      else setStep({ kind: "error", message: (e as Error).message });
    } finally {
      abort.current = null;
    }
  };

  const cancel = () => {
    if (abort.current) abort.current.abort();
    else if (step.kind === "custom") setStep({ kind: "choose" });
    else onClose();
  };

  return (
    <Modal open title="Continue from here?" onClose={cancel}>
      <ul aria-label="What will happen" className="mb-3 list-disc space-y-1 pl-5 text-sm">
        <li>{words.where}</li>
        <li>{words.composer}</li>
        <li>{words.left}</li>
        {offerSummary ? <li>Summarize: {words.summary}</li> : null}
        {!summaries && words.summary ? <li>Branch summaries are off for this session (Settings), so none is written.</li> : null}
      </ul>
      {step.kind === "choose" && (
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" onClick={() => onClose()} className={secondary}>
            Cancel
          </button>
          {offerSummary ? (
            <>
              <button type="button" onClick={() => void go(false)} className={secondary}>
                Continue without summary
              </button>
              <button type="button" onClick={() => setStep({ kind: "custom" })} className={secondary}>
                Summarize with custom prompt
              </button>
              <button type="button" onClick={() => void go(true)} className={primary}>
                Summarize and continue
              </button>
            </>
          ) : (
            <button type="button" onClick={() => void go(false)} className={primary}>
              Continue from here
            </button>
          )}
        </div>
      )}
      {step.kind === "custom" && (
        <div className="space-y-2">
          <label className="block text-sm font-medium" htmlFor="branch-custom-prompt">
            Custom summarization instructions
          </label>
          <textarea id="branch-custom-prompt" value={custom} onChange={(e) => setCustom(e.target.value)} rows={4} className="w-full rounded border border-line bg-[var(--bg)] p-2" />
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => setStep({ kind: "choose" })} className={secondary}>
              Back
            </button>
            <button type="button" disabled={!custom.trim()} onClick={() => void go(true, custom.trim())} className={primary}>
              Summarize and continue
            </button>
          </div>
        </div>
      )}
      {step.kind === "running" && (
        <div>
          <p role="status" className="mb-2 font-medium">
            {offerSummary ? "Summarizing branch…" : "Moving…"}
          </p>
          {offerSummary ? (
            <pre role="log" aria-label="Branch summary so far" className="max-h-72 overflow-auto rounded border border-line bg-panel p-2 text-sm whitespace-pre-wrap">
              {step.text || " "}
            </pre>
          ) : null}
          <div className="mt-3 flex justify-end">
            <button type="button" onClick={cancel} className={secondary}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {step.kind === "error" && (
        <div>
          <p role="alert" className="text-red-700 dark:text-red-300">
            {step.message}
          </p>
          <div className="mt-3 flex justify-end">
            <button type="button" onClick={() => onClose()} className={secondary}>
              Close
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}
