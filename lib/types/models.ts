/**
 * A model the picker lists: what GET /api/models answers and the session page seeds
 * (lib/chat/next-model.ts builds it on the server; components/session/models-query.ts reads it).
 */
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
