"use client";
/**
 * The session workspace (ui.md): Chat, Tree and Inspector on one screen, kept in step. The
 * selection (selection-reducer.ts, shared through selection-context.tsx) is where every pane
 * looks: a click selects, never moves. Moving the leaf is "Continue from here" (session-engine.md
 * §16.5): "Already at this point", the dialog that says what will happen (navigate-dialog.tsx),
 * the editor-text rule (§11.4) and Undo after a move without summary. Moving re-renders the chat
 * for the new path; a sent message appends a node and the canvas follows the leaf.
 */
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useDeferredValue, useMemo, useReducer, useState } from "react";
import { archivedRoot, archiveView, branchRoot } from "@/components/tree/model/archive-view";
import { type ContextAction, entryIdOf } from "@/components/tree/types";
import type { MeterProps } from "@/components/chat/context-meter";
import { nextSendCompacts, nextSendPrunes } from "@/lib/chat-protocol/compaction-forecast";
import { meterReading } from "@/lib/chat-protocol/context-meter";
import { entryOptions, searchOptions } from "@/lib/query/entries";
import { invalidateSession, keys } from "@/lib/query/keys";
import { sessionUsageOptions } from "@/lib/query/usage";
import { type SessionData, sessionDataOptions, sessionView } from "@/lib/query/session";
import { withLeaf } from "@/lib/query/session-cache";
import { contentText } from "@/lib/session/tree/tree-row-text";
import { parseSearch, type TreeFilter } from "@/lib/session/tree/tree-filter";
import { CompactionDialog, useCompactionMenu } from "./compaction-menu";
import { HandoffDialog } from "./handoff-dialog";
import { LabelDialog } from "./label-dialog";
import { continuePlan } from "./continue-plan";
import { ContinueDialog, type NavigationOutcome, runNavigation } from "./navigate-dialog";
import { type SessionSelection, SessionSelectionContext } from "./selection-context";
import { initialSelection, type SelectionOrigin, selectionReducer } from "./selection-reducer";
import { type SessionControls, useSessionControls } from "./session-controls";
import { useLiveSession } from "./use-live-session";
import { useStreamedSkeleton } from "./use-streamed-skeleton";
import { StatusToast, type Toast } from "./status-toast";
import { WorkspaceLayout } from "./workspace-layout";

/*
 * The three panes are code-split (rendered on the server all the same). Their modules then load
 * and run when React hydrates each pane, in a pass of its own, instead of inside the page's one
 * hydration task: on the bench machine that task held ~300 ms of module initialisation (the AI
 * SDK's schemas, highlight.js, React Flow, compiling it all), over the 200 ms bound of docs/benchmarks.md
 * for any session. Text typed into a field before its pane hydrates is adopted when it does
 * (useTypedBeforeHydration).
 */
const ChatPane = dynamic(() => import("@/components/chat/chat-pane").then((m) => m.ChatPane));
const TreeCanvas = dynamic(() => import("@/components/tree/tree-canvas").then((m) => m.TreeCanvas));
const InspectorSlot = dynamic(() => import("./inspector-slot").then((m) => m.InspectorSlot));

export function SessionWorkspace({ sessionId }: { sessionId: string }) {
  const { data, error } = useQuery(sessionDataOptions(sessionId));
  if (error) return <p role="alert" className="p-6 text-red-700 dark:text-red-300">Could not load this session: {error.message}</p>;
  if (!data) return <p className="p-6 text-muted">Loading session…</p>;
  return <Workspace sessionId={sessionId} data={data} />;
}

