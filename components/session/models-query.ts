/** GET /api/models for the model picker and the context meter's window. */
import { queryOptions } from "@tanstack/react-query";

export interface ModelOption {
  ref: string;
  provider: string;
  id: string;
  label: string;
  contextWindow: number;
  maxOutputTokens: number;
  reasoning: boolean;
  offline: boolean;
}

export function modelsOptions() {
  return queryOptions({
    queryKey: ["models"] as const,
    queryFn: async (): Promise<{ models: ModelOption[]; defaultModel: string }> => {
      const res = await fetch("/api/models");
      if (!res.ok) throw new Error(`Could not list models (${res.status})`);
      return (await res.json()) as { models: ModelOption[]; defaultModel: string };
    },
    staleTime: 60_000,
  });
}
