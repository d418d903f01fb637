/**
 * The tree pane while its data loads or its layout is built (a large session):
 * the same "Session tree" region as the canvas, holding one status line with the progress
 * ("Loading tree… 40%"), or an alert when that failed. The chat and the inspector work
 * meanwhile.
 */
export function TreePending({ text, share, alert, className }: { text: string; share?: number | null; alert?: boolean; className?: string }) {
  return (
    <section aria-label="Session tree" className={`tree-canvas flex h-full min-h-0 flex-col items-center justify-center gap-2 p-6 ${className ?? ""}`}>
      <p role={alert ? "alert" : "status"} className={alert ? "text-red-700 dark:text-red-300" : "text-muted"}>
        {text}
      </p>
      {share != null ? <progress className="w-48" max={100} value={Math.round(share * 100)} aria-hidden="true" /> : null}
    </section>
  );
}
