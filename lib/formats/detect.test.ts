/** Detection by the first conversation record within a bounded window (docs/formats.md "Detection"). */
import { describe, expect, it } from "vitest";
import { DETECT_MAX_BYTES, DETECT_MAX_RECORDS, detectFormat, FormatDetector } from "./detect";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { mapSessionText } from "./map-lines";

const claudeUser = { type: "user", uuid: "u1", parentUuid: null, sessionId: "s", message: { role: "user", content: "hi" } };

/** Feeds `lines` (objects or raw lengths) to a detector, as a reader would. */
function detect(objects: Record<string, unknown>[]) {
  const d = new FormatDetector();
  for (const [i, o] of objects.entries()) if (d.push(o, i + 1, JSON.stringify(o).length)) break;
  return d.result();
}

describe("FormatDetector", () => {
  it("passes over Claude Code 2.1.x session-state records to the first conversation record", () => {
    const lead = ["last-prompt", "permission-mode", "mode", "bridge-session", "ai-title", "pr-link", "queue-operation", "file-history-snapshot", "summary", "progress", "attachment"].map(
      (type) => ({ type, sessionId: "s" }),
    );
    expect(detect([...lead, ...lead, ...lead, claudeUser]).format).toBe("claude-code");
  });

  it("a window of only Claude Code session-state records is Claude Code (a file of summaries)", () => {
    expect(detect([{ type: "summary", summary: "x", leafUuid: "u" }, { type: "summary", summary: "y", leafUuid: "v" }]).format).toBe("claude-code");
  });

  it("the pi header must be the first object; Codex is any Codex record", () => {
    expect(detectFormat([{ type: "session", id: "x", version: 3 }])).toBe("pi");
    expect(detectFormat([{ type: "message", id: "m" }, { type: "session", id: "x" }])).toBeNull();
    expect(detectFormat([{ timestamp: "t", type: "response_item", payload: { type: "message" } }])).toBe("codex");
  });

  it("gives up after DETECT_MAX_RECORDS objects, saying for each format why not, with lines", () => {
    const junk = Array.from({ length: DETECT_MAX_RECORDS + 5 }, (_, i) => ({ n: i }));
    const r = detect([...junk, claudeUser]);
    expect(r.format).toBeNull();
    expect(r.tried).toEqual([
      'line 1: the first JSON object is not a session header ({"type":"session","id":…})',
      `not Claude Code: no user / assistant / system record with uuid and parentUuid in lines 1–${DETECT_MAX_RECORDS} (${DETECT_MAX_RECORDS} records)`,
      `not a Codex rollout: no {timestamp, type, payload} record of a Codex type in lines 1–${DETECT_MAX_RECORDS} (${DETECT_MAX_RECORDS} records)`,
    ]);
  });

  it("stops at DETECT_MAX_BYTES of text, but always reads a record whole: one huge record first still detects", () => {
    const d = new FormatDetector();
    expect(d.push({ type: "attachment", sessionId: "s" }, 1, DETECT_MAX_BYTES - 10)).toBe(false);
    expect(d.push(claudeUser, 2, 10 * DETECT_MAX_BYTES)).toBe(true);
    expect(d.result().format).toBe("claude-code");
    const full = new FormatDetector();
    full.push({ note: "big" }, 1, DETECT_MAX_BYTES);
    expect(full.done).toBe(true);
    expect(full.result().format).toBeNull();
  });
});

describe("mapping a Claude Code 2.1.x file with a 1.5 MB first prompt", () => {
  const file = generateClaudeCodeSession({ seed: 21, turns: 3, modern: true, bigFirstPrompt: 1_500_000 });

  it("starts with session-state records and still maps every record", () => {
    const first = JSON.parse(file.text.split("\n")[2]!) as { type: string };
    expect(first.type).toBe("last-prompt");
    const mapped = mapSessionText(file.text)!;
    expect(mapped.format).toBe("claude-code");
    expect(mapped.records).toBe(file.records);
  });
});
