/**
 * `usage`: tokens and cost from the usage ledger (docs/usage.md; lib/db usage verbs), counted once
 * across copies of a response as the Usage page counts them. Two shapes:
 * - with `session`: that session's own usage per model, its total and its subagents' total;
 * - without: sums per period (`bucket`: day, week, month) and group (`by`: model, project, agent)
 *   in a date range (`since` / `until`, inclusive days in `timeZone`, default the server's).
 * Costs are dollars as exact decimal strings; tokens whose price is unknown are counted in
 * `unpricedTokens`, never as free. Paged with offset, capped in bytes.
 */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { sessionUsage, usageSeries } from "@/lib/db";
import { BUCKETS, cellTokens, microsText, STACKS } from "@/lib/usage/series";
import { answer, maxBytesSchema, offsetSchema, pageOf, ToolInputError } from "../bounded";
import { sessionMeta } from "../sessions";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const daySchema = (what: string) => z.string().regex(DAY, { error: `${what} must be a day, YYYY-MM-DD` });

/** The instant `day` starts in `timeZone` (offset found from the zone's own clock at that day). */
function dayStart(day: string, timeZone: string, field: string): Date {
  const utc = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(utc)) throw new ToolInputError(`${field} ${day} is not a day`);
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }).formatToParts(utc);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"));
  return new Date(utc - (local - utc));
}

function checkZone(timeZone: string | undefined): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    throw new ToolInputError(`timeZone "${zone}" is not an IANA time zone (e.g. Europe/Berlin)`);
  }
  return zone;
}

const inputSchema = {
  session: z.string().min(1).optional().describe("One session's usage, per model; without it, sums over all sessions."),
  by: z.enum(STACKS).optional().describe("Group the sums by model (default), project or agent."),
  bucket: z.enum(BUCKETS).optional().describe("Period of the sums: day (default), week (from Monday) or month."),
  since: daySchema("since").optional().describe("First day, YYYY-MM-DD (inclusive)."),
  until: daySchema("until").optional().describe("Last day, YYYY-MM-DD (inclusive)."),
  timeZone: z.string().min(1).max(64).optional().describe("IANA time zone of the days; default the server's."),
  offset: offsetSchema,
  maxBytes: maxBytesSchema,
};

const dollars = (micros: number) => microsText(micros);

export function registerUsage(server: McpServer): void {
  server.registerTool(
    "usage",
    {
      title: "Tokens and cost",
      description:
        "Tokens and cost from Arbor's usage ledger. With `session`: that session per model, with its subagents' total. Without: sums per period (bucket) and group (by) between since and until. Costs in dollars; unpricedTokens are tokens of unknown price.",
      inputSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ session, by, bucket, since, until, timeZone, offset, maxBytes }) => {
      if (session) {
        const meta = await sessionMeta(session);
        const usage = await sessionUsage({ sessionId: meta.id });
        const byModel = new Map<string, { model: string; calls: number; input: number; output: number; cacheRead: number; cacheWrite: number; costMicros: number; unpricedTokens: number }>();
        for (const r of usage.rows) {
          const model = `${r.provider}/${r.model}`;
          const m = byModel.get(model) ?? { model, calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costMicros: 0, unpricedTokens: 0 };
          m.calls += 1;
          m.input += r.input;
          m.output += r.output;
          m.cacheRead += r.cacheRead;
          m.cacheWrite += r.cacheWrite;
          if (r.recordedCostMicros === undefined) m.unpricedTokens += r.input + r.output + r.cacheRead + r.cacheWrite;
          else m.costMicros += r.recordedCostMicros;
          byModel.set(model, m);
        }
        const items = [...byModel.values()].sort((a, b) => b.costMicros - a.costMicros || a.model.localeCompare(b.model)).map(({ costMicros, ...m }) => ({ ...m, costUsd: dollars(costMicros) }));
        const total = (t: { costMicros: number; tokens: number; unpricedTokens: number; calls: number }) => ({ costUsd: dollars(t.costMicros), tokens: t.tokens, unpricedTokens: t.unpricedTokens, calls: t.calls });
        const head = { session: meta.id, title: meta.title, sum: total(usage.own), subagents: { ...total(usage.subagents), sessions: usage.subagents.sessions } };
        return answer(await pageOf(items, { offset, maxBytes, head, what: "models" }));
      }
      const zone = checkZone(timeZone);
      if (since && until && until < since) throw new ToolInputError(`until ${until} is before since ${since}`);
      const start = since ? dayStart(since, zone, "since") : undefined;
      // `until` is inclusive: the range ends where the next day starts.
      const end = until ? dayStart(new Date(Date.parse(`${until}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), zone, "until") : undefined;
      const cells = await usageSeries({ bucket: bucket ?? "day", stack: by ?? "model", ...(start ? { since: start } : {}), ...(end ? { until: end } : {}), timeZone: zone });
      const totals = { costMicros: 0, tokens: 0, unpricedTokens: 0, calls: 0 };
      for (const c of cells) {
        totals.costMicros += c.costMicros;
        totals.tokens += cellTokens(c);
        totals.unpricedTokens += c.unpricedTokens;
        totals.calls += c.calls;
      }
      const items = cells.map((c) => ({ period: c.period, group: c.group, costUsd: dollars(c.costMicros), tokens: cellTokens(c), input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite, unpricedTokens: c.unpricedTokens, calls: c.calls }));
      const head = { bucket: bucket ?? "day", by: by ?? "model", since: since ?? null, until: until ?? null, timeZone: zone, sum: { costUsd: dollars(totals.costMicros), tokens: totals.tokens, unpricedTokens: totals.unpricedTokens, calls: totals.calls } };
      return answer(await pageOf(items, { offset, maxBytes, head, what: "period and group sums" }));
    },
  );
}
