/**
 * Counts the SQL statements this process sends to PostgreSQL while `fn` runs (every pg client
 * query, as bench/lib/database.ts counts them), for tests that assert a read's statement budget.
 * Real statements on the real database; nothing is stubbed. Not reentrant.
 */
import pg from "pg";

export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number; texts: string[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const texts: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    texts.push(typeof first === "string" ? first : ((first as { text?: string } | undefined)?.text ?? ""));
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, statements: texts.length, texts };
  } finally {
    proto.query = original;
  }
}
