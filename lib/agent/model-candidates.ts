/**
 * The models auto-compaction tries, in order (session-engine.md §13.3 step 5):
 * 1. the models resolved for the roles default, smol, slow, plan, commit — in that order, with
 *    `default` falling back to the current model — de-duplicated by provider/id;
 * 2. then the single available model with the largest contextWindow not already listed
 *    (the first one wins a tie);
 * and finally every candidate without an API key is skipped. De-duplication and the
 * "not already listed" test happen before the key filter, as the spec orders them.
 */
import type { AgentModel, ModelResolver } from "@/lib/agent/ports";
import { modelRef } from "@/lib/session/model-ref";
import { MODEL_ROLES, type ModelRoles } from "@/lib/settings/schema";

const keyOf = (m: AgentModel) => modelRef(m.info.provider, m.info.id);

export async function compactionCandidates(
  current: AgentModel | undefined,
  roles: ModelRoles,
  resolver: ModelResolver,
): Promise<AgentModel[]> {
  const listed: AgentModel[] = [];
  const seen = new Set<string>();
  const add = (model: AgentModel | undefined) => {
    if (!model || seen.has(keyOf(model))) return;
    seen.add(keyOf(model));
    listed.push(model);
  };

  for (const role of MODEL_ROLES) {
    const ref = roles[role];
    let model = ref ? await resolver.resolve(ref) : undefined;
    if (role === "default") model ??= current;
    add(model);
  }

  let largest: AgentModel | undefined;
  for (const model of await resolver.listAvailable()) {
    if (seen.has(keyOf(model))) continue;
    if (!largest || model.info.contextWindow > largest.info.contextWindow) largest = model;
  }
  add(largest);

  return listed.filter((m) => m.hasApiKey);
}
