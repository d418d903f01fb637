/**
 * A second app process for the multi-process integration tests (lib/runs/running-multi.test.ts):
 * the REAL run registry (lib/runs/running.ts) and store on the database named by DATABASE_URL,
 * driven over stdio. Run it as `tsx --conditions=react-server test/run-worker.ts`.
 *
 * stdin: one JSON command per line, `{ id, op, ... }`:
 * - `claim { session, kind, preempt?, finishOnAbort? }` — claimRun / claimRunPreempting; with
 *   `finishOnAbort` the run finishes by itself 20 ms after its signal is aborted.
 * - `finish { session }`, `abort { session }` (→ abortRun's boolean),
 * - `commit { session, expectedLeafId, entryId, text }` — one user message through commitEntries;
 * - `registryPid {}` — the backend pid of the run-registry connection, null while it is down
 *   (it is never connected by this command, so the test sees the registry's own reconnecting).
 * stdout: one JSON line per command, `{ id, ok: true, value }` or `{ id, ok: false, error: { name,
 * message } }`, and `{ event: "aborted", session }` when a run's signal is aborted. The first line
 * is `{ event: "ready", pid }`.
 */
import { createInterface } from "node:readline";
import { claimRun, claimRunPreempting, type RunHandle, type RunKind, abortRun } from "@/lib/runs";
import { connectedRunClient, runQuery } from "@/lib/runs/channel";
import { commitEntries } from "@/lib/db";

interface Command {
  id: number;
  op: string;
  session: string;
  kind?: RunKind;
  preempt?: RunKind[];
  finishOnAbort?: boolean;
  expectedLeafId?: string | null;
  entryId?: string;
  text?: string;
}

const held = new Map<string, RunHandle>();
const write = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function handle(c: Command): Promise<unknown> {
  switch (c.op) {
    case "claim": {
      const kind = c.kind ?? "turn";
      const run = c.preempt ? await claimRunPreempting(c.session, kind, c.preempt) : await claimRun(c.session, kind);
      held.set(c.session, run);
      run.signal.addEventListener("abort", () => {
        write({ event: "aborted", session: c.session });
        if (c.finishOnAbort) setTimeout(() => run.finish(), 20);
      });
      return true;
    }
    case "finish":
      held.get(c.session)?.finish();
      held.delete(c.session);
      return true;
    case "abort":
      return abortRun(c.session);
    case "commit": {
      const entry = {
        type: "message" as const,
        id: c.entryId ?? "",
        parentId: c.expectedLeafId ?? null,
        timestamp: new Date().toISOString(),
        message: { role: "user" as const, content: c.text ?? "", timestamp: Date.now() },
      };
      const result = await commitEntries({ sessionId: c.session, expectedLeafId: c.expectedLeafId ?? null, entries: [entry] });
      return result.leafId;
    }
    case "registryPid": {
      const client = connectedRunClient();
      if (!client) return null;
      const rows = await runQuery<{ pid: number }>(client, "SELECT pg_backend_pid() AS pid");
      return rows[0]?.pid ?? null;
    }
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const command = JSON.parse(line) as Command;
  handle(command).then(
    (value) => write({ id: command.id, ok: true, value }),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error));
      write({ id: command.id, ok: false, error: { name: e.name, message: e.message } });
    },
  );
});
lines.on("close", () => process.exit(0));
write({ event: "ready", pid: process.pid });
