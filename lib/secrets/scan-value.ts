/**
 * Scanning whole JSON values (a session entry, a header, a parsed line of an original file):
 * every string in them, wherever it sits, through scanText. No I/O; server side (scanner.ts).
 *
 * Contract:
 * - `scanValue(value)` lists each secret with the JSON Pointer of its string, its offsets in it,
 *   its rule and kind, and its masked preview (mask.ts), in document order.
 * - Opaque blobs are not scanned: a provider's thinking / text signature and encrypted
 *   reasoning, and an image's base64 `data`. They are not text anyone reads or a model is shown.
 * - `scanEntry(entry)` adds the field of the entry the string belongs to (`fieldOf`).
 */
import type { SessionEntry } from "@/lib/session/types";
import { mayHoldSecret } from "./candidates";
import { maskedPreview, toPointer } from "./mask";
import { scanText } from "./scanner";
import type { SecretField, ValueFinding } from "./types";

const OPAQUE_KEYS = new Set(["thinkingSignature", "textSignature", "signature", "encrypted_content", "encryptedContent"]);

function isImage(value: object): boolean {
  return (value as { type?: unknown }).type === "image";
}

/** The strings of `value` the pre-filter lets through, with their paths (a synchronous pass: most entries have none). */
function candidates(value: unknown, path: (string | number)[], out: { path: string; text: string }[]): void {
  if (typeof value === "string") {
    if (mayHoldSecret(value)) out.push({ path: toPointer(path), text: value });
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      candidates(value[i], path, out);
      path.pop();
    }
    return;
  }
  const image = isImage(value);
  for (const [key, child] of Object.entries(value)) {
    if (OPAQUE_KEYS.has(key) || (image && key === "data")) continue;
    path.push(key);
    candidates(child, path, out);
    path.pop();
  }
}

/** Every secret in the strings of `value` (see the header). */
export async function scanValue(value: unknown): Promise<ValueFinding[]> {
  const texts: { path: string; text: string }[] = [];
  candidates(value, [], texts);
  const out: ValueFinding[] = [];
  for (const { path, text } of texts) {
    for (const m of await scanText(text)) {
      out.push({ path, start: m.start, end: m.end, rule: m.rule, kind: m.kind, masked: maskedPreview(text, m.start, m.end) });
    }
  }
  return out;
}

/** The part of an entry a JSON Pointer into it names. */
export function fieldOf(entry: SessionEntry, pointer: string): SecretField {
  const type = (entry as { type?: unknown }).type;
  if (type === "compaction" || type === "branch_summary") return "summary";
  if (type === "custom" || type === "custom_message") return "custom entry";
  if (type !== "message" || !pointer.startsWith("/message/")) return "other";
  const message = (entry as { message: { role?: unknown; content?: unknown } }).message;
  switch (message.role) {
    case "toolResult":
      return "tool output";
    case "bashExecution":
    case "pythonExecution":
      return pointer.startsWith("/message/output") ? "tool output" : "tool call arguments";
    case "custom":
    case "hookMessage":
      return "custom entry";
  }
  const block = /^\/message\/content\/(\d+)\//.exec(pointer);
  const blockType = block && Array.isArray(message.content) ? (message.content[Number(block[1])] as { type?: unknown } | undefined)?.type : undefined;
  if (blockType === "thinking") return "thinking";
  if (blockType === "toolCall") return "tool call arguments";
  return "message text";
}

/** Every secret in an entry, with the field each is in. */
export async function scanEntry(entry: SessionEntry): Promise<(ValueFinding & { field: SecretField })[]> {
  const found = await scanValue(entry);
  return found.map((f) => ({ ...f, field: fieldOf(entry, f.path) }));
}
