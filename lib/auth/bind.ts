/**
 * Which addresses Arbor may listen on without a password.
 * Pure: no network access. Loopback is 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and
 * "localhost"; any other address (0.0.0.0, ::, a LAN address, a host name) reaches the network,
 * so scripts/run-app.ts refuses it unless ARBOR_PASSWORD turns sign-in on.
 */

export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const v4 = h.startsWith("::ffff:") ? h.slice("::ffff:".length) : h;
  const parts = v4.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return false;
  return parts[0] === "127";
}

export type BindCheck = { ok: true; auth: boolean } | { ok: false; message: string };

/** The start-up rule: a non-loopback address needs a password; a password always turns sign-in on. */
export function checkBind({ host, password }: { host: string; password: string | undefined }): BindCheck {
  const auth = password !== undefined && password !== "";
  if (auth || isLoopbackHost(host)) return { ok: true, auth };
  return {
    ok: false,
    message: `Binding to ${host} exposes Arbor to the network: set ARBOR_PASSWORD to require sign-in (or use ARBOR_HOST=127.0.0.1).`,
  };
}
