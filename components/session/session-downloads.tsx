"use client";
/**
 * The session's downloads (docs/secrets.md). JSONL and HTML are masked by default; when the
 * session holds secrets, "Include secrets" asks for the originals of the next export, after a
 * warning. "Download original" is the imported file as it was: it first asks the server how
 * many secrets the file holds and says so before downloading. Without a script the links still
 * work (masked exports, the original as it is).
 */
import { useQuery } from "@tanstack/react-query";
import { type MouseEvent, useState } from "react";
import { readErrorMessage } from "@/lib/text/error-text";
import { secretsOptions } from "@/lib/query/secrets";
import { formatCount } from "@/components/sessions/format";

const link = "text-sm text-muted underline";

/** Starts a download of `href` (the browser keeps the page). */
function download(href: string): void {
  const a = document.createElement("a");
  a.href = href;
  a.download = "";
  a.click();
}

export function SessionDownloads({ sessionId, hasOriginal }: { sessionId: string; hasOriginal: boolean }) {
  const { data } = useQuery(secretsOptions(sessionId));
  const [include, setInclude] = useState(false);
  const base = `/api/sessions/${encodeURIComponent(sessionId)}`;
  const count = data?.count ?? 0;
  const secrets = include && count > 0 ? "&secrets=include" : "";

  const confirmInclude = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!secrets) return;
    const ok = window.confirm(
      `This file will contain ${formatCount(count, "secret", "secrets")} unmasked (API keys, tokens, passwords). Anyone who gets the file can use them. Download anyway?`,
    );
    if (!ok) e.preventDefault();
  };

  const original = async (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    const href = e.currentTarget.href;
    const res = await fetch(`${base}/original?count=secrets`, { headers: { accept: "application/json" } });
    if (!res.ok) return window.alert(await readErrorMessage(res));
    const { secrets: n } = (await res.json()) as { secrets: number };
    const ok =
      n === 0 ||
      window.confirm(`The original file holds ${formatCount(n, "secret", "secrets")}, unmasked: it is kept exactly as it was imported. Download it anyway?`);
    if (ok) download(href);
  };

  return (
    <>
      <a href={`${base}?format=jsonl${secrets}`} className={link} download onClick={confirmInclude}>
        Download JSONL
      </a>
      <a href={`${base}?format=html${secrets}`} className={link} download onClick={confirmInclude}>
        Download HTML
      </a>
      {count > 0 && (
        <label className="flex items-center gap-1 text-sm text-muted">
          <input type="checkbox" checked={include} onChange={(e) => setInclude(e.target.checked)} />
          Include secrets
        </label>
      )}
      {hasOriginal && (
        <a href={`${base}/original`} className={link} download onClick={(e) => void original(e)}>
          Download original
        </a>
      )}
    </>
  );
}
