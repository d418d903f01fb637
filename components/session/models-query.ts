/** GET /api/models for the model picker and the context meter's window. */
import { queryOptions } from "@tanstack/react-query";
import type { ModelOption } from "@/lib/types/models";

export type { ModelOption } from "@/lib/types/models";

/** The cache key; the session page seeds it on the server so the picker renders with its list. */
export const MODELS_KEY = ["models"] as const;

export function modelsOptions() {
  return queryOptions({
    queryKey: MODELS_KEY,
    queryFn: async (): Promise<{ models: ModelOption[]; defaultModel: string }> => {
      const res = await fetch("/api/models");
      if (!res.ok) throw new Error(`Could not list models (${res.status})`);
      return (await res.json()) as { models: ModelOption[]; defaultModel: string };
    },
    staleTime: 60_000,
  });
}
