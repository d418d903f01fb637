/** GET /api/sessions/[id]/tree: the session's metadata and every entry (file order) with the stored leaf. */
import { NextResponse } from "next/server";
import { findSessionMeta, loadEntries } from "@/lib/db/store-read";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const session = await findSessionMeta({ id });
  if (!session || session.deletedAt) return NextResponse.json({ error: `Session ${id} not found` }, { status: 404 });
  const entries = await loadEntries({ sessionId: id });
  return NextResponse.json({ session, entries });
}
