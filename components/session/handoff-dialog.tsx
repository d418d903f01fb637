"use client";
/**
 * "Continue in…" (docs/formats.md "Hand-off", docs/ui.md): the path to an entry handed to pi,
 * Claude Code or Codex CLI. The user picks the agent, reads what the file will not hold and the
 * exact path it would be written to, then chooses "Write" (that path, confirmed by the click; the
 * server refuses any other and never replaces a file) or "Download". Secrets stay masked.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Modal } from "@/components/chat/modal";
import { handoffPreviewOptions, handoffUrl } from "@/lib/query/handoff";
import { formatBytes } from "@/lib/text/byte-size";
import { readErrorMessage } from "@/lib/text/error-text";
import type { HandoffAgent, HandoffPreview, HandoffWriteRequest, HandoffWritten } from "@/lib/types/handoff";

const AGENTS: { id: HandoffAgent; label: string }[] = [
  { id: "claude", label: "Claude Code" },
  { id: "codex", label: "Codex CLI" },
  { id: "pi", label: "pi" },
];

const button = "rounded border border-line px-3 py-1.5";
const primary = "rounded bg-[var(--color-accent)] px-3 py-1.5 font-medium text-white disabled:opacity-50 dark:text-black";

type Outcome = { ok: true; written: HandoffWritten } | { ok: false; error: string };

async function writeFile(sessionId: string, p: HandoffPreview): Promise<Outcome> {
  const body: HandoffWriteRequest = { entry: p.entryId, format: p.format, sessionId: p.sessionId, createdAt: p.createdAt, path: p.path };
  const res = await fetch(`/api/sessions/${encodeURIComponent(sessionId)}/handoff`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) return { ok: false, error: await readErrorMessage(res) };
  return { ok: true, written: (await res.json()) as HandoffWritten };
}

export function HandoffDialog({ open, sessionId, entryId, onClose }: { open: boolean; sessionId: string; entryId?: string; onClose: () => void }) {
  const [agent, setAgent] = useState<HandoffAgent>("claude");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [writing, setWriting] = useState(false);
  const preview = useQuery({ ...handoffPreviewOptions(sessionId, entryId, agent), enabled: open });
  const p = preview.data;

  const choose = (next: HandoffAgent) => {
    setAgent(next);
    setOutcome(null);
  };
  const write = async () => {
    if (!p) return;
    setWriting(true);
    try {
      setOutcome(await writeFile(sessionId, p));
    } finally {
      setWriting(false);
    }
  };

  return (
    <Modal open={open} title="Continue in…" onClose={onClose}>
      <fieldset className="mb-3 flex gap-4">
        <legend className="mb-1 text-sm font-medium">Agent</legend>
        {AGENTS.map((a) => (
          <label key={a.id} className="flex items-center gap-1 text-sm">
            <input type="radio" name="handoff-agent" value={a.id} checked={agent === a.id} onChange={() => choose(a.id)} />
            {a.label}
          </label>
        ))}
      </fieldset>
      {preview.isPending && <p className="text-sm text-muted">Preparing the file…</p>}
      {preview.isError && (
        <p role="alert" className="text-sm text-red-600">
          {preview.error.message}
        </p>
      )}
      {p && (
        <>
          <section aria-label="Not carried" className="mb-3">
            <h3 className="text-sm font-medium">What {p.label} will not get</h3>
            {p.notes.length === 0 ? (
              <p className="text-sm text-muted">Everything on the path is carried.</p>
            ) : (
              <ul className="list-disc pl-5 text-sm">
                {p.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            )}
          </section>
          <section aria-label="Target" className="mb-3 text-sm">
            <h3 className="font-medium">File</h3>
            <code className="block break-all rounded bg-[var(--bg-muted,transparent)] py-1" data-testid="handoff-path">
              {p.path}
            </code>
            <p className="text-muted">
              {formatBytes(p.bytes)} · then run <code>{p.resume}</code>
            </p>
            {!p.writable && <p className="text-muted">Cannot write here: {p.why}. Download the file and put it there yourself.</p>}
          </section>
          {outcome && (
            <p role="status" className={`mb-3 text-sm ${outcome.ok ? "" : "text-red-600"}`}>
              {outcome.ok ? `Written to ${outcome.written.path}. Resume it with: ${outcome.written.resume}` : outcome.error}
            </p>
          )}
        </>
      )}
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onClose} className={button}>
          Close
        </button>
        <a href={handoffUrl(sessionId, entryId, agent)} download className={button} aria-disabled={!p}>
          Download
        </a>
        <button type="button" className={primary} disabled={!p?.writable || writing || outcome?.ok === true} onClick={() => void write()} title={p ? `Write ${p.path}` : undefined}>
          Write
        </button>
      </div>
    </Modal>
  );
}

/** The session page's "Continue in…": the dialog for the session's current leaf. */
export function HandoffButton({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="text-sm text-muted underline">
        Continue in…
      </button>
      {open && <HandoffDialog open sessionId={sessionId} onClose={() => setOpen(false)} />}
    </>
  );
}
