/**
 * A second app process for tests (lib/db/read-model/read-model.test.ts): it writes to a session
 * through the real store, so the test's process sees writes it did not make itself.
 *
 *   tsx --conditions=react-server test/store-writer.ts <database url>
 *
 * Reads one JSON command per stdin line and answers one JSON line on stdout:
 * - {"op":"append","sessionId","texts":[…]}: appends user messages under the stored leaf
 *   (each one its own commit); answers {"rev","leafId"}.
 * - {"op":"prune","sessionId","entryId"}: prunes that tool result (notice content, prunedAt).
 * - {"op":"read","sessionId"}: readSession in THIS process; answers {"rev","count"}.
 */
import { createInterface } from "node:readline";
import { useDatabase } from "@/lib/db/client";
import { readSession } from "@/lib/db/read-model";
import { appendEntries, applyPrune, getSessionMeta } from "@/lib/db";
import type { ToolResultMessage } from "@/lib/session/types";
import { errorText } from "@/lib/text/error-text";

type Command =
  | { op: "append"; sessionId: string; texts: string[] }
  | { op: "prune"; sessionId: string; entryId: string }
  | { op: "read"; sessionId: string };

async function run(cmd: Command): Promise<unknown> {
  if (cmd.op === "read") {
    const view = await readSession({ sessionId: cmd.sessionId });
    return { rev: view.rev, count: view.tree.getEntryCount() };
  }
  if (cmd.op === "append") {
    let result = { rev: 0, leafId: null as string | null };
    for (const text of cmd.texts) {
      const { leafId } = await getSessionMeta({ id: cmd.sessionId });
      const message = { role: "user" as const, content: text, timestamp: Date.now() };
      const r = await appendEntries({ sessionId: cmd.sessionId, expectedLeafId: leafId, entries: [{ type: "message", message }] });
      result = { rev: r.rev, leafId: r.leafId };
    }
    return result;
  }
  const view = await readSession({ sessionId: cmd.sessionId });
  const entry = view.tree.getEntry(cmd.entryId);
  if (entry?.type !== "message" || entry.message.role !== "toolResult") throw new Error(`${cmd.entryId} is not a tool result`);
  const message: ToolResultMessage = { ...entry.message, content: [{ type: "text", text: "[pruned by the writer]" }], prunedAt: Date.now() };
  const r = await applyPrune({ sessionId: cmd.sessionId, pruned: [{ entryId: cmd.entryId, message }] });
  return { rev: r.rev };
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error("usage: store-writer.ts <database url>");
  await useDatabase(url);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === "") continue;
    try {
      process.stdout.write(`${JSON.stringify({ ok: true, value: await run(JSON.parse(line) as Command) })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ ok: false, error: errorText(error) })}\n`);
    }
  }
  process.exit(0);
}

void main();
