"use client";
/** Error boundary for every page: says what failed and offers a retry. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-xl p-8">
      <h1 className="mb-2 text-xl font-semibold">Something went wrong</h1>
      <p className="mb-4 text-muted">{error.message || "An unexpected error occurred."}</p>
      <button type="button" onClick={reset} className="rounded border border-line px-3 py-1.5 hover:bg-panel">
        Try again
      </button>
    </div>
  );
}
