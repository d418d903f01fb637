/**
 * The Content-Disposition of a download (RFC 6266): a plain ASCII `filename` for old clients,
 * plus `filename*` (UTF-8) with the real name. A path is cut to its last segment.
 */
export function attachmentHeader(fileName: string, fallback = "session.jsonl"): string {
  const base = fileName.split(/[\\/]/).pop() || fallback;
  const ascii = base.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}
