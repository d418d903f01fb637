"use client";
/**
 * "MCP tokens" on the devices page (docs/mcp.md "Over HTTP"): the bearer tokens that open /mcp.
 * "Make token" names one and shows it ONCE, to copy into the agent's MCP settings (only its hash
 * is kept); "Revoke" ends one at once. Errors show in place.
 */
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { makeMcpTokenAction, revokeMcpTokenAction } from "@/app/devices/actions";
import { deviceButton as button, When } from "./device-list";

export interface McpTokenView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function McpTokens({ tokens }: { tokens: McpTokenView[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [name, setName] = useState("");
  const [made, setMade] = useState<{ name: string; token: string } | undefined>();
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();

  const make = () =>
    startTransition(async () => {
      const r = await makeMcpTokenAction({ name });
      if (r.ok) {
        setMade({ name: r.data.name, token: r.data.token });
        setName("");
        setMessage(undefined);
      } else setMessage({ text: r.message ?? "The token was not made; reload the page and try again.", error: true });
      router.refresh();
    });
  const revoke = (t: McpTokenView) =>
    startTransition(async () => {
      const r = await revokeMcpTokenAction({ id: t.id });
      setMessage(r.ok ? { text: `Revoked ${t.name}`, error: false } : { text: r.message ?? "That did not work; reload the page and try again.", error: true });
      if (made && r.ok && made.name === t.name) setMade(undefined);
      router.refresh();
    });

  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          make();
        }}
      >
        <label htmlFor="mcp-token-name" className="text-sm">
          Name
        </label>
        <input
          id="mcp-token-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="Claude Code on the laptop"
          maxLength={100}
          className="min-w-0 flex-1 rounded border border-line bg-[var(--bg)] px-2 py-0.5 text-sm"
        />
        <button type="submit" className={button} disabled={pending || name.trim() === ""}>
          Make token
        </button>
      </form>
      {made && (
        <div role="status" aria-label="New MCP token" className="rounded border border-line p-2 text-sm">
          <p className="mb-1">
            The token for <strong>{made.name}</strong>. Copy it now: it is shown only this once.
          </p>
          <code className="block break-all select-all rounded bg-[var(--panel)] px-1 py-0.5">{made.token}</code>
        </div>
      )}
      {tokens.length === 0 ? (
        <p className="text-sm text-muted">No MCP token: the /mcp endpoint is off (unless ARBOR_MCP_TOKEN is set).</p>
      ) : (
        <ul aria-label="MCP tokens" className="divide-y divide-line rounded border border-line">
          {tokens.map((t) => (
            <li key={t.id} aria-label={t.name} className="flex items-center gap-3 px-3 py-2">
              <div className="min-w-0 flex-1">
                <p className="font-medium">{t.name}</p>
                <p className="text-xs text-muted">
                  Made <When iso={t.createdAt} /> · {t.lastUsedAt ? <>last used <When iso={t.lastUsedAt} /></> : "never used"}
                </p>
              </div>
              <button type="button" className={button} disabled={pending} onClick={() => revoke(t)}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {message && (
        <p role={message.error ? "alert" : "status"} className={message.error ? "text-sm text-red-700 dark:text-red-300" : "text-sm"}>
          {message.text}
        </p>
      )}
    </div>
  );
}
