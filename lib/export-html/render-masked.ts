/**
 * The HTML export as it leaves Arbor (the "Download HTML" route, `cli export --format html`):
 * renderSessionHtml of the session with its secrets masked (lib/secrets maskSecrets,
 * docs/secrets.md) in the title, the header and every entry, unless the user chose to include
 * the originals for this export. No I/O; async only because the scanner is.
 */
import { maskSecrets, maskSecretsInText } from "@/lib/secrets";
import { type ExportInput, renderSessionHtml } from "./render-session-html";

export async function renderExportHtml(input: ExportInput & { includeSecrets?: boolean }): Promise<string> {
  const { includeSecrets, ...page } = input;
  if (includeSecrets) return renderSessionHtml(page);
  const [header, entries, title] = await Promise.all([maskSecrets(page.header), maskSecrets(page.entries), maskSecretsInText(page.title)]);
  return renderSessionHtml({ ...page, header, entries, title });
}
