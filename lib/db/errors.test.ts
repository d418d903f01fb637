import { describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { isDatabaseUnavailable } from "./errors";

const prismaError = (code: string, message = "Invalid `prisma.$queryRaw()` invocation") =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7.10.0" });

describe("isDatabaseUnavailable", () => {
  it("counts a Prisma error that carries a socket code: a pooled connection to a server that died", () => {
    // What a query on a connection to a kill -9'd embedded server gave over its Unix socket.
    expect(isDatabaseUnavailable(prismaError("EPIPE", "write EPIPE"))).toBe(true);
    expect(isDatabaseUnavailable(prismaError("ECONNRESET"))).toBe(true);
    expect(isDatabaseUnavailable(prismaError("P1001"))).toBe(true);
  });

  it("does not count Prisma's query errors (a unique violation, a raw query that failed)", () => {
    expect(isDatabaseUnavailable(prismaError("P2002"))).toBe(false);
    expect(isDatabaseUnavailable(prismaError("P2010"))).toBe(false);
  });

  it("does not count a plain socket error unless it is known to come from a pg client (a model server refusing)", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:11434"), { code: "ECONNREFUSED", syscall: "connect" });
    expect(isDatabaseUnavailable(refused)).toBe(false);
    expect(isDatabaseUnavailable(refused, { fromDriver: true })).toBe(true);
  });
});
