/** The chat's window over the path's rows and where jumps land (ui.md "Chat"). */
import { describe, expect, it } from "vitest";
import { extendDown, extendUp, including, JUMP_CONTEXT, latestWindow, MAX_PAGES, planLocator, shifted, turnStarts, windowAround, windowBounds } from "./chat-window";

const PAGE = 40;
const plan = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `e${i}`, inContext: true }));

describe("chat window", () => {
  it("starts with the newest page and follows new rows", () => {
    const w = latestWindow(1000, PAGE);
    expect(windowBounds(w, 1000, PAGE)).toEqual({ from: 960, to: 1000 });
    expect(windowBounds(w, 1003, PAGE)).toEqual({ from: 960, to: 1003 });
  });

  it("jumps to the start or to a row with a few rows of context, not loading everything between", () => {
    expect(windowBounds(windowAround(1000, 0, PAGE), 1000, PAGE)).toEqual({ from: 0, to: 40 });
    expect(windowBounds(windowAround(1000, 500, PAGE), 1000, PAGE)).toEqual({ from: 500 - JUMP_CONTEXT, to: 500 - JUMP_CONTEXT + 40 });
    // Near the end the window reaches it and follows new rows again.
    expect(windowAround(1000, 990, PAGE)).toEqual({ from: 960, to: null });
  });

  it("widens to a row close by and jumps to one far away", () => {
    const w = windowAround(1000, 500, PAGE);
    expect(including(w, 510, 1000, PAGE)).toBe(w);
    expect(windowBounds(including(w, 480, 1000, PAGE), 1000, PAGE).from).toBe(480);
    expect(windowBounds(including(w, 550, 1000, PAGE), 1000, PAGE)).toEqual({ from: 497, to: 551 });
    expect(windowBounds(including(w, 10, 1000, PAGE), 1000, PAGE).from).toBe(7);
    expect(windowBounds(including(latestWindow(1000, PAGE), 5, 1000, PAGE), 1000, PAGE)).toEqual({ from: 2, to: 42 });
  });

  it("grows a page at either end", () => {
    const w = windowAround(1000, 500, PAGE);
    expect(windowBounds(extendUp(w, 1000, PAGE), 1000, PAGE).from).toBe(457);
    expect(windowBounds(extendDown(w, 1000, PAGE), 1000, PAGE).to).toBe(577);
    expect(extendDown({ from: 900, to: 990 }, 1000, PAGE).to).toBeNull();
  });

  it("never holds more than MAX_PAGES pages: each row is a query of its own", () => {
    const most = PAGE * MAX_PAGES;
    // Followed while a live session grows: the newest rows stay.
    expect(windowBounds(latestWindow(100, PAGE), 20_000, PAGE)).toEqual({ from: 20_000 - most, to: 20_000 });
    // Read upwards far enough, the bottom is let go; read downwards, the top.
    let up = latestWindow(5000, PAGE);
    for (let i = 0; i < 30; i++) up = extendUp(up, 5000, PAGE);
    const b = windowBounds(up, 5000, PAGE);
    expect(b.to - b.from).toBe(most);
    expect(b.from).toBe(5000 - 31 * PAGE);
    let down = windowAround(5000, 0, PAGE);
    for (let i = 0; i < 30; i++) down = extendDown(down, 5000, PAGE);
    const d = windowBounds(down, 5000, PAGE);
    expect(d).toEqual({ from: 31 * PAGE - most, to: 31 * PAGE });
  });

  it("keeps its rows when the path's start arrives before them", () => {
    // The page of a large session carries the path's last 60 rows; then the whole 12,060 arrive.
    const tail = latestWindow(60, PAGE);
    expect(windowBounds(shifted(tail, 12_000), 12_060, PAGE)).toEqual({ from: 12_020, to: 12_060 });
    const jumped = windowAround(60, 0, PAGE);
    expect(windowBounds(shifted(jumped, 12_000), 12_060, PAGE)).toEqual({ from: 12_000, to: 12_040 });
  });
});

describe("planLocator", () => {
  it("finds the row an entry is read in: its own, or the row before it", () => {
    const pathIds = ["u1", "a1", "label", "t1", "a2"];
    const rows = [{ id: "u1", inContext: true }, { id: "a1", inContext: true }, { id: "a2", inContext: true }];
    const locate = planLocator(pathIds, rows);
    expect(["u1", "a1", "label", "t1", "a2", "elsewhere"].map(locate)).toEqual([0, 1, 1, 1, 2, -1]);
  });

  it("numbers turns by the user messages", () => {
    const roles: Record<string, string> = { e0: "user", e1: "assistant", e2: "toolResult", e3: "user", e4: "assistant" };
    expect(turnStarts(plan(5), (id) => roles[id])).toEqual([0, 3]);
  });
});
