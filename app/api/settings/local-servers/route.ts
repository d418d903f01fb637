/**
 * GET /api/settings/local-servers — the OpenAI-compatible servers running on this machine on
 * their usual ports (lib/llm/local-servers.ts: Ollama 11434, LM Studio 1234, llama.cpp 8080,
 * vLLM 8000; 127.0.0.1 only, `GET /v1/models`, a short timeout): 200 `{ servers: [{ name, port,
 * baseURL, found, models, problem? }] }`. Nothing the request says is asked: the ports are fixed.
 */
import { refuseAnonymous } from "@/lib/auth/guard";
import { discoverLocalServers } from "@/lib/llm/local-servers";

export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  const refused = await refuseAnonymous(request);
  if (refused) return refused;
  return Response.json({ servers: await discoverLocalServers() }, { headers: { "cache-control": "no-store" } });
}
