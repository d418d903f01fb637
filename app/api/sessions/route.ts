/** GET /api/sessions: the session list as JSON (the client's refetch source). */
import { NextResponse } from "next/server";
import { listSessions } from "@/lib/db/sessions";

export const dynamic = "force-dynamic";

export async function GET() {
  return NextResponse.json({ sessions: await listSessions() });
}
