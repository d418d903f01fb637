/**
 * The environment, validated once with zod (conventions rule 10). Code imports `env`, never
 * `process.env.X` directly. Everything is optional: with nothing set, Arbor runs on the embedded
 * database with the offline model.
 */
import { z } from "zod";
import { type AllowedHost, parseHost } from "@/lib/host-name";

/**
 * ARBOR_ALLOWED_HOSTS (`a.example, b.example:8443`) as a list; throws with the bad entry named,
 * so a typo stops the server instead of locking everyone out.
 */
export function parseAllowedHosts(raw: string | undefined): AllowedHost[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((entry) => {
      const host = parseHost(entry);
      if (!host) throw new Error(`ARBOR_ALLOWED_HOSTS: "${entry}" is not a host name or host:port (no scheme, no path)`);
      return host;
    });
}

const optionalString = z
  .string()
  .trim()
  .transform((s) => (s === "" ? undefined : s))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** PostgreSQL connection string; when unset the embedded server in .data/postgres is used. */
  DATABASE_URL: optionalString,
  /** Folder for Arbor's local data (embedded database, workspaces). */
  ARBOR_DATA_DIR: optionalString,
  /** Root folder for per-session agent workspaces; default `<data dir>/workspaces` (lib/tools). */
  ARBOR_WORKSPACES: optionalString,
  /** Colon-separated folders inside which a session may be pointed at an existing project, and which the "Sync folder" page may sync (lib/sync/allowed.ts). */
  ARBOR_ALLOWED_ROOTS: optionalString,
  /** `off`: the app does not keep the consented folders in sync by itself (lib/sync/app-sync.ts); default on. */
  ARBOR_AUTO_SYNC: z.enum(["on", "all", "off"], { error: "ARBOR_AUTO_SYNC must be on, all or off" }).optional(),
  /** The port Arbor is served on; scripts/run-app.ts and e2e/server.ts pass it to Next (Host checks). */
  PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /**
   * Comma-separated `name` or `name:port` Arbor answers to besides the loopback names
   * (lib/http/request-guard.ts): the public name behind a reverse proxy, a LAN name.
   */
  ARBOR_ALLOWED_HOSTS: optionalString.superRefine((raw, ctx) => {
    try {
      parseAllowedHosts(raw);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  }),
  OPENAI_API_KEY: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  /** Base URL of an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio). */
  ARBOR_OPENAI_BASE_URL: optionalString,
  ARBOR_OPENAI_API_KEY: optionalString,
  /** Comma-separated model ids served by the OpenAI-compatible server. */
  ARBOR_OPENAI_MODELS: optionalString,
  /** Context window override for the OpenAI-compatible models, in tokens. */
  ARBOR_OPENAI_CONTEXT_WINDOW: z.coerce.number().int().positive().optional(),
  /** A model call that sends nothing for this long ends with an error; default 120000, 0 = never. */
  ARBOR_MODEL_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  /**
   * Size of the in-process session read model (lib/db/read-model), in MB of estimated heap;
   * least recently used sessions are evicted beyond it. Default 256; 0 turns caching off.
   */
  ARBOR_CACHE_MB: z.coerce.number().min(0).optional(),
  /**
   * Turns sign-in on (lib/auth): every page, action and route then needs a session. Required to
   * listen on a non-loopback ARBOR_HOST. Not trimmed: spaces are part of the password.
   */
  ARBOR_PASSWORD: z
    .string()
    .transform((s) => (s === "" ? undefined : s))
    .optional(),
  /**
   * The password's scrypt hash, `scrypt$N$r$p$salt$hash` (lib/auth/password.ts; `npm run cli --
   * hash-password` prints one). Turns sign-in on like ARBOR_PASSWORD; the launcher turns
   * ARBOR_PASSWORD into this before it starts Next, so the plaintext never reaches the app.
   */
  ARBOR_PASSWORD_HASH: optionalString,
  /** Key material for the cookie signatures; unset = a random secret kept in `<data dir>/session-secret` (0600). */
  ARBOR_SESSION_SECRET: optionalString,
  /** Address the app listens on (scripts/run-app.ts); loopback gives the cookies a per-port name. */
  ARBOR_HOST: optionalString,
  /**
   * Comma-separated IPs / CIDRs of reverse proxies whose X-Forwarded-For is believed
   * (lib/auth/client-address.ts). Unset: X-Forwarded-For is never believed.
   */
  ARBOR_TRUSTED_PROXIES: optionalString,
  /**
   * Turns on the MCP endpoint `/mcp` (docs/mcp.md "Over HTTP"): callers send it as
   * `Authorization: Bearer <token>`. Unset: `/mcp` answers 404. At least 32 characters.
   */
  ARBOR_MCP_TOKEN: optionalString.refine((t) => t === undefined || t.length >= 32, "ARBOR_MCP_TOKEN must be at least 32 characters"),
});

export type Env = z.infer<typeof envSchema>;

function parseEnv(source: Record<string, string | undefined>): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const env: Env = parseEnv(process.env);
