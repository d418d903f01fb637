// Preloaded into the Next server by scripts/run-app.ts (NODE_OPTIONS=--require …), beside
// peer-address.cjs.
// A client that goes away while its request is still being answered (a closed tab, a dropped
// connection, a browser cancelling a refused cross-site fetch) is not an error of the server.
// Node destroys such a request with an "aborted" error (ECONNRESET) and emits it only to
// listeners. But once the proxy has read a request's body, Next 16 copies a plain Readable's
// methods and its listener table onto the request (next/dist/server/body-streams.js,
// replaceRequestBody), and that destroy emits the error whether anyone listens or not: each
// such request became an uncaughtException in the server's log.
// When a response closes, this adds a listener for that one error to its request. The socket's
// close destroys the request first and emits the error on the next tick, so the listener is in
// place by then; any other error is thrown as before.
"use strict";
const http = require("node:http");
const emit = http.Server.prototype.emit;
function ignoreClientAbort(error) {
  if (error?.code !== "ECONNRESET") throw error;
}
http.Server.prototype.emit = function emitWithAbortListener(event, req, res, ...rest) {
  if (event === "request" && typeof res?.once === "function") res.once("close", () => req.on("error", ignoreClientAbort));
  return emit.call(this, event, req, res, ...rest);
};
