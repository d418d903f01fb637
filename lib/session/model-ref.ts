/**
 * "provider/modelId": how Arbor names a model in settings, session rows, the picker and the
 * model registry. The provider is the text before the first slash; the id may itself contain
 * slashes (OpenRouter's "meta-llama/llama-3-70b"). Pure: no network, disk or database access.
 */
/** "provider/modelId". */
export function modelRef(provider: string, id: string): string {
  return `${provider}/${id}`;
}

/** Splits "provider/id" at the first slash (ids may contain slashes); undefined if malformed. */
export function parseModelRef(ref: string | undefined): { provider: string; id: string } | undefined {
  if (!ref) return undefined;
  const slash = ref.indexOf("/");
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  return { provider: ref.slice(0, slash), id: ref.slice(slash + 1) };
}
