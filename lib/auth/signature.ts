/**
 * The stateless half of the session check, for proxy.ts: a valid, unexpired signature under the
 * current key. No database, so the proxy stays light; whether the session still exists is checked
 * by every handler, page and action (lib/auth/guard.ts → lib/auth/sessions.ts).
 */
import { authKeys } from "./state";
import { verifySessionToken } from "./token";

export async function hasValidSignature(token: string | undefined, now = Date.now()): Promise<boolean> {
  if (!token) return false;
  return verifySessionToken(token, { key: (await authKeys()).sessionKey, now }).ok;
}
