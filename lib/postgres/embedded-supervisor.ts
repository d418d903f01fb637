import "server-only";
/**
 * Keeps an embedded PostgreSQL this process started running: when its postmaster exits other
 * than through `stop()` (killed, crashed, shut down by someone else), it is started again on the
 * same folder and port, so the same socket / URL works and the app's pools reconnect by
 * themselves (requests answer 503 meanwhile: lib/db/errors.ts). The launcher
 * (scripts/run-app.ts) uses it, since it owns the server while Next runs as its child.
 *
 * Restarts are retried with a growing delay (200 ms up to 5 s) until they succeed or the
 * supervisor is stopped: right after a `kill -9`, the old server's backends may still hold its
 * shared memory for a moment, and PostgreSQL refuses to start until they are gone. The stale
 * `postmaster.pid` a kill leaves names a dead process: embedded.ts ignores it and PostgreSQL
 * replaces it.
 */
import { type EmbeddedServer, type ServerExit, startEmbeddedPostgres } from "./embedded";

export interface SupervisorOptions {
  /** A server this process started (`owned`); a reused one is somebody else's to supervise. */
  server: EmbeddedServer;
  /** The flags it was started with, used again for restarts. */
  extraFlags?: string[];
  log?: (message: string) => void;
}

export interface Supervisor {
  /** The server now running (a new object after each restart, with the same URLs). */
  current(): EmbeddedServer;
  /** Restarts done so far. */
  readonly restarts: number;
  /** Stops supervising, then stops the server. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describeExit(exit: ServerExit): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}

export function superviseEmbedded(opts: SupervisorOptions): Supervisor {
  if (!opts.server.owned) throw new Error("superviseEmbedded: the server was not started by this process");
  const log = opts.log ?? ((m: string) => console.error(`arbor: ${m}`));
  let server = opts.server;
  let stopped = false;
  let restarts = 0;
  let wake: () => void = () => {};
  const stopRequested = new Promise<undefined>((resolve) => {
    wake = () => resolve(undefined);
  });

  async function restart(): Promise<void> {
    let delay = 200;
    for (let attempt = 1; !stopped; attempt++) {
      try {
        server = await startEmbeddedPostgres(server.dir, { port: server.endpoint.port, ...(opts.extraFlags ? { extraFlags: opts.extraFlags } : {}) });
        restarts++;
        log(`the embedded PostgreSQL is running again (attempt ${attempt})`);
        return;
      } catch (error) {
        if (attempt === 1 || attempt % 10 === 0) log(`could not restart the embedded PostgreSQL yet: ${(error as Error).message.split("\n")[0]}`);
        await Promise.race([sleep(delay), stopRequested]);
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  const loop = (async () => {
    while (!stopped) {
      const exit = await Promise.race([server.exited, stopRequested]);
      if (!exit || stopped || exit.expected) return;
      // A clean exit may be a Ctrl-C that reached the server before our own shutdown began.
      await Promise.race([sleep(exit.code === 0 && !exit.signal ? 500 : 50), stopRequested]);
      if (stopped) return;
      log(`the embedded PostgreSQL stopped (${describeExit(exit)}); restarting it`);
      await restart();
    }
  })();

  return {
    current: () => server,
    get restarts() {
      return restarts;
    },
    async stop() {
      stopped = true;
      wake();
      await loop;
      await server.stop();
    },
  };
}
