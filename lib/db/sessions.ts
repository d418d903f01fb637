import "server-only";
/**
 * Session rows: create, list, get. The only place besides the entry store that touches Prisma
 * for sessions (conventions rule 4). Maps rows to the plain `SessionSummary` the UI uses.
 */
import { CURRENT_SESSION_VERSION, type SessionHeader } from "@/lib/session/types";
import { getDb } from "./client";

export interface SessionSummary {
  id: string;
  title: string | null;
  entryCount: number;
  model: string | null;
  createdAt: string;
  lastActivityAt: string;
}

type Row = {
  id: string;
  title: string | null;
  entryCount: number;
  model: string | null;
  createdAt: Date;
  lastActivityAt: Date;
};

function toSummary(r: Row): SessionSummary {
  return {
    id: r.id,
    title: r.title,
    entryCount: r.entryCount,
    model: r.model,
    createdAt: r.createdAt.toISOString(),
    lastActivityAt: r.lastActivityAt.toISOString(),
  };
}

const summarySelect = { id: true, title: true, entryCount: true, model: true, createdAt: true, lastActivityAt: true } as const;

export async function createSession(input: { title?: string; cwd?: string } = {}): Promise<SessionSummary> {
  const id = crypto.randomUUID();
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id,
    timestamp: new Date().toISOString(),
    cwd: input.cwd ?? "",
    ...(input.title ? { title: input.title } : {}),
  };
  const row = await getDb().session.create({
    data: { id, title: input.title ?? null, header: header as object, cwd: header.cwd },
    select: summarySelect,
  });
  return toSummary(row);
}

export async function listSessions(): Promise<SessionSummary[]> {
  const rows = await getDb().session.findMany({
    where: { deletedAt: null },
    orderBy: [{ lastActivityAt: "desc" }, { id: "asc" }],
    select: summarySelect,
    take: 100,
  });
  return rows.map(toSummary);
}

export async function getSession(id: string): Promise<SessionSummary | null> {
  const row = await getDb().session.findFirst({ where: { id, deletedAt: null }, select: summarySelect });
  return row ? toSummary(row) : null;
}
