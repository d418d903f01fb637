/**
 * The security headers of every page and route (README "Security"), set by next.config.ts `headers()`
 * for all paths and by proxy.ts on the responses it makes itself. Pure.
 *
 * Scripts: `'self' 'unsafe-inline'`, not nonces. Next's App Router emits inline bootstrap
 * scripts; its CSP guide offers per-request nonces made in the proxy (which force dynamic
 * rendering) or, without nonces, `'unsafe-inline'`. We take the latter because (1) the two
 * upload routes and the static output do not pass through the proxy, so one static policy is
 * the only one that covers every response the same way; (2) the session export route sends its
 * own stricter policy with inline scripts, which a nonce policy sent alongside would block; and
 * (3) Arbor renders no HTML from data (React escapes text, react-markdown runs without raw HTML;
 * e2e/xss.spec.ts), so the policy's job here is the rest: no remote scripts, images,
 * connections, frames, plugins, base or form targets. Development adds `'unsafe-eval'`, which
 * React Refresh needs; production never has it.
 */

export function contentSecurityPolicy(dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    // React Flow and the UI set style attributes.
    "style-src 'self' 'unsafe-inline'",
    // Remote images in messages are links ("Load image"), never fetched (components/chat/messages/markdown.tsx).
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * Downloads (a workspace file, a session's original file, the JSONL export): the same policy
 * plus `sandbox`, so a file that a browser shows after all (a type it renders inline, or opened
 * from the downloads list on this origin) runs no script, submits no form and gets an opaque
 * origin. next.config.ts sets it by path, after the app-wide policy (the last match wins there),
 * and the routes set it too.
 */
export function downloadContentSecurityPolicy(dev: boolean): string {
  return `${contentSecurityPolicy(dev)}; sandbox`;
}

/**
 * Features the page never uses, turned off. Only features Chromium knows: an unknown one (such as
 * `bluetooth`, which is not a policy-controlled feature) makes it print "Unrecognized feature" in
 * every page's console.
 */
export const PERMISSIONS_POLICY_FEATURES = ["camera", "microphone", "geolocation", "payment", "usb", "serial", "hid", "display-capture", "interest-cohort"] as const;

const PERMISSIONS_POLICY = PERMISSIONS_POLICY_FEATURES.map((f) => `${f}=()`).join(", ");

/** The headers, as a plain record; `dev` (next dev) allows eval for React Refresh. */
export function securityHeaders(dev: boolean): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(dev),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "permissions-policy": PERMISSIONS_POLICY,
    "x-frame-options": "DENY",
  };
}
