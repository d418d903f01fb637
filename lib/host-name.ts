/**
 * Host names as ARBOR_ALLOWED_HOSTS and the `Host` header give them: `name` or `name:port`.
 * Pure: shared by the environment's validation (lib/env.ts) and the request checks
 * (lib/http/request-guard.ts), so neither imports the other.
 */

export interface AllowedHost {
  /** Lower-case host name; IPv6 addresses keep their brackets (`[::1]`). */
  name: string;
  /** Undefined: any port. */
  port?: number;
}

const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)(?::(\d{1,5}))?$/;

/** `name[:port]` lower-cased and split, or undefined when it is not a host. */
export function parseHost(value: string): AllowedHost | undefined {
  const match = HOST_PATTERN.exec(value.trim().toLowerCase());
  if (!match?.[1]) return undefined;
  if (match[2] === undefined) return { name: match[1] };
  const port = Number(match[2]);
  return port >= 1 && port <= 65535 ? { name: match[1], port } : undefined;
}
