import { describe, expect, it } from "vitest";
import type { SessionSummary } from "@/lib/types/session";
import { activeRange, agentName, dayLabel, groupSessions, projectName } from "./list-groups";

const now = new Date(2026, 11, 5, 15, 0).getTime(); // Sat Dec 5 2026, 15:00 local
const at = (days: number, hour = 10) => new Date(2026, 11, 5 - days, hour).toISOString();
const session = (id: string, over: Partial<SessionSummary>): SessionSummary => ({
  id,
  title: id,
  entryCount: 1,
  model: null,
  createdAt: at(40),
  lastActivityAt: at(0),
  deletedAt: null,
  ...over,
});

describe("the session list's groups", () => {
  // The list's order: newest activity first.
  const list = [
    session("a", { lastActivityAt: at(0, 14), project: "/home/u/src/arbor", agent: "claude-code", model: "anthropic/claude-opus-4-5" }),
    session("b", { lastActivityAt: at(0, 9), project: "/home/u/src/site", agent: "codex", model: "openai/gpt-5.1-codex" }),
    session("c", { lastActivityAt: at(1), project: "/home/u/src/arbor" }),
    session("d", { lastActivityAt: at(3), project: "", agent: "claude-code", model: "anthropic/claude-opus-4-5" }),
    session("e", { lastActivityAt: at(20), project: "/home/u/src/site", agent: "pi" }),
  ];
  const shape = (by: Parameters<typeof groupSessions>[1]) => groupSessions(list, by, now).map((g) => [g.label, g.sessions.map((s) => s.id).join("")]);

  it("by day: runs of the list's order under Today, Yesterday, the weekday, then the date", () => {
    expect(shape("day")).toEqual([
      ["Today", "ab"],
      ["Yesterday", "c"],
      ["Wednesday, Dec 2", "d"],
      ["Nov 15, 2026", "e"],
    ]);
  });

  it("by project, agent or model: groups in the order of their latest session, the list's order inside", () => {
    expect(shape("project")).toEqual([
      ["arbor", "ac"],
      ["site", "be"],
      ["No project", "d"],
    ]);
    expect(groupSessions(list, "project", now)[0]!.key).toBe("/home/u/src/arbor");
    expect(shape("agent")).toEqual([
      ["Claude Code", "ad"],
      ["Codex CLI", "b"],
      ["Arbor", "c"],
      ["pi / oh-my-pi", "e"],
    ]);
    expect(shape("model")).toEqual([
      ["anthropic/claude-opus-4-5", "ad"],
      ["openai/gpt-5.1-codex", "b"],
      ["No model", "ce"],
    ]);
    expect(shape("none")).toEqual([["", "abcde"]]);
  });

  it("names: a project by its folder, an agent as people call it", () => {
    expect(projectName("/home/u/src/arbor/")).toBe("arbor");
    expect(projectName("C:\\work\\site")).toBe("site");
    expect(projectName("")).toBe("No project");
    expect(agentName("gemini")).toBe("Gemini CLI");
    expect(agentName(undefined)).toBe("Arbor");
    expect(dayLabel(at(0, 1), now)).toBe("Today");
  });

  it("Active presets count days from local midnight, so their bounds hold all day", () => {
    const midnight = new Date(2026, 11, 5).getTime();
    expect(activeRange("any", now)).toEqual({});
    expect(Date.parse(activeRange("today", now).from!)).toBe(midnight);
    expect(activeRange("7d", now)).toEqual({ from: new Date(2026, 10, 29).toISOString() });
    expect(activeRange("30d", now)).toEqual({ from: new Date(2026, 10, 6).toISOString() });
    expect(activeRange("older", now)).toEqual({ before: new Date(2026, 10, 6).toISOString() });
    expect(activeRange("today", new Date(2026, 11, 5, 23, 59).getTime())).toEqual(activeRange("today", now));
  });
});
