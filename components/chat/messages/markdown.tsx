"use client";
/**
 * Safe Markdown: react-markdown never renders raw HTML (no rehype-raw), and its URL transform
 * drops `javascript:` and other unsafe link targets, so message content cannot run script.
 * Code blocks are highlighted with highlight.js (rehype-highlight). Images are never fetched on
 * their own: only inline `data:image` renders, anything else is a "Load image" link
 * (markdown-image.tsx).
 */
import { memo } from "react";
import ReactMarkdown, { defaultUrlTransform } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { CopyButton } from "./copy-button";
import { isInlineImage, MarkdownImage } from "./markdown-image";
import "./markdown.css";

/**
 * One highlighter for every message. react-markdown builds a new processor on each render, and
 * rehype-highlight's attacher creates a lowlight instance registering ~37 grammars each time it
 * runs (~1 ms): on a 10k-message session that alone was ~9 s of server render (and as much again
 * when hydrating). The transformer keeps no per-document state, so it is created once and shared.
 */
let highlighter: ReturnType<typeof rehypeHighlight> | undefined;
function sharedRehypeHighlight() {
  highlighter ??= rehypeHighlight({ detect: false });
  return highlighter;
}

/** The text of a rendered node (hast), for a code block's "Copy". */
interface HastNode {
  type: string;
  value?: string;
  children?: HastNode[];
}
function hastText(node: HastNode | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(hastText).join("");
}

/** Unsafe link targets become "". An image's `data:image/…` source is kept (inline data, no request). */
function safeUrl(url: string, key: string): string {
  if (key === "src" && isInlineImage(url)) return url;
  const cleaned = defaultUrlTransform(url);
  return /^\s*(javascript|vbscript|data):/i.test(cleaned) ? "" : cleaned;
}

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="arbor-markdown">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[sharedRehypeHighlight]}
        urlTransform={safeUrl}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow">
              {children}
            </a>
          ),
          img: ({ src, alt }) => <MarkdownImage src={src} alt={alt} />,
          pre: ({ node, children }) => (
            <div className="relative">
              <pre>{children}</pre>
              <CopyButton text={() => hastText(node as HastNode | undefined)} label="Copy code" className="absolute top-1 right-1" />
            </div>
          ),
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
