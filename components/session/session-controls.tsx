"use client";
/**
 * Per-session controls for the workspace: the effective settings (defaults + the session's
 * override, read with lib/chat-protocol/session-config), the next turn's model (from the server) and its context window, the model
 * picker and settings panel shown above the composer, and typed wrappers of the server actions.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useMemo, useState } from "react";
import { forkSession, setArchive as setArchiveAction, setLabel as setLabelAction, setPin as setPinAction, undoNavigation as undoAction, updateSessionSettings } from "@/app/sessions/[id]/actions";
import { SettingsPanel } from "@/components/settings/settings-panel";
import type { ActionResult } from "@/lib/action-result";
import { readSessionConfig, type SessionConfig } from "@/lib/chat-protocol/session-config";
import { invalidateSession } from "@/lib/query/keys";
import type { SessionData } from "@/lib/query/session";
import type { SkeletonEntry } from "@/lib/session-view/tree-skeleton";
import { FALLBACK_CONTEXT_WINDOW, type Settings } from "@/lib/settings";
import type { NextTurnModel } from "@/lib/types/session-page";
import { modelsOptions } from "./models-query";

export interface SessionControls {
  config: SessionConfig;
  settings: Settings;
  /** The model the next turn will use (undefined only before the server has said). */
  nextModel: NextTurnModel | undefined;
  contextWindow: number;
  toolbar: ReactNode;
  /** §16.2 row text (from the skeleton). */
  rowText(entry: SkeletonEntry): string;
  setLabel(entryId: string, label: string): Promise<ActionResult<unknown>>;
  /** Pins or unpins an entry (session-engine.md §19). */
  setPin(entryId: string, pinned: boolean): Promise<ActionResult<unknown>>;
  /** Archives or restores the branch starting at an entry (session-engine.md §19.4). */
  setArchive(entryId: string, archived: boolean): Promise<ActionResult<unknown>>;
  fork(entryId: string): Promise<ActionResult<{ id: string }>>;
  undoNavigation(leafId: string | null, expectedLeafId: string | null): Promise<ActionResult<unknown>>;
}

export function useSessionControls(sessionId: string, data: SessionData): SessionControls {
  const qc = useQueryClient();
  const { data: models } = useQuery(modelsOptions());
  const config = useMemo(() => readSessionConfig(data.session.settings), [data.session.settings]);
  const [settingsOpen, setSettingsOpen] = useState(false);

  // The server says which model the next turn uses (lib/chat/next-model, the turn's own
  // selection); it is listed in the picker even when the list does not name it (a dated id).
  const nextModel = data.model;
  const options = useMemo(() => {
    const list = models?.models ?? [];
    if (!nextModel || list.some((m) => m.ref === nextModel.ref)) return list;
    return [{ ref: nextModel.ref, label: nextModel.label, offline: nextModel.offline }, ...list];
  }, [models, nextModel]);
  const contextWindow = nextModel?.contextWindow ?? FALLBACK_CONTEXT_WINDOW;

  const refresh = useCallback(() => invalidateSession(qc, sessionId), [qc, sessionId]);

  const changeModel = async (ref: string) => {
    const r = await updateSessionSettings({ sessionId, chatModel: ref });
    if (r.ok) await refresh();
    return r;
  };

  const toolbar = (
    <>
      <label className="flex items-center gap-1 text-xs">
        <span className="text-muted">Model</span>
        <select
          aria-label="Chat model"
          value={nextModel?.ref ?? ""}
          onChange={(e) => void changeModel(e.target.value)}
          className="max-w-48 rounded border border-line bg-[var(--bg)] px-1 py-0.5"
        >
          {options.map((m) => (
            <option key={m.ref} value={m.ref}>
              {m.offline ? "Offline model" : m.label}
            </option>
          ))}
        </select>
      </label>
      {nextModel?.offline && <span className="rounded bg-panel px-1.5 py-0.5 text-xs">Offline model — no LLM configured</span>}
      <button type="button" onClick={() => setSettingsOpen(true)} className="rounded border border-line px-2 py-1 text-xs">
        Settings
      </button>
      {settingsOpen && (
        <SettingsPanel
          config={config}
          models={models?.models ?? []}
          onClose={() => setSettingsOpen(false)}
          onSave={async (update) => {
            const r = await updateSessionSettings({ sessionId, ...update });
            if (r.ok) {
              await refresh();
              setSettingsOpen(false);
            }
            return r;
          }}
        />
      )}
    </>
  );

  return {
    config,
    settings: config.settings,
    nextModel,
    contextWindow,
    toolbar,
    rowText: (entry) => entry.text,
    setLabel: async (entryId, label) => {
      const r = await setLabelAction({ sessionId, entryId, label });
      if (r.ok) await refresh();
      return r;
    },
    setPin: async (entryId, pinned) => {
      const r = await setPinAction({ sessionId, entryId, pinned });
      if (r.ok) await refresh();
      return r;
    },
    setArchive: async (entryId, archived) => {
      const r = await setArchiveAction({ sessionId, entryId, archived });
      if (r.ok) await refresh();
      return r;
    },
    fork: (entryId) => forkSession({ sessionId, entryId }),
    undoNavigation: async (leafId, expectedLeafId) => {
      const r = await undoAction({ sessionId, leafId, expectedLeafId });
      if (r.ok) await refresh();
      return r;
    },
  };
}
