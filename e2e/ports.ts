/** Ports of the e2e servers (all on 127.0.0.1); override with ARBOR_E2E_PORT as the base. */
const base = Number(process.env.ARBOR_E2E_PORT ?? 3210);

export const E2E_PORTS = {
  /** The app, configured with the fake OpenAI-compatible model server. */
  app: base,
  /** The same build with no model configured (the offline model only). */
  offlineApp: base + 1,
  /** The fake OpenAI-compatible model server (scripted over HTTP by the tests). */
  fakeLlm: base + 2,
  /** A second process of the main app: same build, same database (e2e/multi-process.spec.ts). */
  appB: base + 3,
};

/** Context window the app is told the fake models have (small, so compaction is easy to reach). */
export const FAKE_CONTEXT_WINDOW = 32_000;
/** The second one lets "Compact again with…" pick another model (e2e/compaction-trust.spec.ts). */
export const FAKE_MODELS = ["fake-model", "fake-small"];
/** A name only the offline app lists in ARBOR_ALLOWED_HOSTS (e2e/security.spec.ts). */
export const E2E_ALLOWED_HOST = "arbor.e2e.test";

/** ARBOR_ALLOWED_ROOTS of the main app: e2e/formats.spec.ts syncs folders below it ("Sync folder" page). */
export const E2E_SYNC_ROOT = `${process.env.TMPDIR ?? "/tmp"}/arbor-e2e-sync-${base}`;

/** Where e2e/server.ts writes an app's output (stdout and stderr), for specs that check what it logs. */
export function appLogPath(dataName: string, name = dataName): string {
  return `${process.cwd()}/.data/e2e-${dataName}/server-${name}.log`;
}
