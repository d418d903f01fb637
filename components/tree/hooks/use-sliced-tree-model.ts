"use client";
/**
 * The canvas model of a large session, built without a main-thread stall (docs/benchmarks.md: a
 * 100k-entry session opens, pans and zooms with no task over 200 ms).
 *
 * Up to SLICED_ABOVE entries the model is built while rendering (useTreeModel). The server
 * builds it only up to SERVER_MODEL_MAX entries (React Flow draws no node there: the model only
 * fills the toolbar's counts and jump list); beyond, the server renders the pending pane and
 * the browser builds the model in the render right after hydration, so the page's first byte
 * does not wait on a build that grows with the session and that the browser repeats anyway.
 * Beyond SLICED_ABOVE entries, the same stages run as
 * steps in slices of a few ms after the first paint (lib/session/stepwise.ts `runSliced`):
 * the entry graph when the skeleton, leaf, filter, search, unfolded runs or labels change; the
 * turn grouping and layout when the zoom level, expanded turns or the pane's size changes. Until the first model
 * is ready `model` is null and `building` says how far along it is; afterwards the previous
 * model stays on screen until its successor is ready. A change of inputs does not abort the
 * build in progress (inputs can change faster than a large build finishes): the newest inputs
 * are built after it (use-latest-build.ts).
 */
import { useMemo, useRef, useState } from "react";
import { useHydrated } from "@/components/ui-hooks/use-hydrated";
import type { FlowGraph } from "@/components/tree/layout/to-flow";
import { useLatestBuild } from "@/components/tree/hooks/use-latest-build";
import { groupTurnsSteps, type TurnGrouping } from "@/components/tree/model/turns";
import { entryGraphSteps, type TreeModel, type TreeModelInput, useTreeModel, viewModelSteps } from "@/components/tree/hooks/use-tree-model";
import { CHECK_EVERY, runSliced, type Steps } from "@/lib/session/stepwise";
import { errorText } from "@/lib/text/error-text";

/** Skeletons of more entries than this build their model in slices. */
export const SLICED_ABOVE = 20_000;

/**
 * Skeletons of up to this many entries have their model built on the server too (a few ms);
 * larger ones only in the browser, after hydration (see the module contract).
 */
export const SERVER_MODEL_MAX = 2_000;

/**
 * Checkpoints the whole build passes per CHECK_EVERY entries (measured on generated sessions:
 * the graph's passes over entries, rows and nodes, then grouping and layout). Only for the
 * progress estimate, which stops at 99% if it is short.
 */
const CHECKPOINTS_PER_BLOCK = 14;

export interface CanvasModelState {
  /**
   * The model to draw; null until the first sliced build is done, and on the server and while
   * hydrating above SERVER_MODEL_MAX entries (with `building` null: no progress to tell).
   */
  model: TreeModel | null;
  /** A first sliced build in progress: its estimated share done (0–0.99); null otherwise. */
  building: number | null;
  /** The build failed (a bug): the message to show instead of the canvas. */
  error: string | null;
  /**
   * `model` is the one drawn before the skeleton grew past SLICED_ABOVE (the map of a large
   * session's path tail), kept on screen while the first sliced build of the whole tree runs.
   */
  provisional: boolean;
}

type Built = Omit<TreeModel, "stale">;

/** The canvas model: at once up to SLICED_ABOVE entries, else in slices (see the module contract). */
export function useCanvasModel(input: TreeModelInput & { stale?: boolean }): CanvasModelState {
  const sliced = input.skeleton.length > SLICED_ABOVE;
  const buildNow = useHydrated() || input.skeleton.length <= SERVER_MODEL_MAX;
  const direct = useTreeModel(input, !sliced && buildNow);
  const built = useSlicedTreeModel(input, sliced);
  // The last model built at once, drawn until the first sliced one replaces it (`provisional`).
  const before = useRef<TreeModel | null>(null);
  if (!sliced) {
    before.current = direct;
    return { model: direct, building: null, error: null, provisional: false };
  }
  if (built.model === null && built.error === null && before.current !== null) {
    return { model: before.current, building: built.building, error: null, provisional: true };
  }
  before.current = null;
  return { ...built, model: built.model && { ...built.model, stale: input.stale ?? false }, provisional: false };
}

function* counted<T>(steps: Steps<T>, onStep: () => void): Steps<T> {
  let r = steps.next();
  while (!r.done) {
    onStep();
    yield;
    r = steps.next();
  }
  return r.value;
}

function useSlicedTreeModel(input: TreeModelInput, enabled: boolean): Omit<CanvasModelState, "model" | "provisional"> & { model: Built | null } {
  const { skeleton, leafId, filter, matches, expanded, labels, zoomLevel, expandedTurns, expandedSpans, pane, showArchived, turnsBefore } = input;
  const [entryFlow, setEntryFlow] = useState<FlowGraph | null>(null);
  const [model, setModel] = useState<Built | null>(null);
  const [building, setBuilding] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const grouped = useRef<{ flow: FlowGraph; grouping: TurnGrouping } | null>(null);
  // Progress of the first build: checkpoints passed against the estimate, reported in 2% steps.
  const progress = useRef({ passed: 0, expected: 1, shown: -1, first: true });
  progress.current.first = model === null;
  const report = useRef(() => {
    const p = progress.current;
    if (!p.first) return;
    const share = Math.min(0.99, p.passed / p.expected);
    if (share - p.shown < 0.02) return;
    p.shown = share;
    setBuilding(share);
  }).current;
  const fail = useRef((e: unknown) => setError(errorText(e))).current;

  const graphInputs = useMemo(
    () => ({ skeleton, leafId, filter, matches, expanded, labels, showArchived }),
    [skeleton, leafId, filter, matches, expanded, labels, showArchived],
  );
  useLatestBuild(
    enabled,
    graphInputs,
    (graph, signal) => {
      Object.assign(progress.current, { passed: 0, expected: Math.max(1, (graph.skeleton.length / CHECK_EVERY) * CHECKPOINTS_PER_BLOCK), shown: -1 });
      const steps = counted(entryGraphSteps(graph), () => progress.current.passed++);
      return runSliced(steps, { signal, onSlice: report });
    },
    setEntryFlow,
    fail,
  );

  const overview = zoomLevel === "overview";
  const viewInputs = useMemo(
    () => (entryFlow ? { flow: entryFlow, overview, expandedTurns, expandedSpans, pane, turnsBefore } : null),
    [entryFlow, overview, expandedTurns, expandedSpans, pane, turnsBefore],
  );
  useLatestBuild(
    viewInputs !== null,
    viewInputs,
    async (view, signal) => {
      if (!view) throw new Error("no entry graph to lay out");
      const { flow, overview: asTurns, expandedTurns: openTurns, expandedSpans: openSpans, pane: paneSize, turnsBefore: before } = view;
      function* steps(): Steps<Built> {
        let grouping: TurnGrouping | null = null;
        if (asTurns) {
          const memo = grouped.current;
          if (memo?.flow === flow) grouping = memo.grouping;
          else {
            grouping = yield* groupTurnsSteps(flow, before);
            grouped.current = { flow, grouping };
          }
        }
        return yield* viewModelSteps(flow, grouping, openTurns, paneSize, openSpans, before !== undefined);
      }
      return runSliced(counted(steps(), () => progress.current.passed++), { signal, onSlice: report });
    },
    (m) => {
      setModel(m);
      setBuilding(null);
    },
    fail,
  );

  return { model, building: model === null ? (building ?? 0) : null, error };
}
