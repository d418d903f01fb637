/**
 * The page shown when the database cannot be reached (stopped, restarting): the same plain
 * message the routes answer with 503 (lib/http/route-helpers.ts; the page passes lib/db's
 * DATABASE_UNAVAILABLE_MESSAGE), and a way to try again. A server component: pages render it
 * instead of throwing, so the reader never sees a React error.
 */

export function DatabaseUnavailable({ retryHref, message }: { retryHref: string; message: string }) {
  return (
    <div role="alert" className="mx-auto max-w-xl p-8">
      <h1 className="mb-2 text-xl font-semibold">Database not reachable</h1>
      <p className="mb-4 text-muted">{message}.</p>
      <a href={retryHref} className="inline-block rounded border border-line px-3 py-1.5 hover:bg-panel">
        Try again
      </a>
    </div>
  );
}
