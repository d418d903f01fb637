// Preloaded into the Next server by scripts/run-app.ts (NODE_OPTIONS=--require …).
// Next 16 hands route handlers no socket address: base-server.js only does
// `req.headers['x-forwarded-for'] ??= socket.remoteAddress`, so a client-sent X-Forwarded-For is
// kept as is (neither overwritten nor appended to) and cannot be told from the socket's.
// This sets `x-arbor-peer` to the socket address on every request, overwriting any value the
// client sent, and marks the process so lib/auth/client-address.ts believes the header.
"use strict";
const http = require("node:http");
const HEADER = "x-arbor-peer";
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitWithPeer(event, req, ...rest) {
  if (event === "request" && req && req.headers) req.headers[HEADER] = req.socket?.remoteAddress || "";
  return emit.call(this, event, req, ...rest);
};
globalThis[Symbol.for("arbor.peerHeader")] = HEADER;
