"use client";
/**
 * "Servers on this machine" (ui.md "Settings"): the OpenAI-compatible servers found on their usual
 * ports (GET /api/settings/local-servers), each with its models and "Use this server".
 */
import { useCallback, useEffect, useState } from "react";
import type { LocalServer } from "@/lib/llm/local-servers";

export function LocalServers({ current, onUse }: { current: string | null; onUse(baseURL: string): Promise<void> }) {
  const [servers, setServers] = useState<LocalServer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [looking, setLooking] = useState(false);
  const look = useCallback(async () => {
    setLooking(true);
    setError(null);
    try {
      const res = await fetch("/api/settings/local-servers", { headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      setServers(((await res.json()) as { servers: LocalServer[] }).servers);
    } catch (e) {
      setError(`Could not look for local servers: ${(e as Error).message}`);
    } finally {
      setLooking(false);
    }
  }, []);
  useEffect(() => {
    void look();
  }, [look]);
  const found = servers?.filter((s) => s.found) ?? [];
  return (
    <section aria-labelledby="local-servers" className="space-y-2 rounded border border-line p-4">
      <div className="flex items-center gap-3">
        <h2 id="local-servers" className="font-semibold">
          Servers on this machine
        </h2>
        <button type="button" onClick={() => void look()} disabled={looking} className="rounded border border-line px-2 py-0.5 text-sm disabled:opacity-60">
          {looking ? "Looking…" : "Look again"}
        </button>
      </div>
      <p className="text-sm text-muted">Ollama, LM Studio, llama.cpp and vLLM, on their usual ports of 127.0.0.1.</p>
      {error && <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      {servers && (
        <ul aria-label="Local servers" className="space-y-1 text-sm">
          {servers.map((s) => (
            <li key={s.port} className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{s.name}</span>
              <span className="font-mono text-xs text-muted">127.0.0.1:{s.port}</span>
              {s.found ? (
                <>
                  <span>
                    {s.models.length} {s.models.length === 1 ? "model" : "models"}
                    {s.models.length ? `: ${s.models.slice(0, 4).join(", ")}${s.models.length > 4 ? "…" : ""}` : ""}
                  </span>
                  {current === s.baseURL ? (
                    <span className="text-xs font-medium">in use</span>
                  ) : (
                    <button type="button" onClick={() => void onUse(s.baseURL)} className="rounded bg-[var(--color-accent)] px-2 py-0.5 text-xs font-medium text-white dark:text-black">
                      Use {s.name}
                    </button>
                  )}
                </>
              ) : (
                <span className="text-muted">not running</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {servers && found.length === 0 && <p className="text-sm text-muted">None is running. Start one, or connect a provider below.</p>}
    </section>
  );
}
