/**
 * Importing Gemini CLI and opencode files, one JSON document each (docs/formats.md): detection by
 * shape, counts, the original kept byte for byte, pi v3 round trips, and located errors that save
 * nothing.
 */
import { describe, expect, it } from "vitest";
import { countEntries } from "@/lib/formats/count";
import { buildSessionContext } from "@/lib/session/context";
import { useTestDatabase } from "@/test/db";
import { generateGeminiSession } from "@/test/generators/gemini";
import { generateOpencodeSession } from "@/test/generators/opencode";
import { chunked, counts, exportedJsonl, failure, originalText } from "@/test/import-helpers";
import { readDocument } from "./document";
import type { Lines } from "./parse";
import { findSessionSource, getSessionMeta, importSession, loadEntries } from "..";

useTestDatabase();

const CHUNK = 4096;

const gemini = generateGeminiSession({ seed: 31, turns: 5, summary: "Port the loader" });
const opencode = generateOpencodeSession({ seed: 32, turns: 5, compactions: 1, subagent: true });
const files = [
  { name: "session-2026-01-10T20-25-15f05963.json", format: "gemini", file: gemini, title: "Port the loader" },
  { name: "opencode-export.json", format: "opencode", file: opencode, title: opencode.title },
] as const;

describe.each(files)("importing $format file $name", ({ name, format, file, title }) => {
  it("detects it by its shape, maps every message, keeps the original byte for byte and exports pi v3 with the same context", async () => {
    const r = await importSession({ source: chunked(file.text, CHUNK), fileName: name });
    expect(r).toMatchObject({ format, records: file.records, sessionId: file.sessionId, title, skippedCount: 0 });
    const entries = await loadEntries({ sessionId: r.sessionId });
    expect(countEntries(entries)).toEqual(file.expected);
    expect(await originalText(r.sessionId)).toBe(file.text);
    expect(await findSessionSource({ sessionId: r.sessionId })).toMatchObject({ format, records: file.records, fileName: name });
    const meta = await getSessionMeta({ id: r.sessionId });
    expect(meta.model).toBe(`${format === "gemini" ? "google" : "anthropic"}/${file.models.at(-1)}`);

    const again = await importSession({ source: chunked(await exportedJsonl(r.sessionId), CHUNK), fileName: "again.jsonl", asCopy: true });
    expect(again.format).toBe("pi");
    const reimported = await loadEntries({ sessionId: again.sessionId });
    const leaf = (await getSessionMeta({ id: again.sessionId })).leafId;
    expect(buildSessionContext(reimported, leaf)).toEqual(buildSessionContext(entries, meta.leafId));
  });
});

describe("other shapes of the same formats", () => {
  it("a minified (one-line) Gemini CLI document", async () => {
    const file = generateGeminiSession({ seed: 33, turns: 3 });
    const text = JSON.stringify(JSON.parse(file.text));
    const r = await importSession({ source: chunked(text, 100), fileName: "minified.json" });
    expect(r).toMatchObject({ format: "gemini", records: file.records });
    expect(countEntries(await loadEntries({ sessionId: r.sessionId }))).toEqual(file.expected);
  });

  it("Gemini CLI 0.39+ JSONL records, folded; a last line still being written is skipped and reported", async () => {
    const file = generateGeminiSession({ seed: 34, turns: 4, summary: "JSONL", jsonl: true });
    const text = `${file.text}{"id":"half-writ`;
    const r = await importSession({ source: chunked(text, CHUNK), fileName: "session-x.jsonl" });
    expect(r).toMatchObject({ format: "gemini", title: "JSONL", skippedCount: 1 });
    expect(r.skipped[0]!.reason).toMatch(/ends in the middle of this line/);
    expect(r.records).toBe(file.text.trimEnd().split("\n").length);
    expect(countEntries(await loadEntries({ sessionId: r.sessionId }))).toEqual(file.expected);
    expect(await originalText(r.sessionId)).toBe(text);
  });

  it("a child opencode session names its parent; the parent's task result links to it", async () => {
    const child = opencode.child!;
    const r = await importSession({ source: chunked(child.text, CHUNK), fileName: "child.json" });
    expect((await getSessionMeta({ id: r.sessionId })).parentSession).toBe(opencode.sessionId);
    const parent = await loadEntries({ sessionId: opencode.sessionId });
    const task = parent.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "task");
    expect(task).toMatchObject({ message: { subagentSessionId: child.sessionId } });
  });
});

describe("bad documents: a located error, nothing saved", () => {
  it("a Gemini CLI file cut off while it was written: file:line:column, and that it ends early", async () => {
    const file = generateGeminiSession({ seed: 35, turns: 3 });
    const cut = file.text.slice(0, Math.floor(file.text.length * 0.6));
    const before = await counts();
    const error = await failure(importSession({ source: chunked(cut, CHUNK), fileName: "cut.json" }));
    const lines = cut.split("\n");
    expect(error.code).toBe("invalid_entry");
    expect(error.line).toBe(lines.length);
    expect(error.message).toMatch(new RegExp(`^cut\\.json:${lines.length}:\\d+: the Gemini CLI session is not valid JSON \\(.+\\); the file ends before the document does: was it cut off\\?; nothing was imported$`));
    expect(await counts()).toEqual(before);
  });

  it("an opencode export with a syntax error names its line and column", async () => {
    const text = opencode.text.replace('"role": "assistant"', '"role" "assistant"');
    const line = text.split("\n").findIndex((l) => l.includes('"role" "assistant"')) + 1;
    const column = text.split("\n")[line - 1]!.indexOf('"assistant"') + 1;
    const error = await failure(importSession({ source: chunked(text, CHUNK), fileName: "broken.json" }));
    expect(error.message).toMatch(new RegExp(`^broken\\.json:${line}:${column}: the opencode export is not valid JSON \\(.+\\); nothing was imported$`));
    expect(await findSessionSource({ sessionId: opencode.sessionId })).not.toBeNull(); // the earlier import only
  });

  it("a message the adapter cannot read names it", async () => {
    const doc = JSON.parse(generateGeminiSession({ seed: 36, turns: 2 }).text) as { messages: Record<string, unknown>[] };
    delete doc.messages[2]!.type;
    const before = await counts();
    const error = await failure(importSession({ source: chunked(JSON.stringify(doc, null, 2), CHUNK), fileName: "typeless.json" }));
    expect(error.message).toBe("typeless.json: messages[2]: Gemini CLI message has no type (field type); nothing was imported");
    expect(await counts()).toEqual(before);
  });

  it("another JSON document is not a session file, and says which shapes were looked for", async () => {
    const error = await failure(importSession({ source: chunked(JSON.stringify({ name: "app", version: "1.0.0" }, null, 2), CHUNK), fileName: "package.json" }));
    expect(error.code).toBe("not_session");
    expect(error.message).toMatch(/^package\.json: not a session file \(a JSON document, but neither a Gemini CLI session .+ nor an opencode export/);
  });

  it("a document over the size limit is refused with the limit named", async () => {
    async function* lines(): Lines {
      const text = gemini.text.split("\n");
      for (const [i, t] of text.entries()) yield { text: t, number: i + 1 };
    }
    const error = await readDocument(lines(), "big.json", { widen: () => undefined, maxBytes: 2048 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "too_large", message: "big.json: a Gemini CLI session is read whole, and this one is larger than the 2 KB limit for such files; nothing was imported" });
  });
});
