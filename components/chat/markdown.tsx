"use client";
/**
 * Safe Markdown: react-markdown never renders raw HTML (no rehype-raw), and its URL transform
 * drops `javascript:` and other unsafe link targets, so message content cannot run script.
 * Code blocks are highlighted with highlight.js (rehype-highlight).
 */
import { memo } from "react";
import ReactMarkdown, { defaultUrlTransform } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import "./markdown.css";

function safeUrl(url: string): string {
  const cleaned = defaultUrlTransform(url);
  return /^\s*(javascript|vbscript|data):/i.test(cleaned) ? "" : cleaned;
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="arbor-markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeHighlight, { detect: false, ignoreMissing: true }]]}
        urlTransform={safeUrl}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {children}
            </a>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