function Workspace({ sessionId, data }: { sessionId: string; data: SessionData }) {
  const qc = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const leafId = data.session.leafId;
  const view = sessionView(data);
  const controls: SessionControls = useSessionControls(sessionId, data);
  // A large session's page brings only the tail of the current path; the tree streams in.
  const pending = data.pending === true;
  const streamed = useStreamedSkeleton(sessionId, pending);
  // Meanwhile the tree pane draws the map of that tail (tree-canvas.tsx `partial`).
  const partial = useMemo(
    () => (pending ? { turnsBefore: data.tailTurnsBefore ?? 0, total: data.count, share: streamed.share, error: streamed.error } : undefined),
    [pending, data.tailTurnsBefore, data.count, streamed.share, streamed.error],
  );
  useLiveSession(sessionId);

  const [selection, dispatchSelection] = useReducer(selectionReducer, leafId, initialSelection);
  const { selectedId } = selection;
  const selectFrom = useCallback((origin: SelectionOrigin) => (id: string | null) => dispatchSelection({ type: "select", id, origin }), []);
  const selectInTree = useMemo(() => selectFrom("tree"), [selectFrom]);
  const selectInChat = useMemo(() => selectFrom("chat"), [selectFrom]);
  const selectInInspector = useMemo(() => selectFrom("inspector"), [selectFrom]);
  const [filter, setFilter] = useState<TreeFilter>("default");
  const [search, setSearch] = useState("");
  const [draft, setDraft] = useState("");
  const [toast, setToast] = useState<Toast | null>(null);
  const [labelTarget, setLabelTarget] = useState<string | null>(null);
  const [handoffTarget, setHandoffTarget] = useState<string | null>(null);
  const [compactionTarget, setCompactionTarget] = useState<{ id: string; asking: boolean } | null>(null);
  const centerOn = params.get("entry") ?? undefined;

  // §16.3 search reads whole entry texts, which the skeleton does not carry: the server answers
  // with the matching ids. Typing is deferred; the previous answer stays until the next arrives.
  const deferredSearch = useDeferredValue(search);
  const searching = parseSearch(deferredSearch).length > 0;
  const found = useQuery({ ...searchOptions(sessionId, deferredSearch.trim()), enabled: searching, placeholderData: keepPreviousData });
  // The branch cost badges: loaded after the page, refreshed with the session's keys.
  const usage = useQuery(sessionUsageOptions(sessionId));
  const branchCosts = useMemo(() => new Map((usage.data?.branches ?? []).map((b) => [b.startId, b])), [usage.data]);
  const searchMatches = useMemo(() => (searching && found.data ? new Set(found.data) : null), [searching, found.data]);
  const searchPending = search !== deferredSearch || (searching && (found.isPlaceholderData || found.isFetching));

  // The selection follows the current leaf unless the user selected something else
  // (selection-reducer.ts); reported while rendering, so the new selection shows at once.
  if (selection.seenLeaf !== leafId) {
    dispatchSelection({ type: "leaf", leafId, leafType: leafId ? view.byId.get(leafId)?.type : undefined });
  }

  // Measured against the window of the session's own model (from the file), or of the model the
  // user picked; the next turn's model is named when it differs, and a send that will first
  // compact is said before it happens (ui.md "context meter").
  const compactionSettings = controls.settings.compaction;
  const meter = useMemo((): MeterProps => {
    const next = controls.nextModel;
    const measured = next && !next.picked && next.session ? next.session : next;
    const reading = meterReading(data.meter, measured?.contextWindow ?? controls.contextWindow, compactionSettings.reserveTokens, measured);
    const compacts = nextSendCompacts(data.meter.forecast, next, compactionSettings);
    const prunes = nextSendPrunes(data.meter.forecast, next, compactionSettings);
    return { reading, basis: data.meter, ...(next ? { next } : {}), compacts, prunes, reserveTokens: compactionSettings.reserveTokens };
  }, [data.meter, controls.contextWindow, compactionSettings, controls.nextModel]);

  const say = useCallback((text: string, action?: Toast["action"]) => setToast({ text, action }), []);

  const afterNavigation = useCallback(
    (o: NavigationOutcome) => {
      dispatchSelection({ type: "continue-done" });
      if (o.editorText && draft.trim() === "") setDraft(o.editorText);
      const undo = o.summarized
        ? undefined
        : {
            label: "Undo",
            run: () => {
              void controls.undoNavigation(o.previousLeafId, o.leafId).then((r) => {
                if (r.ok) {
                  qc.setQueryData<SessionData>(keys.session(sessionId), (old) => withLeaf(old, o.previousLeafId));
                  void invalidateSession(qc, sessionId); // the meter and the next model follow the leaf
                } else say(r.message ?? "Could not undo the move.");
              });
            },
          };
      say("Navigated to selected point", undo);
    },
    [draft, controls, qc, sessionId, say],
  );

  /** Moves the leaf to `entryId` without a branch summary and updates the cached leaf. */
  const moveWithoutSummary = useCallback(
    async (entryId: string) => {
      const r = await runNavigation({ sessionId, targetId: entryId, summarize: false, apply: () => undefined });
      qc.setQueryData<SessionData>(keys.session(sessionId), (old) => withLeaf(old, r.leafId));
      // The meter and the next turn's model are the server's, for the new leaf (edit and resend too).
      void invalidateSession(qc, sessionId);
      return r;
    },
    [sessionId, qc],
  );

  /** "Continue from here": the dialog says what will happen before the leaf moves (§16.5). */
  const continueFrom = useCallback(
    (entryId: string, origin: SelectionOrigin = "tree") => {
      if (entryId === leafId) {
        dispatchSelection({ type: "select", id: entryId, origin });
        return say("Already at this point");
      }
      dispatchSelection({ type: "continue", id: entryId, origin });
    },
    [leafId, say],
  );
  const sharedSelection = useMemo<SessionSelection>(
    () => ({ state: selection, select: (id, origin) => dispatchSelection({ type: "select", id, origin }), continueFrom }),
    [selection, continueFrom],
  );

  const compactionMenu = useCompactionMenu({ sessionId, rows: view.rows, leafId, onToast: setToast });

  /** "Archive branch" / "Restore branch" (session-engine.md §19.4), with Undo. */
  const archiveMenu = useCallback(
    (action: "archive-branch" | "restore-branch", entryId: string) => {
      const archive = action === "archive-branch";
      const target = archive ? branchRoot(view.byId, leafId, entryId) : archivedRoot(view.byId, archiveView(view.rows, leafId).roots, entryId);
      if (target === null) return say(archive ? "The current branch cannot be archived: continue from another point first." : "Not in an archived branch.");
      const text = view.byId.get(target)?.text ?? target;
      const set = (on: boolean) => controls.setArchive(target, on);
      void set(archive).then((r) => {
        if (!r.ok) return say(r.message ?? "Could not save the archive.");
        say(archive ? `Archived the branch from “${text}”: hidden from the map, the list and search` : `Restored the branch from “${text}”`, {
          label: "Undo",
          run: () => void set(!archive).then((u) => say(u.ok ? (archive ? "Branch restored" : "Branch archived again") : (u.message ?? "Could not undo."))),
        });
      });
    },
    [view.byId, view.rows, leafId, controls, say],
  );

  const onContextAction = useCallback(
    (action: ContextAction, entryId: string) => {
      const entry = view.byId.get(entryId);
      if (action === "inspect") selectInTree(entryId);
      else if (action === "continue") continueFrom(entryId);
      else if (action === "label") setLabelTarget(entryId);
      else if (action === "handoff") setHandoffTarget(entryId);
      else if (action === "pin" || action === "unpin") {
        void controls
          .setPin(entryId, action === "pin")
          .then((r) => say(r.ok ? (action === "pin" ? "Pinned: kept verbatim through every compaction" : "Unpinned") : (r.message ?? "Could not save the pin.")));
      } else if (action === "archive-branch" || action === "restore-branch") {
        archiveMenu(action, entryId);
      } else if (action === "compact-again" || action === "compare-compactions") {
        setCompactionTarget({ id: entryId, asking: action === "compact-again" });
      } else if (action === "undo-compaction") compactionMenu.undoCompaction(entryId);
      else if (action === "redo-compaction") compactionMenu.redoCompaction(entryId);
      else if (action === "copy-link") {
        const url = `${window.location.origin}/sessions/${encodeURIComponent(sessionId)}?entry=${encodeURIComponent(entryId)}`;
        void navigator.clipboard?.writeText(url).then(
          () => say("Link copied"),
          () => say(url),
        );
      } else if (action === "fork") {
        void controls.fork(entryId).then((r) => (r.ok ? router.push(`/sessions/${r.data.id}`) : say(r.message ?? "Could not fork the session.")));
      } else if (action === "edit-resend" && entry?.type === "message" && entry.role === "user") {
        // The draft is the message's whole text: its contents load on demand.
        void qc
          .fetchQuery(entryOptions(sessionId, entryId))
          .then((full) => (full.type === "message" && full.message.role === "user" ? contentText(full.message.content) : ""))
          .then(async (text) => {
            await moveWithoutSummary(entryId);
            setDraft(text);
            say("Edit the message and send it to start a new branch");
          })
          .catch((e: Error) => say(e.message));
      }
    },
    [view.byId, sessionId, controls, router, say, moveWithoutSummary, qc, compactionMenu, selectInTree, continueFrom, archiveMenu],
  );

  const plan = selection.continueFrom ? continuePlan(view.byId, leafId, selection.continueFrom) : null;
  return (
    <SessionSelectionContext.Provider value={sharedSelection}>
      <WorkspaceLayout
        chat={
          <ChatPane
            sessionId={sessionId}
            path={view.path}
            meter={meter}
            selectedEntryId={selectedId ? entryIdOf(selectedId) : null}
            onInspect={selectInChat}
            searchMatches={searchMatches}
            cwd={data.session.cwd || undefined}
            draft={draft}
            onDraftChange={setDraft}
            toolbar={controls.toolbar}
            {...(partial ? { turnsBefore: partial.turnsBefore } : {})}
          />
        }
        tree={
          <TreeCanvas
            skeleton={view.rows}
            leafId={leafId}
            labels={view.labels}
            searchMatches={searchMatches}
            searchPending={searchPending}
            selectedId={selectedId}
            onSelect={selectInTree}
            onActivate={continueFrom}
            onContextAction={onContextAction}
            centerOn={centerOn}
            filter={filter}
            onFilterChange={setFilter}
            search={search}
            onSearchChange={setSearch}
            branchCosts={branchCosts}
            partial={partial}
          />
        }
        inspector={
          <InspectorSlot
            sessionId={sessionId}
            entryId={selectedId ? entryIdOf(selectedId) : null}
            onFocusEntry={selectInInspector}
            waitForTree={pending && streamed.error === null}
          />
        }
      />
      {plan && (
        <ContinueDialog
          key={plan.target.id}
          sessionId={sessionId}
          plan={plan}
          draftEmpty={draft.trim() === ""}
          summaries={controls.settings.branchSummary.enabled}
          previousLeafId={leafId}
          onClose={(status) => {
            dispatchSelection({ type: "continue-done" });
            if (status) say(status);
          }}
          onNavigated={afterNavigation}
        />
      )}
      {labelTarget && (
        <LabelDialog
          open
          initial={view.labels.get(labelTarget) ?? ""}
          onClose={() => setLabelTarget(null)}
          onSave={(label) => {
            const target = labelTarget;
            setLabelTarget(null);
            void controls.setLabel(target, label).then((r) => say(r.ok ? (label ? `Labelled “${label}”` : "Label removed") : (r.message ?? "Could not save the label.")));
          }}
        />
      )}
      {handoffTarget && <HandoffDialog open sessionId={sessionId} entryId={handoffTarget} onClose={() => setHandoffTarget(null)} />}
      {compactionTarget && (
        <CompactionDialog
          sessionId={sessionId}
          entryId={compactionTarget.id}
          asking={compactionTarget.asking}
          onClose={() => setCompactionTarget(null)}
          onFocusEntry={selectInInspector}
          onToast={setToast}
        />
      )}
      <StatusToast toast={toast} onDone={() => setToast(null)} />
    </SessionSelectionContext.Provider>
  );
}
