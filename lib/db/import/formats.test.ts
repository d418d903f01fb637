/** Importing Claude Code and Codex files: detection, counts, the original kept, and pi round trips (docs/formats.md). */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSessionJsonl } from "@/test/generators/session";
import { countEntries } from "@/lib/formats/count";
import { generateClaudeCodeSession } from "@/test/generators/claude-code";
import { generateCodexSession } from "@/test/generators/codex";
import { buildSessionContext } from "@/lib/session/context";
import { useTestDatabase } from "@/test/db";
import { chunked } from "@/test/import-helpers";
import { getDb } from "../client";
import { exportSession, findSessionSource, getSessionMeta, ImportError, importSession, loadEntries } from "..";

useTestDatabase();

const enc = new TextEncoder();
const CHUNK = 4096;
async function original(sessionId: string): Promise<string> {
  const source = await findSessionSource({ sessionId });
  const parts: Buffer[] = [];
  for await (const c of source!.chunks()) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString("utf8");
}

async function exported(sessionId: string): Promise<string> {
  const file = await exportSession({ sessionId });
  let text = "";
  for await (const line of file.lines()) text += line;
  return text;
}

const files = {
  "claude-code": generateClaudeCodeSession({ seed: 3, turns: 10, branches: 1, compactions: 1, sidechain: true, cutLastLine: true }),
  codex: generateCodexSession({ seed: 4, turns: 8, compactions: 1, cutLastLine: true }),
};

describe.each(Object.entries(files))("importing a %s file", (format, file) => {
  it("detects the format, maps every record, keeps the original byte for byte and exports pi v3 with the same context", async () => {
    const r = await importSession({ source: chunked(file.text, CHUNK), fileName: `${format}.jsonl` });
    expect(r.format).toBe(format);
    expect(r.records).toBe(file.records);
    expect(r.sessionId).toBe(file.sessionId);
    expect(r.skippedCount).toBe(1);
    expect(r.skipped[0]!.reason).toMatch(/ends in the middle of this line/);
    const entries = await loadEntries({ sessionId: r.sessionId });
    expect(countEntries(entries)).toEqual(file.expected);

    expect(await original(r.sessionId)).toBe(file.text);
    const source = await findSessionSource({ sessionId: r.sessionId });
    expect(source).toMatchObject({ format, bytes: enc.encode(file.text).length, records: file.records, fileName: `${format}.jsonl` });

    const meta = await getSessionMeta({ id: r.sessionId });
    const before = buildSessionContext(entries, meta.leafId);
    const again = await importSession({ source: chunked(await exported(r.sessionId), CHUNK), fileName: "again.jsonl", asCopy: true });
    expect(again.format).toBe("pi");
    const reimported = await loadEntries({ sessionId: again.sessionId });
    const leaf = (await getSessionMeta({ id: again.sessionId })).leafId;
    expect(buildSessionContext(reimported, leaf)).toEqual(before);
    expect(await original(again.sessionId)).toBe(await exported(r.sessionId));
  });
});

describe("the original of a large file", () => {
  // The imports here spill into a temp folder of their own (os.tmpdir() follows TMPDIR), so the
  // spill files of imports running elsewhere at the same time (other test files, other
  // checkouts) neither hide nor fake a leftover.
  let spillRoot = "";
  const savedTmpdir = process.env.TMPDIR;
  beforeAll(() => {
    spillRoot = mkdtempSync(path.join(tmpdir(), "arbor-spill-test-"));
    process.env.TMPDIR = spillRoot;
  });
  afterAll(() => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    rmSync(spillRoot, { recursive: true, force: true });
  });
  const spills = () => readdirSync(spillRoot).filter((name) => name.startsWith("arbor-import-")).sort();

  it("is kept byte for byte across many 1 MB chunks while the entries stream through their COPY; no temp file is left", async () => {
    const text = generateSessionJsonl({ seed: 77, entries: 4000, branches: 2, labels: 2 });
    expect(enc.encode(text).length).toBeGreaterThan(3 * 1024 * 1024);
    const before = spills();
    const r = await importSession({ source: chunked(text, 64 * 1024), fileName: "big.jsonl" });
    expect(r.entryCount).toBe(4000);
    expect(await original(r.sessionId)).toBe(text);
    expect(spills()).toEqual(before);
    // Stored compressed by the import (brotli: source-codec.ts), in several chunks.
    const [stored] = await getDb().$queryRaw<{ chunks: number; bytes: number; compression: string }[]>`
      SELECT count(*)::int AS chunks, sum(length(data))::int AS bytes, (SELECT compression FROM session_sources WHERE session_id = ${r.sessionId}) AS compression
      FROM session_source_chunks WHERE session_id = ${r.sessionId}`;
    expect(stored!.chunks).toBeGreaterThan(2);
    expect(stored!.bytes).toBeLessThan(enc.encode(text).length / 2);
    expect(stored!.compression).toBe("br");
  });

  it("still reads back an original stored gzip-compressed, as imports stored them before brotli", async () => {
    const text = generateSessionJsonl({ seed: 79, entries: 3000 });
    const r = await importSession({ source: chunked(text, 64 * 1024), fileName: "old.jsonl" });
    const chunks = await getDb().$queryRaw<{ seq: number; data: Buffer }[]>`
      SELECT seq, data FROM session_source_chunks WHERE session_id = ${r.sessionId} ORDER BY seq`;
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      const gz = gzipSync(brotliDecompressSync(c.data), { level: 1 });
      await getDb().$executeRaw`UPDATE session_source_chunks SET data = ${gz} WHERE session_id = ${r.sessionId} AND seq = ${c.seq}`;
    }
    await getDb().$executeRaw`UPDATE session_sources SET compression = 'gzip' WHERE session_id = ${r.sessionId}`;
    expect(await original(r.sessionId)).toBe(text);
  });

  it("leaves neither rows nor a temp file when the import fails after the first chunks", async () => {
    const good = generateSessionJsonl({ seed: 78, entries: 3000 });
    const sessionId = (JSON.parse(good.split("\n")[0]!) as { id: string }).id;
    const before = spills();
    const error = await importSession({ source: chunked(`${good}{"type":"message","id":"x","parentId":null}\n${good.split("\n")[1]}\n`, CHUNK), fileName: "dup.jsonl" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect(await findSessionSource({ sessionId })).toBeNull();
    expect(spills()).toEqual(before);
  });
});

describe("importing foreign formats: errors", () => {
  it("names the line of a record that cannot be mapped, and saves nothing", async () => {
    const text = `${JSON.stringify({ timestamp: "2025-01-01T00:00:00Z", type: "session_meta", payload: { id: "cx-bad" } })}\n${JSON.stringify({ timestamp: "2025-01-01T00:00:01Z", type: "event_msg" })}\n`;
    const error = await importSession({ source: chunked(text, CHUNK), fileName: "bad.jsonl" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).message).toBe("bad.jsonl:2: Codex event_msg record has no payload object (field payload)");
    expect(await findSessionSource({ sessionId: "cx-bad" })).toBeNull();
  });

  it("still refuses a file in no known format", async () => {
    const error = await importSession({ source: chunked(`${JSON.stringify({ hello: 1 })}\n`, CHUNK), fileName: "x.jsonl" }).catch((e: unknown) => e);
    expect((error as ImportError).code).toBe("not_session");
  });
});
