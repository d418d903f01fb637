/** The session page's cost line: subagents rolled in and named, unknown prices never priced. */
import { describe, expect, it } from "vitest";
import { sessionCostLabel } from "./session-label";

const part = (costMicros: number, unpricedTokens = 0) => ({ costMicros, tokens: 1000, unpricedTokens });

describe("sessionCostLabel", () => {
  it("shows the total with the subagents' share", () => {
    expect(sessionCostLabel(part(9_300_000), { ...part(3_100_000), sessions: 4 })).toBe("$12.40 incl. $3.10 in 4 subagents");
    expect(sessionCostLabel(part(500_000), { ...part(100_000), sessions: 1 })).toBe("$0.60 incl. $0.10 in 1 subagent");
  });
  it("leaves out subagents when there are none and names unpriced tokens", () => {
    expect(sessionCostLabel(part(1_230_000), { ...part(0), sessions: 0 })).toBe("$1.23");
    expect(sessionCostLabel(part(0, 2500), { ...part(0), sessions: 0 })).toBe("$0.00 + 2,500 tokens price unknown");
  });
});
