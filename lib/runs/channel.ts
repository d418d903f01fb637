import "server-only";
/**
 * The process's one connection for the cross-process run registry (lib/runs/running.ts): it
 * holds the session-level advisory locks of the runs of THIS process (locks.ts) and LISTENs
 * on the `arbor_runs` channel for Stop requests and their acknowledgements (stop.ts).
 *
 * Why one connection for both: an advisory lock taken with `pg_try_advisory_lock` belongs to
 * the connection, so the server releases every lock of a process the moment that process dies
 * (its socket closes); and a process that holds a lock is then always listening, so a Stop sent
 * by another process reaches it. Queries on one pg client run in the order they were issued,
 * which keeps a run's unlock ahead of the next claim of the same session.
 *
 * Contract:
 * - `runChannel()` returns the connected client, connecting (and LISTENing) on demand to
 *   `databaseUrl()` (a changed URL — tests switch databases — replaces the connection). A
 *   failure to connect throws DatabaseUnavailableError: routes answer it with 503.
 * - `connectedRunClient()` is the client if it is connected right now, without connecting.
 * - When the connection is lost (database restart, terminated backend) its locks are gone on the
 *   server. While `demand()` says the process still has runs, it reconnects with a backoff
 *   (250 ms … 5 s) and then calls the `onRunReconnect` hooks (which take the locks again);
 *   without runs it stays closed until the next use, so an idle process never retries forever.
 * - `onRunNotification` handlers get every payload of the channel, including this process's own.
 */
import pg from "pg";
import { DatabaseUnavailableError, databaseUrl, isDatabaseUnavailable } from "@/lib/db";

export const RUN_CHANNEL = "arbor_runs";
const CONNECT_TIMEOUT_MS = 5_000;
/** The registry's queries are instant; one that gets no answer means a dead connection. */
const QUERY_TIMEOUT_MS = 5_000;
const RETRY_MS = [250, 500, 1_000, 2_000, 5_000];

type NotificationHandler = (payload: string) => void;
type ReconnectHook = (client: pg.Client) => void;

interface ChannelState {
  client?: pg.Client;
  url?: string;
  connecting?: { url: string; promise: Promise<pg.Client> };
  /** By name, so a module evaluated again (dev reloads) replaces its handler instead of adding one. */
  notified: Map<string, NotificationHandler>;
  reconnected: Map<string, ReconnectHook>;
  demand: () => boolean;
  retry?: ReturnType<typeof setTimeout>;
  attempt: number;
  /** The connection was lost and not yet restored: the next connect runs the reconnect hooks. */
  lost: boolean;
  /** Per client, the last query issued (see runQuery); here so every module copy shares it. */
  tails: WeakMap<pg.Client, Promise<unknown>>;
}

const KEY = Symbol.for("arbor.db.runChannel");
type Global = typeof globalThis & { [KEY]?: ChannelState };

function state(): ChannelState {
  const g = globalThis as Global;
  g[KEY] ??= { notified: new Map(), reconnected: new Map(), demand: () => false, attempt: 0, lost: false, tails: new WeakMap() };
  return g[KEY];
}

/** A driver failure of this connection as DatabaseUnavailableError when it means "no database". */
export function runChannelError(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError) return error;
  return isDatabaseUnavailable(error, { fromDriver: true }) ? new DatabaseUnavailableError({ cause: error }) : error;
}

function scheduleRetry(s: ChannelState): void {
  if (s.retry || !s.demand()) return;
  const delay = RETRY_MS[Math.min(s.attempt, RETRY_MS.length - 1)] ?? 5_000;
  s.attempt += 1;
  s.retry = setTimeout(() => {
    s.retry = undefined;
    runChannel().catch(() => undefined); // a failed attempt schedules the next one
  }, delay);
  s.retry.unref?.();
}

function lose(s: ChannelState, client: pg.Client, error?: unknown): void {
  if (s.client !== client) return;
  s.client = undefined;
  s.lost = true;
  const reason = error instanceof Error ? `: ${error.message}` : "";
  console.warn(`arbor: the run registry lost its database connection${reason}; runs of this process continue, reconnecting`);
  client.end().catch(() => undefined);
  scheduleRetry(s);
}

