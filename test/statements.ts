/**
 * Counts the SQL statements this process sends to PostgreSQL while `fn` runs (every pg client
 * query, as bench/lib/database.ts counts them), for tests that assert a read's statement budget
 * or look at what was sent (`sent`: each statement's text and parameters, e.g. to EXPLAIN it).
 * Real statements on the real database; nothing is stubbed. Not reentrant.
 */
import pg from "pg";

/** A statement as sent: its text and its parameters. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

export async function countStatements<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; statements: number; texts: string[]; sent: SentStatement[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const sent: SentStatement[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === "string" ? first : (first?.text ?? "");
    const values = (typeof first === "object" ? first?.values : undefined) ?? (Array.isArray(args[1]) ? args[1] : []);
    sent.push({ text, values });
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, statements: sent.length, texts: sent.map((s) => s.text), sent };
  } finally {
    proto.query = original;
  }
}
