/** The selection following the leaf (session-engine.md §16.3), as the session view sees it change. */
import { describe, expect, it } from "vitest";
import { initialSelection, type SelectionAction, selectionReducer, type SelectionState } from "./selection-reducer";

const run = (leafId: string | null, ...actions: SelectionAction[]): SelectionState =>
  actions.reduce(selectionReducer, initialSelection(leafId));
/** The leaf moved to an entry of `leafType` ("message" unless given). */
const leaf = (leafId: string | null, leafType = "message"): SelectionAction => ({ type: "leaf", leafId, leafType });
/** The leaf moved to an entry the view does not know (not loaded), or was reset (null). */
const unknownLeaf = (leafId: string | null): SelectionAction => ({ type: "leaf", leafId, leafType: undefined });
const select = (id: string | null): SelectionAction => ({ type: "select", id });

describe("selectionReducer", () => {
  it("starts with nothing selected and the open leaf seen", () => {
    expect(initialSelection("a")).toEqual({ selectedId: null, origin: null, seenLeaf: "a", followed: "a", continueFrom: null });
  });

  it("follows each new readable leaf while the user has not looked elsewhere", () => {
    expect(run("a", leaf("b")).selectedId).toBe("b");
    expect(run("a", leaf("b"), leaf("c", "compaction")).selectedId).toBe("c");
    expect(run("a", leaf("b", "branch_summary"), leaf("c", "custom_message")).selectedId).toBe("c");
  });

  it("follows when the user selected the leaf it last followed", () => {
    expect(run("a", leaf("b"), select("b"), leaf("c")).selectedId).toBe("c");
  });

  it("keeps the user's own selection when the leaf moves", () => {
    expect(run("a", select("x"), leaf("b")).selectedId).toBe("x");
    expect(run("a", leaf("b"), select("x"), leaf("c"), leaf("d")).selectedId).toBe("x");
  });

  it("stays put when a label or settings entry becomes the leaf, and follows the next message", () => {
    const afterLabel = run("a", leaf("b"), leaf("l", "label"));
    expect(afterLabel).toMatchObject({ selectedId: "b", seenLeaf: "l", followed: "b" });
    expect(run("a", leaf("b"), leaf("l", "label"), leaf("c")).selectedId).toBe("c");
    expect(run("a", leaf("m", "model_change")).selectedId).toBeNull();
    expect(run("a", unknownLeaf("u")).selectedId).toBeNull();
  });

  it("a reset leaf (null) is seen but not selected; clearing the selection lets it follow again", () => {
    expect(run("a", leaf("b"), unknownLeaf(null))).toMatchObject({ selectedId: "b", seenLeaf: null, followed: "b" });
    expect(run("a", select("x"), select(null), leaf("b")).selectedId).toBe("b");
  });

  it("returns the same state for the same leaf or the same selection (no re-render)", () => {
    const s = run("a", leaf("b"));
    expect(selectionReducer(s, leaf("b"))).toBe(s);
    expect(selectionReducer(s, select("b"))).toBe(s);
  });

  it("tells where a selection was made, so the chat scrolls only to selections made elsewhere", () => {
    expect(run("a", { type: "select", id: "x", origin: "tree" })).toMatchObject({ selectedId: "x", origin: "tree" });
    expect(run("a", { type: "select", id: "x", origin: "chat" }).origin).toBe("chat");
    expect(run("a", leaf("b")).origin).toBe("leaf");
    expect(run("a", select("x"), select(null)).origin).toBeNull();
  });

  it("selecting never asks to continue; \"Continue from here\" selects the entry and opens its dialog until done", () => {
    expect(run("a", select("x")).continueFrom).toBeNull();
    const asked = run("a", { type: "continue", id: "x", origin: "chat" });
    expect(asked).toMatchObject({ selectedId: "x", origin: "chat", continueFrom: "x", seenLeaf: "a" });
    expect(selectionReducer(asked, { type: "continue-done" }).continueFrom).toBeNull();
    const idle = run("a");
    expect(selectionReducer(idle, { type: "continue-done" })).toBe(idle);
  });
});
