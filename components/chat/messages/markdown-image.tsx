/**
 * Images in Markdown (messages, tool output): a `data:image/…` URL is inline data and renders
 * as an image; any other URL — remote or relative — is never fetched by the page. It shows as a
 * placeholder naming the alt text and the address, with a "Load image" link that opens the
 * image in a new tab (`noopener noreferrer`: no opener, no Referer), so a message such as
 * `![x](http://host/p.png?secret=…)` calls out only when the reader asks (README "Security"). The CSP's
 * `img-src 'self' data: blob:` backs this up.
 */

/** Inline image data the page may show without any request. */
export function isInlineImage(src: string): boolean {
  return /^data:image\/[a-z0-9.+-]+[;,]/i.test(src.trim());
}

export function MarkdownImage({ src, alt }: { src?: string | Blob; alt?: string }) {
  if (typeof src !== "string" || src.trim() === "") return alt ? <span>{alt}</span> : null;
  // biome-ignore lint/performance/noImgElement: inline data only; next/image would fetch through the server
  if (isInlineImage(src)) return <img src={src} alt={alt ?? ""} className="max-w-full" />;
  const remote = /^https?:/i.test(src);
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-2 rounded border border-dashed border-line px-2 py-1 text-sm text-muted" data-image-placeholder="">
      {/* An inline icon, not an emoji: machines without an emoji font drew a missing-glyph box. */}
      <svg aria-hidden="true" viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.5">
        <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
        <circle cx="5.5" cy="6.5" r="1.25" />
        <path d="M2 12l4-4 3 3 2-2 3 3" />
      </svg>
      <span className="break-all">
        {alt ? `${alt} — ` : "Image — "}
        {src}
      </span>
      {remote ? (
        <a href={src} target="_blank" rel="noopener noreferrer nofollow" className="rounded border border-line px-1.5 no-underline">
          Load image
        </a>
      ) : null}
    </span>
  );
}
