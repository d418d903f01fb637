/**
 * Importing files that are not what they claim: cut off, binary, with a huge line, or of a
 * session version Arbor cannot read. Each failure names the file (and the line when one is to
 * blame) in words a user can act on, and leaves nothing behind: no session row, no entries.
 * The same message reaches the user through POST /api/import (the UI's error event) and
 * through the CLI's `import` command.
 *
 * Decision (session-engine.md §1.8 lenient parsing): a file whose LAST line is cut off — what a crash while
 * appending leaves — still imports its complete entries, as pi loads it; the broken line is
 * reported as skipped, with its number and "the file ends in the middle of this line".
 * A version above 3 is refused ("unsupported session version 99"): the migrations of §1.7 only
 * know versions 1–3, and storing a future file as if it were version 3 could misread it.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as importPost } from "@/app/api/import/route";
import type { ImportEvent } from "@/lib/types/import-events";
import { inProcessDbRuntime } from "@/cli/commands/db-runtime";
import { makeImportCommand } from "@/cli/commands/import";
import { runCommand, tempDir } from "@/test/cli-helpers";
import { useTestDatabase } from "@/test/db";
import { ImportError, importSession, loadEntries } from "..";
import { chunked, counts } from "@/test/import-helpers";

useTestDatabase();

const enc = new TextEncoder();
const CHUNK = 16 * 1024;
const ts = (i: number) => new Date(Date.UTC(2025, 4, 1, 9, 0, i)).toISOString();
const header = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: "session", version: 3, id, timestamp: ts(0), cwd: "/w", ...extra });
const user = (id: string, parentId: string | null, text: string, i: number) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: ts(i), message: { role: "user", content: text, timestamp: i } });

/** A v3 session of `n` chained user messages, one JSON object a line. */
function sessionText(id: string, n: number, extra: Record<string, unknown> = {}): string {
  const lines = [header(id, extra)];
  for (let i = 0; i < n; i++) lines.push(user(`m${i}`, i === 0 ? null : `m${i - 1}`, `message number ${i}`, i + 1));
  return `${lines.join("\n")}\n`;
}

const bytesOf = (v: string | Uint8Array) => (typeof v === "string" ? enc.encode(v) : v);

