import { describe, expect, it } from "vitest";
import { isSessionHeader, MAX_JSON_DEPTH, parseJsonlLine, parseSessionText, serializeSession } from "@/lib/session/file/jsonl";
import { entry, header, userEntry } from "@/test/session-factories";

const HEADER_LINE = JSON.stringify(header());

describe("parseJsonlLine (session-engine.md §1.8)", () => {
  it("parses an object line, trimming whitespace", () => {
    expect(parseJsonlLine('  {"type":"x","n":1}\r', 3)).toEqual({ value: { type: "x", n: 1 } });
  });

  it("skips blank lines silently", () => {
    expect(parseJsonlLine("", 1)).toEqual({});
    expect(parseJsonlLine("   \t", 2)).toEqual({});
  });

  it("reports invalid JSON with the line number", () => {
    const r = parseJsonlLine("{not json", 7);
    expect(r.value).toBeUndefined();
    expect(r.skip?.line).toBe(7);
    expect(r.skip?.reason).toMatch(/^invalid JSON/);
  });

  it("reports lines that are not JSON objects", () => {
    expect(parseJsonlLine("[1,2]", 4).skip).toEqual({ line: 4, reason: "not a JSON object (got an array)" });
    expect(parseJsonlLine("42", 5).skip).toEqual({ line: 5, reason: "not a JSON object (got a number)" });
    expect(parseJsonlLine("null", 6).skip).toEqual({ line: 6, reason: "not a JSON object (got null)" });
    expect(parseJsonlLine('"s"', 8).skip).toEqual({ line: 8, reason: "not a JSON object (got a string)" });
  });

  it("skips JSON nested deeper than MAX_JSON_DEPTH with its line, instead of overflowing the stack later", () => {
    const nest = (n: number) => `{"type":"x","a":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;
    expect(parseJsonlLine(nest(MAX_JSON_DEPTH), 2).value).toBeDefined();
    expect(parseJsonlLine(nest(MAX_JSON_DEPTH + 1), 2)).toEqual({ skip: { line: 2, reason: "JSON nested deeper than 256 levels" } });
    const deep = `{"a":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
    expect(parseJsonlLine(deep, 9).skip).toEqual({ line: 9, reason: "JSON nested deeper than 256 levels" });
    const parsed = parseSessionText(`${HEADER_LINE}\n${deep}\n{"type":"a","id":"1"}\n`);
    expect(parsed.skipped).toEqual([{ line: 2, reason: "JSON nested deeper than 256 levels" }]);
    expect(parsed.entries).toHaveLength(1);
  });
});

describe("isSessionHeader (session-engine.md §1.8)", () => {
  it('requires { type: "session", id: <string> }', () => {
    expect(isSessionHeader({ type: "session", id: "x" })).toBe(true);
    expect(isSessionHeader({ type: "session", id: 5 })).toBe(false);
    expect(isSessionHeader({ type: "message", id: "x" })).toBe(false);
    expect(isSessionHeader(null)).toBe(false);
    expect(isSessionHeader([])).toBe(false);
  });
});

describe("parseSessionText (session-engine.md §1.8)", () => {
  it("returns the header and the following objects as entries, skipping bad lines with line numbers", () => {
    const text = [HEADER_LINE, "", '{"type":"a","id":"1"}', "garbage", "[]", '{"type":"b","id":"2"}', ""].join("\n");
    const parsed = parseSessionText(text);
    expect(parsed.header).toEqual(header());
    expect(parsed.entries.map((e) => e.type)).toEqual(["a", "b"]);
    expect(parsed.entryLines).toEqual([3, 6]);
    expect(parsed.skipped.map((s) => s.line)).toEqual([4, 5]);
  });

  it("handles CRLF line endings", () => {
    const parsed = parseSessionText(`${HEADER_LINE}\r\n{"type":"a","id":"1"}\r\n`);
    expect(parsed.header?.id).toBe("session-1");
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.skipped).toEqual([]);
  });

  it("gives header null and no entries when nothing parses", () => {
    const parsed = parseSessionText("\n\nnot json\n");
    expect(parsed.header).toBeNull();
    expect(parsed.entries).toEqual([]);
    expect(parsed.reason).toMatch(/no JSON object/);
    expect(parseSessionText("").header).toBeNull();
  });

  it("is not a session when the first object is not a session header", () => {
    const parsed = parseSessionText(['{"type":"message","id":"1"}', HEADER_LINE].join("\n"));
    expect(parsed.header).toBeNull();
    expect(parsed.entries).toEqual([]);
    expect(parsed.reason).toMatch(/line 1/);
  });

  it("is not a session when the header id is not a string", () => {
    expect(parseSessionText('{"type":"session","id":42}').header).toBeNull();
  });

  it("accepts a header preceded by garbage lines (the first *object* counts)", () => {
    const parsed = parseSessionText(["oops", HEADER_LINE].join("\n"));
    expect(parsed.header?.id).toBe("session-1");
    expect(parsed.skipped).toHaveLength(1);
  });
});

describe("serializeSession (session-engine.md §1.1, §1.9)", () => {
  it("writes one JSON object per line and ends with a newline", () => {
    const e = userEntry("1", null, "hi", { timestamp: "2025-01-01T00:00:00.000Z" });
    const text = serializeSession(header(), [e]);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.split("\n")).toEqual([HEADER_LINE, JSON.stringify(e), ""]);
  });

  it("preserves unknown header fields, unknown entry types and unknown fields through a round trip", () => {
    const h = header({ provider: "anthropic", branchedFrom: "/x.jsonl" });
    const entries = [
      userEntry("1", null, "hi", { extra: { futureField: { a: [1, 2] } } }),
      entry("some_future_type", "2", "1", { payload: { deep: true }, list: ["x"] }),
    ];
    const parsed = parseSessionText(serializeSession(h, entries));
    expect(parsed.header).toEqual(h);
    expect(parsed.entries).toEqual(entries);
  });
});
