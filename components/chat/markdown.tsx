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

function safeUrl(url: string): string {
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
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});
