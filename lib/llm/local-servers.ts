/**
 * Finding OpenAI-compatible model servers on this machine (ui.md "Settings": models in two clicks).
 * Each candidate is asked `GET http://127.0.0.1:<port>/v1/models` with a short timeout; only the
 * loopback address and the known ports are ever asked (nothing the browser names), so the probe
 * cannot be pointed elsewhere. Server-side: it makes network requests, nothing else.
 */

export interface LocalServerCandidate {
  name: string;
  port: number;
}

/** The usual ports of the common local servers. */
export const LOCAL_SERVERS: readonly LocalServerCandidate[] = [
  { name: "Ollama", port: 11434 },
  { name: "LM Studio", port: 1234 },
  { name: "llama.cpp", port: 8080 },
  { name: "vLLM", port: 8000 },
];

export const PROBE_TIMEOUT_MS = 800;

export interface LocalServer extends LocalServerCandidate {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  found: boolean;
  models: string[];
  /** Why nothing usable answered ("no answer", "HTTP 404", "not an OpenAI-compatible model list"). */
  problem?: string;
}

export function localBaseURL(port: number): string {
  return `http://127.0.0.1:${port}/v1`;
}

async function probe(c: LocalServerCandidate, fetchImpl: typeof fetch, timeoutMs: number): Promise<LocalServer> {
  const baseURL = localBaseURL(c.port);
  const none = (problem: string): LocalServer => ({ ...c, baseURL, found: false, models: [], problem });
  try {
    const res = await fetchImpl(`${baseURL}/models`, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" }, redirect: "error" });
    if (!res.ok) return none(`HTTP ${res.status}`);
    const body = (await res.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return none("not an OpenAI-compatible model list");
    const models = body.data
      .map((m) => (m && typeof m === "object" ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === "string" && id.length > 0);
    return { ...c, baseURL, found: true, models };
  } catch {
    return none("no answer");
  }
}

/** Asks every candidate at once; resolves within about `timeoutMs`. */
export function discoverLocalServers(
  opts: { candidates?: readonly LocalServerCandidate[]; fetchImpl?: typeof fetch; timeoutMs?: number } = {},
): Promise<LocalServer[]> {
  const { candidates = LOCAL_SERVERS, fetchImpl = fetch, timeoutMs = PROBE_TIMEOUT_MS } = opts;
  return Promise.all(candidates.map((c) => probe(c, fetchImpl, timeoutMs)));
}
