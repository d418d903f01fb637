"use client";
/**
 * Session settings (issue: compaction, branch summaries, retries, models, tools), driven by
 * lib/settings: the form starts from the effective settings, sends only what differs from the
 * defaults as the session's override, and shows the server's field errors
 * ("compaction.reserveTokens: expected a positive integer").
 */
import { useState } from "react";
import { Modal } from "@/components/chat/modal";
import type { ModelOption } from "@/components/session/models-query";
import type { ActionResult } from "@/lib/action-result";
import type { SessionConfig } from "@/lib/chat-protocol/session-config";
import { defaultSettings, SETTING_LABELS, type Settings } from "@/lib/settings";
import { TOOL_NAMES, type ToolName } from "@/lib/tools/types";

export interface SettingsUpdate {
  settings: Record<string, unknown> | null;
  chatModel: string | null;
  compactionModel: string | null;
  tools: { enabled: ToolName[] } | null;
  projectDir: string | null;
}

/** Only the keys that differ from the defaults, per section (null = no override at all). */
export function overrideFrom(s: Settings): Record<string, unknown> | null {
  const d = defaultSettings() as unknown as Record<string, Record<string, unknown>>;
  const out: Record<string, Record<string, unknown>> = {};
  for (const [section, values] of Object.entries(s as unknown as Record<string, Record<string, unknown>>)) {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined || value === "" || value === d[section]?.[key]) continue;
      out[section] = { ...out[section], [key]: value };
    }
  }
  return Object.keys(out).length ? out : null;
}

function NumberField({ label, value, onChange, min = 0 }: { label: string; value: number; onChange: (n: number) => void; min?: number }) {
  return (
    <label className="flex items-center justify-between gap-3 text-sm">
      <span>{label}</span>
      <input type="number" min={min} value={Number.isFinite(value) ? value : ""} onChange={(e) => onChange(e.target.valueAsNumber)} className="w-32 rounded border border-line bg-[var(--bg)] px-2 py-1" />
    </label>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (b: boolean) => void }) {
  return (
    <label className="flex items-center justify-between gap-3 text-sm">
      <span>{label}</span>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
    </label>
  );
}