/** Imports `content` and expects an ImportError that left the database as it was. */
async function refused(fileName: string, content: string | Uint8Array, opts: { maxLineLength?: number; maxBytes?: number } = {}) {
  const before = await counts();
  const error = await importSession({ source: chunked(bytesOf(content), CHUNK), fileName, ...opts }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  expect(await counts()).toEqual(before);
  return error as ImportError;
}

/** `/api/import` with `content` as the body: the final NDJSON event. */
async function viaRoute(fileName: string, content: string | Uint8Array): Promise<ImportEvent | undefined> {
  const res = await importPost(
    new Request(`http://arbor.test/api/import?fileName=${encodeURIComponent(fileName)}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: Buffer.from(bytesOf(content)),
    }),
  );
  expect(res.status).toBe(200);
  const lines = (await res.text()).trim().split("\n");
  return JSON.parse(lines.at(-1) ?? "null") as ImportEvent | undefined;
}

const t = tempDir();
const importCmd = makeImportCommand(inProcessDbRuntime());
async function viaCli(fileName: string, content: string | Uint8Array) {
  const file = path.join(t.dir, fileName);
  writeFileSync(file, bytesOf(content));
  return { file, ...(await runCommand(importCmd, [file])) };
}

let seq = 0;
const freshId = () => `bad-${++seq}-${Date.now().toString(36)}`;
beforeEach(() => {
  seq += 1;
});

describe("a truncated file", () => {
  it("cut inside the header line: not a session file, naming line 1 and the cut", async () => {
    const text = sessionText(freshId(), 3);
    const cut = text.slice(0, 40);
    const error = await refused("cut-header.jsonl", cut);
    expect(error.code).toBe("not_session");
    expect(error.message).toBe(
      "cut-header.jsonl: not a session file (line 1: the session header is not valid JSON — the file ends in the middle of this line (was it cut off?))",
    );
  });

  it("cut inside the last entry: the complete entries import, the cut line is reported with its number", async () => {
    const id = freshId();
    const text = sessionText(id, 5);
    const cut = text.slice(0, text.length - 25); // inside line 6, the fifth message
    const r = await importSession({ source: chunked(enc.encode(cut), CHUNK), fileName: "cut-tail.jsonl" });
    expect(r.entryCount).toBe(4);
    expect(r.leafId).toBe("m3");
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]?.line).toBe(6);
    expect(r.skipped[0]?.reason).toMatch(/^invalid JSON: .* — the file ends in the middle of this line \(was it cut off\?\)$/);
    expect((await loadEntries({ sessionId: id })).map((e) => e.id)).toEqual(["m0", "m1", "m2", "m3"]);
  });

  it("the CLI prints the skipped line as file:line: reason", async () => {
    const text = sessionText(freshId(), 3);
    const r = await viaCli("cli-cut.jsonl", text.slice(0, text.length - 10));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/, 2 entries, 1 skipped line\)/);
    expect(r.err).toContain(`${r.file}:4: invalid JSON`);
    expect(r.err).toContain("the file ends in the middle of this line");
  });

  it("an empty file, or one cut after its first byte, is not a session", async () => {
    expect((await refused("empty.jsonl", "")).message).toBe("empty.jsonl: not a session file (no JSON object found)");
    expect((await refused("brace.jsonl", "{")).message).toBe("brace.jsonl: not a session file (no JSON object found)");
  });
});

describe("a binary file", () => {
  it("an image: binary data, not a JSONL text file", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0]);
    const error = await refused("picture.jsonl", png);
    expect(error.code).toBe("not_session");
    expect(error.message).toBe("picture.jsonl: not a session file (line 1: binary data, not a JSONL text file)");
  });

  it("a gzip-compressed session says to decompress it first", async () => {
    const error = await refused("session.jsonl.gz", gzipSync(sessionText(freshId(), 3)));
    expect(error.message).toBe(
      "session.jsonl.gz: not a session file (line 1: the file is gzip-compressed; decompress it and import the .jsonl inside)",
    );
  });

  it("megabytes of binary without a newline: refused at the first line, without reading it all", async () => {
    const blob = new Uint8Array(3 * 1024 * 1024).fill(0xa7);
    const error = await refused("blob.bin", blob);
    expect(error.message).toBe("blob.bin: not a session file (line 1: no session header; a session file starts with a short header line)");
  });

  it("NUL padding after the entries (a crashed writer) is skipped and reported; the entries import", async () => {
    const id = freshId();
    const text = `${sessionText(id, 2)}${"\0".repeat(64)}`;
    const r = await importSession({ source: chunked(enc.encode(text), CHUNK), fileName: "padded.jsonl" });
    expect(r.entryCount).toBe(2);
    expect(r.skipped.map((s) => s.line)).toEqual([4]);
  });

  it("escaped NUL characters inside an entry are stored (as U+FFFD), not a database error", async () => {
    const id = freshId();
    const line = JSON.stringify({ type: "message", id: "n1", parentId: null, timestamp: ts(1), message: { role: "user", content: "a\u0000b", timestamp: 1 } });
    const r = await importSession({ source: chunked(enc.encode(`${header(id)}\n${line}\n`), CHUNK), fileName: "nul.jsonl" });
    expect(r.entryCount).toBe(1);
    const [entry] = await loadEntries({ sessionId: id });
    expect((entry as { message: { content: string } }).message.content).toBe("a\ufffdb");
  });
});

describe("a huge line", () => {
  it("an entry over the line limit fails the import naming file, line and limit; nothing is kept", async () => {
    const id = freshId();
    const lines = sessionText(id, 4).trimEnd().split("\n");
    lines.splice(3, 0, user("big", "m1", "x".repeat(20_000), 9));
    const error = await refused("huge-line.jsonl", `${lines.join("\n")}\n`, { maxLineLength: 16 * 1024 });
    expect(error.code).toBe("line_too_long");
    expect(error.line).toBe(4);
    expect(error.message).toBe("huge-line.jsonl:4: line is longer than the 16 KB line limit");
  });

  it("a file over the size limit fails naming the limit", async () => {
    const error = await refused("big.jsonl", sessionText(freshId(), 400), { maxBytes: 8 * 1024 });
    expect(error.code).toBe("too_large");
    expect(error.message).toBe("big.jsonl: file is larger than the 8 KB import limit");
  });
});

describe("the session version", () => {
  it("refuses a future version, naming it; nothing is written", async () => {
    const error = await refused("future.jsonl", sessionText(freshId(), 3, { version: 99 }));
    expect(error.code).toBe("unsupported_version");
    expect(error.line).toBe(1);
    expect(error.message).toBe("future.jsonl:1: unsupported session version 99 (Arbor reads versions 1 to 3); nothing was imported");
  });

  it("refuses versions that are not a whole number from 1 to 3", async () => {
    for (const version of [0, -1, 2.5, "3", true]) {
      const error = await refused("odd.jsonl", sessionText(freshId(), 1, { version }));
      expect(error.code, String(version)).toBe("unsupported_version");
      expect(error.message).toContain(`unsupported session version ${JSON.stringify(version)}`);
    }
  });

  it("reads versions 1, 2 and 3 (and no version, which is 1)", async () => {
    for (const version of [2, 3]) {
      const id = freshId();
      const r = await importSession({ source: chunked(enc.encode(sessionText(id, 2, { version })), CHUNK), fileName: `v${version}.jsonl` });
      expect(r).toMatchObject({ entryCount: 2, fromVersion: version, migrated: version < 3 });
    }
    for (const extra of [{ version: 1 }, { version: undefined }]) {
      const lines = [header(freshId(), extra), JSON.stringify({ type: "message", timestamp: ts(1), message: { role: "user", content: "v1", timestamp: 1 } })];
      const r = await importSession({ source: chunked(enc.encode(`${lines.join("\n")}\n`), CHUNK), fileName: "v1.jsonl" });
      expect(r).toMatchObject({ entryCount: 1, fromVersion: 1, migrated: true });
    }
  });

  it("the UI's import route ends with an error event carrying the message", async () => {
    const before = await counts();
    const event = await viaRoute("future.jsonl", sessionText(freshId(), 2, { version: 99 }));
    expect(event).toEqual({
      type: "error",
      code: "unsupported_version",
      message: "future.jsonl:1: unsupported session version 99 (Arbor reads versions 1 to 3); nothing was imported",
    });
    expect(await counts()).toEqual(before);
  });

  it("the CLI prints it and exits with 2", async () => {
    const r = await viaCli("future-cli.jsonl", sessionText(freshId(), 2, { version: 99 }));
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(`error: ${r.file}:1: unsupported session version 99 (Arbor reads versions 1 to 3); nothing was imported\n`);
  });
});

describe("through the import route", () => {
  it("a binary upload ends with a not-a-session error event and saves nothing", async () => {
    const before = await counts();
    const event = await viaRoute("photo.jpg", new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]));
    expect(event).toEqual({ type: "error", code: "not_session", message: "photo.jpg: not a session file (line 1: binary data, not a JSONL text file)" });
    expect(await counts()).toEqual(before);
  });
});
