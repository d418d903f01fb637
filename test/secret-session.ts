/**
 * A generated session with known FAKE credentials (test/secret-fakes.ts) in every field the
 * scanner reads: user text, assistant text, thinking, tool call arguments, tool output, a bash
 * execution, a custom entry and a compaction summary. `expected` lists, per secret, the entry,
 * the field and the value; tests compare what Arbor found against it and check the values never
 * leave Arbor unmasked. Pure (no I/O): `secretSessionJsonl` gives the file text to import.
 */
import type { SecretField } from "@/lib/secrets/types";
import type { SessionEntry, SessionHeader } from "@/lib/session/types";
import { type FakeSecret, fakeSecrets } from "./secret-fakes";
import { assistantMsg, bashMsg, toolCall, toolResultMsg, userMsg } from "./session-messages";

export interface PlacedSecret {
  entryId: string;
  field: SecretField;
  rule: string;
  value: string;
}

export interface SecretSession {
  header: SessionHeader;
  entries: SessionEntry[];
  expected: PlacedSecret[];
}

const T0 = Date.UTC(2026, 0, 2, 10, 0, 0);

/**
 * `seed` picks the fake values; `id` the session id. Every kind of fake appears once; they are
 * spread over the fields in turn, so each field holds several kinds.
 */
export function secretSession(seed = 1, id = `secret-session-${seed}`): SecretSession {
  const fakes = fakeSecrets(seed);
  const entries: SessionEntry[] = [];
  const expected: PlacedSecret[] = [];
  let n = 0;
  /** Appends an entry (a message entry when `fields` has no type) and returns its id. */
  const add = (fields: Record<string, unknown>): string => {
    const entryId = `e${String(++n).padStart(7, "0")}`;
    const parentId = entries.at(-1)?.id ?? null;
    entries.push({ type: "message", id: entryId, parentId, timestamp: new Date(T0 + n * 1000).toISOString(), ...fields } as SessionEntry);
    return entryId;
  };
  const place = (entryId: string, field: SecretField, f: FakeSecret) => expected.push({ entryId, field, rule: f.rule, value: f.value });
  const fields: SecretField[] = ["message text", "tool call arguments", "tool output", "thinking", "custom entry", "summary"];

  fakes.forEach((f, i) => {
    const field = fields[i % fields.length]!;
    const ts = T0 + i;
    if (field === "message text") {
      place(add({ message: userMsg(`Please use this for the deploy: ${f.text}`, { timestamp: ts }) }), field, f);
    } else if (field === "tool call arguments") {
      const call = toolCall(`call_${i}`, "bash", { command: `echo '${f.text}' >> .env` });
      place(add({ message: assistantMsg("Saving it.", { toolCalls: [call], timestamp: ts }) }), field, f);
      add({ message: toolResultMsg(`call_${i}`, "done", { toolName: "bash", timestamp: ts }) });
    } else if (field === "tool output") {
      const call = toolCall(`call_${i}`, "read", { path: "config/.env" });
      add({ message: assistantMsg("", { toolCalls: [call], timestamp: ts }) });
      place(add({ message: toolResultMsg(`call_${i}`, `# config\n${f.text}\nDEBUG=1\n`, { timestamp: ts }) }), field, f);
    } else if (field === "thinking") {
      place(add({ message: assistantMsg("I will not repeat it.", { thinking: `The user pasted ${f.text} earlier.`, timestamp: ts }) }), field, f);
    } else if (field === "custom entry") {
      place(add({ type: "custom", customType: "deploy-notes", data: { notes: [`credential: ${f.text}`] } }), field, f);
    } else {
      place(add({ type: "branch_summary", fromId: "root", summary: `Earlier we configured ${f.text} for CI.` }), field, f);
    }
  });
  // A bash execution: the command holds one secret again, the output another (tool call arguments / tool output).
  const [a, b] = [fakes[0]!, fakes[1]!];
  const bash = add({ message: bashMsg(`deploy --key ${a.text}`, `using ${b.text}`) });
  place(bash, "tool call arguments", a);
  place(bash, "tool output", b);
  add({ message: assistantMsg("All set.") });

  const header: SessionHeader = { type: "session", version: 3, id, timestamp: new Date(T0).toISOString(), cwd: "/work/fake-project" };
  return { header, entries, expected };
}

/** The session as a JSONL file's text (header, then one entry per line). */
export function secretSessionJsonl(s: SecretSession): string {
  return `${[s.header, ...s.entries].map((e) => JSON.stringify(e)).join("\n")}\n`;
}
