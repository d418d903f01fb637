// Preloaded into Next's processes by scripts/run-app.ts (NODE_OPTIONS=--require …), beside
// peer-address.cjs. It matters only in dev mode, where `next dev` runs its HTTP server (process
// title `next-server`) in a forked child, and ties the two together so the app is never down
// without the launcher knowing:
// - In `next dev`'s own process: when the server dies by a signal `next dev` did not send (kill -9,
//   the OOM killer), `next dev` would keep running with no server. It exits instead, with 128 +
//   the signal's number, as `next start` (whose server is its own process) does; the launcher then
//   stops the database and exits with that code (scripts/run-app-stop.ts). Signals `next dev`
//   sends itself (its shutdown, its restarts) go through the child's kill(), which is noted, so
//   those exits stay `next dev`'s business.
// - In the forked server: when `next dev` is gone (killed), its IPC channel closes; the server
//   would keep the port with no one to stop it, so it exits too.
"use strict";
const childProcess = require("node:child_process");
const { constants } = require("node:os");

const fork = childProcess.fork;
childProcess.fork = function forkWatched(modulePath, ...rest) {
  const child = fork.call(this, modulePath, ...rest);
  if (!/[\\/]start-server\.js$/.test(String(modulePath))) return child;
  let sentSignal = false;
  const kill = child.kill;
  child.kill = function killNoted(...args) {
    sentSignal = true;
    return kill.apply(this, args);
  };
  child.once("exit", (_code, signal) => {
    if (!signal || sentSignal) return;
    console.error(`arbor: Next's server (next-server) was killed by ${signal}`);
    process.exit(128 + (constants.signals[signal] ?? 0));
  });
  return child;
};

if (process.env.NEXT_PRIVATE_WORKER && process.send) {
  process.once("disconnect", () => process.exit(1));
}
