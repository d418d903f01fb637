/**
 * A COPY stream whose connection dies while it waits for the socket to drain (copy-stream.ts):
 * the late 'drain' must not throw. The socket and the connection are stand-ins driven the way
 * pg drives them (submit, CopyInResponse, a full socket, then the server's error); the real
 * server-side case is lib/db/import/copy.test.ts ("the server ends the connection").
 */
import { EventEmitter } from "node:events";
import { from } from "pg-copy-streams";
import { describe, expect, it } from "vitest";
import { copyFromStdin } from "./copy-stream";

interface Internals {
  submit(connection: unknown): void;
  handleCopyInResponse(connection: unknown): void;
  handleError(error: Error): void;
}

/**
 * Three chunks queued before the server accepts the COPY, a socket that is always full (so a
 * chunk still waits for 'drain'), then the server's error; returns the socket.
 */
function dyingWhileFull(query: ReturnType<typeof from>): EventEmitter {
  const socket = Object.assign(new EventEmitter(), { write: () => false });
  const connection = { stream: socket, query: () => undefined, sendCopyFail: () => undefined };
  const internals = query as unknown as Internals;
  query.on("error", () => undefined);
  internals.submit(connection);
  query.write(Buffer.from("rows 1"));
  query.write(Buffer.from("rows 2"));
  query.write(Buffer.from("rows 3"));
  internals.handleCopyInResponse(connection);
  expect(socket.listenerCount("drain")).toBeGreaterThan(0);
  internals.handleError(new Error("terminating connection due to administrator command"));
  return socket;
}

describe("copyFromStdin", () => {
  it("ignores the socket's late 'drain' after the server ended the connection", () => {
    expect(() => dyingWhileFull(copyFromStdin("COPY t FROM STDIN")).emit("drain")).not.toThrow();
  });

  it("is needed: the library's own stream throws there (pg-copy-streams 7.0.0)", () => {
    expect(() => dyingWhileFull(from("COPY t FROM STDIN")).emit("drain")).toThrow(TypeError);
  });
});
