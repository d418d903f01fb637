/**
 * Recovery (README "Security"): the supervisor the launcher uses (scripts/run-app.ts) brings a
 * `kill -9`ed embedded PostgreSQL back on the same socket, the app's pools reconnect, and
 * `/api/sessions` serves again within seconds with nothing lost. Own cluster in a temp folder.
 * The lost-nothing check includes an import of several MB (wal_level=minimal,
 * lib/postgres/embedded.ts): recovery must bring back every row its COPY wrote.
 */
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listGet } from "@/app/api/sessions/route";
import { prepareAppDatabase } from "./bootstrap";
import { startEmbeddedPostgres } from "./embedded";
import { type Supervisor, superviseEmbedded } from "./embedded-supervisor";
import { generateSessionJsonl } from "@/test/generators/session";
import { createSession, disconnectDb, importSession, loadEntries, useDatabase } from "@/lib/db";
import { chunked } from "@/test/import-helpers";

let root = "";
let supervisor: Supervisor;
const logs: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "arbor-supervise-"));
  await chmod(root, 0o755);
  const server = await startEmbeddedPostgres(path.join(root, "pg"));
  await useDatabase((await prepareAppDatabase(server, "arbor")).url);
  supervisor = superviseEmbedded({ server, log: (m) => logs.push(m) });
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  await supervisor?.stop();
  if (root) await rm(root, { recursive: true, force: true });
}, 60_000);

const listSessions = () => listGet(new Request("http://127.0.0.1/api/sessions"));

describe("the supervised embedded PostgreSQL", () => {
  it("is back within seconds after kill -9 of the postmaster, with the data", async () => {
    const created = await createSession({ title: "Made before the kill" });
    const text = generateSessionJsonl({ seed: 17, entries: 6000 });
    expect(text.length).toBeGreaterThan(4 * 1024 * 1024);
    const imported = await importSession({ source: chunked(text), fileName: "before-the-kill.jsonl" });
    expect((await listSessions()).status).toBe(200);
    const dir = supervisor.current().dir;
    const pid = Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);

    process.kill(pid, "SIGKILL");
    const killedAt = Date.now();
    let status = 0;
    while (Date.now() - killedAt < 20_000) {
      status = (await listSessions()).status;
      if (status === 200 && supervisor.restarts > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    expect(supervisor.restarts).toBe(1);
    expect(supervisor.current().endpoint).toEqual({ port: 5432, socketDir: dir });
    const body = (await (await listSessions()).json()) as { sessions: { id: string }[] };
    expect(body.sessions.map((s) => s.id)).toContain(created.id);
    const entries = await loadEntries({ sessionId: imported.sessionId });
    const lines = text.trim().split("\n").slice(1);
    expect(entries).toHaveLength(imported.entryCount);
    expect(entries.length).toBe(lines.length);
    expect(entries.at(-1)?.id).toBe((JSON.parse(lines.at(-1)!) as { id: string }).id);
    expect(logs.some((l) => l.includes("killed by SIGKILL"))).toBe(true);
  }, 60_000);

  it("is not restarted after stop()", async () => {
    await supervisor.stop();
    expect((await listSessions()).status).toBe(503);
    await new Promise((r) => setTimeout(r, 800));
    expect(supervisor.restarts).toBe(1);
  }, 30_000);
});