export function SettingsPanel({
  config,
  models,
  onSave,
  onClose,
}: {
  config: SessionConfig;
  models: ModelOption[];
  onSave: (u: SettingsUpdate) => Promise<ActionResult<unknown>>;
  onClose: () => void;
}) {
  const [s, setS] = useState<Settings>(() => structuredClone(config.settings));
  const [chatModel, setChatModel] = useState(config.agent.chatModel ?? "");
  const [compactionModel, setCompactionModel] = useState(config.agent.compactionModel ?? "");
  const [tools, setTools] = useState<Set<ToolName>>(() => new Set(config.agent.tools?.enabled ?? TOOL_NAMES));
  const [projectDir, setProjectDir] = useState(config.agent.projectDir ?? "");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = <K extends keyof Settings>(section: K, patch: Partial<Settings[K]>) => setS((old) => ({ ...old, [section]: { ...old[section], ...patch } }));

  const save = async () => {
    setSaving(true);
    setError(null);
    const allTools = TOOL_NAMES.every((t) => tools.has(t));
    const r = await onSave({
      settings: overrideFrom(s),
      chatModel: chatModel || null,
      compactionModel: compactionModel || null,
      tools: allTools ? null : { enabled: TOOL_NAMES.filter((t) => tools.has(t)) },
      projectDir: projectDir.trim() || null,
    });
    setSaving(false);
    if (!r.ok) setError(r.message ?? "The settings could not be saved.");
  };

  const modelSelect = (label: string, value: string, onChange: (v: string) => void, emptyLabel: string) => (
    <label className="flex items-center justify-between gap-3 text-sm">
      <span>{label}</span>
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} className="max-w-56 rounded border border-line bg-[var(--bg)] px-1 py-1">
        <option value="">{emptyLabel}</option>
        {models.map((m) => (
          <option key={m.ref} value={m.ref}>
            {m.offline ? "Offline model" : m.label} ({Math.round(m.contextWindow / 1000)}k)
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <Modal open title="Session settings" onClose={onClose}>
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset className="space-y-2">
          <legend className="mb-1 font-semibold">Models</legend>
          {modelSelect("Chat model", chatModel, setChatModel, "Default")}
          {modelSelect("Compaction model", compactionModel, setCompactionModel, "Same as chat model")}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="mb-1 font-semibold">Compaction</legend>
          <Check label={SETTING_LABELS["compaction.enabled"]} checked={s.compaction.enabled} onChange={(v) => set("compaction", { enabled: v })} />
          <NumberField label="Reserve tokens" value={s.compaction.reserveTokens} min={1} onChange={(v) => set("compaction", { reserveTokens: v })} />
          <NumberField label="Keep recent tokens" value={s.compaction.keepRecentTokens} min={1} onChange={(v) => set("compaction", { keepRecentTokens: v })} />
          <Check label="Auto-continue after compaction" checked={s.compaction.autoContinue !== false} onChange={(v) => set("compaction", { autoContinue: v })} />
          <Check label="Summaries cite their sources" checked={s.compaction.citeSources === true} onChange={(v) => set("compaction", { citeSources: v })} />
          <label className="flex items-center justify-between gap-3 text-sm">
            <span>Remote endpoint</span>
            <input
              type="url"
              placeholder="https://… (optional)"
              value={s.compaction.remoteEndpoint ?? ""}
              onChange={(e) => set("compaction", { remoteEndpoint: e.target.value || undefined })}
              className="w-56 rounded border border-line bg-[var(--bg)] px-2 py-1"
            />
          </label>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="mb-1 font-semibold">Branch summaries</legend>
          <Check label={SETTING_LABELS["branchSummary.enabled"]} checked={s.branchSummary.enabled} onChange={(v) => set("branchSummary", { enabled: v })} />
          <NumberField label="Branch summary reserve tokens" value={s.branchSummary.reserveTokens} min={1} onChange={(v) => set("branchSummary", { reserveTokens: v })} />
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="mb-1 font-semibold">Secrets</legend>
          <Check
            label="Send secrets found in the session to summary models"
            checked={s.secrets?.sendToSummaries === true}
            onChange={(v) => set("secrets", { sendToSummaries: v || undefined })}
          />
          <p className="text-xs text-muted">Off: API keys, tokens and passwords the scanner finds are masked in compaction and branch summary prompts.</p>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="mb-1 font-semibold">Retries</legend>
          <Check label="Retry on rate limits and server errors" checked={s.retry.enabled} onChange={(v) => set("retry", { enabled: v })} />
          <NumberField label={SETTING_LABELS["retry.maxRetries"]} value={s.retry.maxRetries} onChange={(v) => set("retry", { maxRetries: v })} />
          <NumberField label="Base delay (ms)" value={s.retry.baseDelayMs} onChange={(v) => set("retry", { baseDelayMs: v })} />
        </fieldset>
        <fieldset className="space-y-1">
          <legend className="mb-1 font-semibold">Tools</legend>
          <label className="flex items-center justify-between gap-3 text-sm">
            <span>Project folder</span>
            <input
              placeholder="(the session's own workspace)"
              value={projectDir}
              onChange={(e) => setProjectDir(e.target.value)}
              className="w-56 rounded border border-line bg-[var(--bg)] px-2 py-1"
            />
          </label>
          <p className="text-xs text-muted">An absolute path inside one of ARBOR_ALLOWED_ROOTS; empty means the session's own workspace.</p>
          {TOOL_NAMES.map((t) => (
            <Check
              key={t}
              label={t}
              checked={tools.has(t)}
              onChange={(v) =>
                setTools((old) => {
                  const next = new Set(old);
                  if (v) next.add(t);
                  else next.delete(t);
                  return next;
                })
              }
            />
          ))}
        </fieldset>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded border border-line px-3 py-1.5">
            Cancel
          </button>
          <button type="submit" disabled={saving} className="rounded bg-[var(--color-accent)] px-3 py-1.5 font-medium text-white disabled:opacity-50 dark:text-black">
            Save settings
          </button>
        </div>
      </form>
    </Modal>
  );
}
