/**
 * POST /api/auth/login — sign in (public; lib/auth/sign-in.ts decides).
 * Body: JSON `{ password, next? }` (the login form's fetch) or a form post with the same fields
 * (no JavaScript). JSON answers: 200 `{ ok: true, next }` with the `arbor_session` cookie,
 * and errors as `{ error, code }` (lib/http/json-error.ts): 401 "Wrong password", 429 "Too many
 * attempts — try again in N seconds" with Retry-After: N, 400 bad body, 403 cross-site, 404 when
 * sign-in is off, 503 with Retry-After when the database cannot be reached.
 * A form post is answered with a 303 to `next` or back to /login?error=…
 */
import { NextResponse } from "next/server";
import { z } from "zod";
import { databaseUnavailable, jsonError } from "@/lib/http/route-helpers";
import { LOGIN_PATH, safeNextPath } from "@/lib/auth/access";
import { clientAddress } from "@/lib/auth/client-address";
import { deviceCookie, deviceCookieName, isHttps, isSameOrigin, readCookie, SESSION_TTL_SECONDS, sessionCookie } from "@/lib/auth/cookie";
import { type SignInResult, signIn } from "@/lib/auth/sign-in";
import { authEnabled } from "@/lib/auth/state";

export const dynamic = "force-dynamic";

const MAX_BODY = 16 * 1024;
const bodySchema = z.object({
  password: z.string({ error: "Enter the password" }).min(1, { error: "Enter the password" }).max(1000, { error: "The password is too long" }),
  next: z.string().optional(),
});

const json = (status: number, body: object) => NextResponse.json(body, { status, headers: { "cache-control": "no-store" } });

/** A relative Location: right whatever host name or proxy the browser came through. */
function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}

async function readBody(request: Request): Promise<string | undefined> {
  if (!request.body) return "";
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(r.value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function POST(request: Request): Promise<Response> {
  if (!authEnabled()) return jsonError(404, "Sign-in is off: ARBOR_PASSWORD is not set", "not_found");
  if (!isSameOrigin(request)) return jsonError(403, "Cross-site sign-in refused", "forbidden_origin");
  const isForm = /^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(request.headers.get("content-type") ?? "");
  const text = await readBody(request);
  if (text === undefined) return jsonError(413, "The request is too large", "too_large");
  let raw: unknown;
  try {
    raw = isForm ? Object.fromEntries(new URLSearchParams(text)) : JSON.parse(text || "{}");
  } catch {
    return jsonError(400, "Expected a JSON body { password }", "invalid_input");
  }
  const parsed = bodySchema.safeParse(raw);
  const next = safeNextPath(parsed.success ? parsed.data.next : undefined);
  const back = (params: Record<string, string>) => seeOther(`${LOGIN_PATH}?${new URLSearchParams({ ...params, ...(next !== "/" ? { next } : {}) })}`);
  if (!parsed.success) return isForm ? back({ error: "empty" }) : jsonError(400, parsed.error.issues[0]?.message ?? "Bad request", "invalid_input");

  const address = clientAddress(request);
  let result: SignInResult;
  try {
    result = await signIn({
      password: parsed.data.password,
      address,
      deviceToken: readCookie(request.headers.get("cookie"), deviceCookieName()),
      userAgent: request.headers.get("user-agent"),
    });
  } catch (error) {
    // The session row is written (and expired ones pruned) in PostgreSQL: unreachable, a 503.
    const unavailable = databaseUnavailable(error);
    if (unavailable) return unavailable;
    throw error;
  }
  if (!result.ok) {
    if (result.status === 429) {
      const retry = String(result.retryAfterSeconds);
      if (isForm) return back({ error: "rate", retry });
      return jsonError(429, result.error, "rate_limited", { "retry-after": retry });
    }
    return isForm ? back({ error: "wrong" }) : jsonError(401, result.error, "unauthorized");
  }
  const response = isForm ? seeOther(next) : json(200, { ok: true, next });
  response.cookies.set(sessionCookie(result.token, { secure: isHttps(request), maxAge: SESSION_TTL_SECONDS }));
  if (result.deviceToken) response.cookies.set(deviceCookie(result.deviceToken, { secure: isHttps(request) }));
  return response;
}