async function connect(s: ChannelState, url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: "arbor run registry",
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // Without an 'error' listener a dropped connection would crash the process.
  client.on("error", (error) => lose(s, client, error));
  client.on("end", () => lose(s, client));
  client.on("notification", (msg) => {
    if (msg.channel !== RUN_CHANNEL || msg.payload === undefined) return;
    for (const handler of s.notified.values()) handler(msg.payload);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${RUN_CHANNEL}`);
  } catch (error) {
    client.removeAllListeners("end");
    await client.end().catch(() => undefined);
    scheduleRetry(s);
    throw error instanceof DatabaseUnavailableError ? error : new DatabaseUnavailableError({ cause: error });
  }
  s.client = client;
  s.url = url;
  s.attempt = 0;
  if (s.lost) {
    s.lost = false;
    console.warn("arbor: the run registry reconnected to the database");
    for (const hook of s.reconnected.values()) hook(client);
  }
  return client;
}

/**
 * Whether a database is configured at all. Without one (a tool or test that never opens one) no
 * other process can share this one's sessions, so the registry is this process's alone.
 */
export function runDatabaseConfigured(): boolean {
  try {
    databaseUrl();
    return true;
  } catch {
    return false;
  }
}

/** The connected registry client; connects on demand. Throws DatabaseUnavailableError. */
export function runChannel(): Promise<pg.Client> {
  const s = state();
  const url = databaseUrl();
  if (s.client && s.url === url) return Promise.resolve(s.client);
  if (s.client) {
    // Another database now (tests): this one's locks and listener belong to the old one.
    const old = s.client;
    s.client = undefined;
    old.removeAllListeners("end");
    old.end().catch(() => undefined);
  }
  if (s.connecting?.url === url) return s.connecting.promise;
  const promise = connect(s, url).finally(() => {
    if (s.connecting?.promise === promise) s.connecting = undefined;
  });
  s.connecting = { url, promise };
  return promise;
}

/**
 * Runs a query on `client` after every query issued on it before (pg 8 warns about, and pg 9
 * refuses, overlapping queries on one client). The order is the order of the calls, so an
 * unlock issued before a claim is also executed before it. Driver failures come back mapped
 * by runChannelError. A query without an answer within QUERY_TIMEOUT_MS drops the connection
 * (a silently dead one would otherwise block every claim; and a lock taken after we gave up
 * waiting must not outlive that): its locks go with it and the reconnect takes them again.
 */
export function runQuery<R extends pg.QueryResultRow>(client: pg.Client, text: string, params: unknown[] = []): Promise<R[]> {
  const s = state();
  const { tails } = s;
  const result = (tails.get(client) ?? Promise.resolve()).then(
    () =>
      new Promise<pg.QueryResult<R>>((resolve, reject) => {
        const timer = setTimeout(() => {
          const error = new Error(`the run registry's database connection gave no answer within ${QUERY_TIMEOUT_MS} ms`);
          lose(s, client, error);
          reject(new DatabaseUnavailableError({ cause: error }));
        }, QUERY_TIMEOUT_MS);
        client.query<R>(text, params).then(
          (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          (e: unknown) => {
            clearTimeout(timer);
            reject(e);
          },
        );
      }),
  );
  tails.set(
    client,
    result.catch(() => undefined),
  );
  return result.then(
    (r) => r.rows,
    (error: unknown) => Promise.reject(runChannelError(error)),
  );
}

/** The client if it is connected now (no connecting): for unlocking, which a lost connection already did. */
export function connectedRunClient(): pg.Client | undefined {
  return state().client;
}

export function onRunNotification(name: string, handler: NotificationHandler): void {
  state().notified.set(name, handler);
}

/** Called with the new client after a lost connection is restored. */
export function onRunReconnect(name: string, hook: ReconnectHook): void {
  state().reconnected.set(name, hook);
}

/** Whether a lost connection should be restored without waiting for the next use. */
export function setRunChannelDemand(demand: () => boolean): void {
  state().demand = demand;
}

/** Closes the connection (tests, before their database is dropped); the next use reconnects. */
export async function closeRunChannel(): Promise<void> {
  const s = state();
  if (s.retry) clearTimeout(s.retry);
  s.retry = undefined;
  const client = s.client;
  s.client = undefined;
  s.lost = false;
  if (!client) return;
  client.removeAllListeners("end");
  await client.end().catch(() => undefined);
}
