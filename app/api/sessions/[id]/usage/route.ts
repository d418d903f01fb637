/**
 * GET /api/sessions/[id]/usage — what the session cost (docs/usage.md "Where it shows"): its own
 * counted ledger rows summed, its subagents' total, and each branch segment's cost and tokens
 * (lib/usage/branches.ts: the segments add up to the session's own total). For the canvas's
 * branch badges, and each compaction's and branch summary's own call (cost, tokens) for their cards. 400 for a malformed id, 404 for an unknown or deleted session, 503 when the
 * database is unreachable.
 */
import { z } from "zod";
import { refuseAnonymous } from "@/lib/auth/guard";
import { sessionUsage } from "@/lib/db";
import { branchCosts } from "@/lib/usage/branches";
import { type RouteContext, sessionViewRoute } from "../preamble";

export const dynamic = "force-dynamic";

export async function GET(request: Request, ctx: RouteContext<{ id: string }>) {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return sessionViewRoute(request, ctx, z.object({}), async (view) => {
    const usage = await sessionUsage({ sessionId: view.meta.id });
    const branches = branchCosts(
      view.tree.getEntries().map((e) => ({ id: e.id, parentId: e.parentId })),
      usage.rows.map((r) => ({ entryId: r.entryId, costMicros: r.recordedCostMicros, tokens: r.input + r.output + r.cacheRead + r.cacheWrite })),
    );
    const summaryCalls = usage.rows
      .filter((r) => r.kind !== "message")
      .map((r) => ({ entryId: r.entryId, ...(r.recordedCostMicros !== undefined ? { costMicros: r.recordedCostMicros } : {}), tokens: r.input + r.output + r.cacheRead + r.cacheWrite }));
    return { own: usage.own, subagents: usage.subagents, branches, summaryCalls };
  });
}
