/**
 * Child process of the open benchmark (bench/open.ts): what one session costs in the read model,
 * in a process that holds nothing else.
 *
 *   tsx --conditions=react-server bench/read-model-child.ts <database url> <session id>
 *
 * Warms the connection with a query for an unknown session, forces a full GC, reads the session
 * into the read model, forces a full GC, and prints ONE JSON line: the live heap growth (so it
 * includes whatever the driver keeps, conservatively; with the ArrayBuffers' memory, which lives
 * outside the JS heap, so packed data counts too), the cache's own size estimate, and the
 * entries' JSON text length; then the same two after the session page's derived data (the
 * skeleton stream of lib/session-view: the resolved skeleton's table and the context meter's
 * branch memory, kept while the session is cached).
 */
import { collectGarbage } from "./lib/stats";

/** Live JS heap plus ArrayBuffer memory (typed arrays' contents are not in `heapUsed`). */
function live(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function main(): Promise<void> {
  const [url, sessionId] = process.argv.slice(2);
  if (!url || !sessionId) throw new Error("usage: read-model-child.ts <database url> <session id>");
  const { useDatabase, disconnectDb, readSession } = await import("@/lib/db");
  const { configureReadModel, readModelStats } = await import("@/lib/db/read-model");
  await useDatabase(url);
  configureReadModel({ maxBytes: 4 * 1024 * 1024 * 1024 });
  await readSession({ sessionId: "no-such-session" }).catch(() => undefined);
  collectGarbage();
  collectGarbage();
  const before = live();
  const view: unknown = await readSession({ sessionId });
  collectGarbage();
  collectGarbage();
  const after = live();
  const stats = readModelStats();
  const json = (view as { tree: { getEntries(): readonly unknown[] } }).tree.getEntries().reduce<number>((n, e) => n + JSON.stringify(e).length, 0);
  const { skeletonStream } = await import("@/lib/session-view/server");
  for (const _line of skeletonStream(view as Parameters<typeof skeletonStream>[0])) {
    // consumed for its side effect: the derived data the page keeps
  }
  collectGarbage();
  collectGarbage();
  const withPage = live();
  const out = { heapGrowth: after - before, estimated: stats.bytes, json, heapWithPage: withPage - before, estimatedWithPage: readModelStats().bytes };
  process.stdout.write(`\n${JSON.stringify(out)}\n`);
  await disconnectDb();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
