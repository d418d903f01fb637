"use client";
/**
 * The secrets found in the session (docs/secrets.md): a count in the title bar that opens the
 * list — kind, where (field), the masked value, and a link that selects the entry (`?entry=`,
 * which the canvas centres and selects). Nothing is shown when none were found. The values
 * themselves never reach this list: the server sends masked forms only.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { secretsOptions } from "@/lib/query/secrets";
import { formatCount } from "@/components/sessions/format";

export function SessionSecrets({ sessionId }: { sessionId: string }) {
  const { data } = useQuery(secretsOptions(sessionId));
  if (!data || data.count === 0) return null;
  const label = formatCount(data.count, "secret", "secrets");
  return (
    <details className="relative text-sm">
      <summary className="cursor-pointer rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
        {label} found
      </summary>
      <section
        aria-label="Secrets found in this session"
        className="absolute right-0 z-30 mt-1 max-h-96 w-[32rem] max-w-[90vw] overflow-auto rounded border border-line bg-[var(--bg)] p-2 shadow-lg"
      >
        <p className="mb-2 text-xs text-muted">
          Credentials in this session's entries. They are masked in exports, copies and summary prompts unless you choose otherwise.
        </p>
        <table className="w-full text-left text-xs">
          <thead>
            <tr className="text-muted">
              <th className="py-1 pr-2 font-medium">Kind</th>
              <th className="py-1 pr-2 font-medium">Where</th>
              <th className="py-1 pr-2 font-medium">Value (masked)</th>
              <th className="py-1 font-medium">Entry</th>
            </tr>
          </thead>
          <tbody>
            {data.findings.map((f) => (
              <tr key={`${f.seq}-${f.path}-${f.start}`} className="border-t border-line align-top">
                <td className="py-1 pr-2">{f.kind}</td>
                <td className="py-1 pr-2">{f.field}</td>
                <td className="break-all py-1 pr-2 font-mono">{f.masked}</td>
                <td className="py-1">
                  <Link href={`/sessions/${encodeURIComponent(sessionId)}?entry=${encodeURIComponent(f.entryId)}`} className="font-mono underline">
                    {f.entryId}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}
