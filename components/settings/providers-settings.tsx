"use client";
/**
 * The Settings page's models (ui.md "Settings": a model in two clicks): the servers found on this
 * machine, each provider with its key (set here or by the environment — never shown again) or base
 * URL, its models with their context windows (editable), and the offline model, labelled. A save
 * takes effect with the next request: no restart (lib/chat/provider-settings.ts).
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { saveContextWindow, saveProvider } from "@/app/settings/actions";
import { MODELS_KEY } from "@/components/session/models-query";
import type { ActionResult } from "@/lib/action-result";
import type { ProvidersView } from "@/lib/chat/providers-view";
import { groupDigits } from "@/lib/text/group-digits";
import type { PageProvider } from "@/lib/llm/provider-config";
import { LocalServers } from "./local-servers";

type Provider = ProvidersView["providers"][number];
type Save = (run: () => Promise<ActionResult<ProvidersView>>, done: string) => Promise<boolean>;

const input = "rounded border border-line bg-[var(--bg)] px-2 py-1 text-sm";
const button = "rounded border border-line px-2 py-1 text-sm disabled:opacity-60";

function keyText(p: Provider): string {
  if (p.keySource === "page") return "API key set (saved in Arbor's data folder)";
  if (p.keySource === "environment") return "API key from the environment";
  return p.provider === "compatible" ? "No API key (most local servers need none)" : "No API key";
}

function ModelWindows({ provider, save }: { provider: Provider; save: Save }) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  if (provider.models.length === 0) return null;
  return (
    <table className="w-full text-sm" aria-label={`${provider.label} models`}>
      <thead>
        <tr className="text-left text-xs text-muted">
          <th className="font-normal">Model</th>
          <th className="font-normal">Context window</th>
        </tr>
      </thead>
      <tbody>
        {provider.models.map((m) => (
          <tr key={m.ref}>
            <td className="py-0.5 font-mono text-xs">{m.id}</td>
            <td className="py-0.5">
              <form
                className="flex flex-wrap items-center gap-1"
                onSubmit={(e) => {
                  e.preventDefault();
                  const tokens = Number.parseInt(edits[m.ref] ?? "", 10);
                  if (Number.isFinite(tokens)) void save(() => saveContextWindow({ ref: m.ref, tokens }), `Context window of ${m.id} saved`);
                }}
              >
                <input
                  type="number"
                  min={1000}
                  aria-label={`Context window of ${m.id}, in tokens`}
                  placeholder={String(m.contextWindow)}
                  value={edits[m.ref] ?? ""}
                  onChange={(e) => setEdits((old) => ({ ...old, [m.ref]: e.target.value }))}
                  className={`${input} w-32`}
                />
                <span className="text-xs text-muted">
                  {groupDigits(m.contextWindow)} {m.windowSource === "page" ? "(set here)" : m.windowSource === "assumed" ? "(assumed: unknown model)" : ""}
                </span>
                {edits[m.ref] ? (
                  <button type="submit" className={button}>
                    Save
                  </button>
                ) : null}
                {m.windowSource === "page" ? (
                  <button type="button" className="text-xs underline" onClick={() => void save(() => saveContextWindow({ ref: m.ref, tokens: null }), `Context window of ${m.id} reset`)}>
                    Reset
                  </button>
                ) : null}
              </form>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ProviderCard({ p, save }: { p: Provider; save: Save }) {
  const [key, setKey] = useState("");
  const [url, setUrl] = useState(p.baseURL ?? "");
  const compatible = p.provider === "compatible";
  const provider: PageProvider = p.provider;
  const submit = async () => {
    const change = { provider, ...(key.trim() ? { apiKey: key.trim() } : {}), ...(url.trim() !== (p.baseURL ?? "") ? { baseURL: url.trim() || null } : {}) };
    if (await save(() => saveProvider(change), `${p.label} saved`)) setKey("");
  };
  return (
    <section aria-label={p.label} className="space-y-2 rounded border border-line p-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 className="font-semibold">{p.label}</h2>
        <span className="text-sm text-muted">{keyText(p)}</span>
        {p.models.length > 0 && <span className="text-sm text-muted">· {p.models.length} models available</span>}
      </div>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {compatible && (
          <label className="flex flex-col text-xs">
            Base URL
            <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:11434/v1" className={`${input} w-72`} />
          </label>
        )}
        <label className="flex flex-col text-xs">
          {p.keySource ? "Replace the API key" : "API key"}
          <input
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
            aria-label={`${p.label} API key`}
            className={`${input} w-72`}
          />
        </label>
        {!compatible && (
          <details className="text-xs">
            <summary className="cursor-pointer text-muted">Base URL</summary>
            <input value={url} onChange={(e) => setUrl(e.target.value)} aria-label={`${p.label} base URL`} placeholder="default" className={`${input} w-72`} />
          </details>
        )}
        <button type="submit" className={button} disabled={!key.trim() && url.trim() === (p.baseURL ?? "")}>
          Save
        </button>
        {p.keySource === "page" && (
          <button type="button" className={button} onClick={() => void save(() => saveProvider({ provider, apiKey: null }), `${p.label} key removed`)}>
            Remove key
          </button>
        )}
        {compatible && p.baseURLSource === "page" && (
          <button type="button" className={button} onClick={() => void save(() => saveProvider({ provider, baseURL: null, apiKey: null }), "Server removed")}>
            Remove server
          </button>
        )}
      </form>
      <ModelWindows provider={p} save={save} />
    </section>
  );
}

export function ProvidersSettings({ initial }: { initial: ProvidersView }) {
  const qc = useQueryClient();
  const [view, setView] = useState(initial);
  const [status, setStatus] = useState<{ text: string; error?: boolean } | null>(null);
  const save: Save = async (run, done) => {
    const r = await run();
    if (!r.ok) {
      setStatus({ text: r.message ?? "Could not save.", error: true });
      return false;
    }
    setView(r.data);
    setStatus({ text: done });
    void qc.invalidateQueries({ queryKey: MODELS_KEY });
    return true;
  };
  const compatible = view.providers.find((p) => p.provider === "compatible");
  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <p className="text-sm text-muted">
        Connect a model: use a server running on this machine, or paste an API key. Keys are kept in Arbor's data folder, readable only by
        you, and are never shown again. A change applies to the next message: no restart.
      </p>
      <p role="status" className={`min-h-5 text-sm ${status?.error ? "text-red-700 dark:text-red-300" : ""}`}>
        {status?.text}
      </p>
      {view.warnings.map((w) => (
        <p key={w} role="alert" className="text-sm text-red-700 dark:text-red-300">
          {w}
        </p>
      ))}
      <LocalServers current={compatible?.baseURL ?? null} onUse={async (baseURL) => void (await save(() => saveProvider({ provider: "compatible", baseURL }), `Using the server at ${baseURL}`))} />
      {view.providers.map((p) => (
        <ProviderCard key={`${p.provider}:${p.baseURL ?? ""}:${p.keySource ?? ""}`} p={p} save={save} />
      ))}
      <section aria-label="Offline model" className="space-y-1 rounded border border-line p-4">
        <h2 className="font-semibold">{view.offline.label}</h2>
        <p className="text-sm text-muted">
          Built in, needs no key. It answers with extracts of the conversation and writes extractive compaction summaries (sentences,
          files and errors picked from the conversation), so Arbor works without any model.{" "}
          {view.offline.inUse ? "It is in use now: no other model is connected." : "It is used only where you choose it."}
        </p>
      </section>
    </div>
  );
}
