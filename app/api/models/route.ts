/**
 * GET /api/models — the models the provider registry can serve, for the model picker:
 * 200 `{ models: [{ ref, provider, id, label, contextWindow, maxOutputTokens, reasoning,
 * offline }], defaultModel }`. The built-in offline model is always listed, last, labelled
 * "Offline model"; `defaultModel` is what a session without a chosen model uses.
 */
import { chatRegistry } from "@/lib/chat/runtime-config";
import { refuseAnonymous } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  const registry = chatRegistry();
  const models = (await registry.ensureModels()).map((m) => ({
    ref: m.ref,
    provider: m.provider,
    id: m.id,
    label: m.label,
    contextWindow: m.contextWindow,
    maxOutputTokens: m.maxOutputTokens,
    reasoning: m.reasoning,
    offline: m.offline === true,
  }));
  return Response.json({ models, defaultModel: registry.getDefaultModelRef() }, { headers: { "cache-control": "no-store" } });
}
