/**
 * Locates the shared pi session fixtures (../shared/fixtures or $ARBOR_FIXTURES).
 * They are never copied into the project; tests that need them skip with a clear message
 * when the folder is absent (a user's fresh clone).
 */
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

export const FIXTURES_DIR = process.env.ARBOR_FIXTURES
  ? path.resolve(process.env.ARBOR_FIXTURES)
  : path.resolve(root, "../shared/fixtures");

export const LARGE_SESSION = path.join(FIXTURES_DIR, "large-session.jsonl");

/** True when the shared fixtures are present. */
export const hasFixtures = existsSync(LARGE_SESSION);

/** Message to show when fixture tests are skipped. */
export const FIXTURES_SKIP_REASON = `shared fixtures not found at ${FIXTURES_DIR} (set ARBOR_FIXTURES); skipping fixture tests`;

if (!hasFixtures) {
  // Printed once per test file that imports this module, so a skipped suite is never silent.
  console.warn(FIXTURES_SKIP_REASON);
}
