/**
 * GET /api/models — the models the provider registry can serve, for the model picker:
 * 200 `{ models: [{ ref, provider, id, label, contextWindow, maxOutputTokens, reasoning,
 * offline }], defaultModel }`. The built-in offline model is always listed, last, labelled
 * "Offline model"; `defaultModel` is what a session without a chosen model uses.
 * The session page prefetches the same list (lib/chat/next-model `modelList`).
 */
import { refuseAnonymous } from "@/lib/auth/guard";
import { modelList } from "@/lib/chat/next-model";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return Response.json(await modelList(), { headers: { "cache-control": "no-store" } });
}
