"use client";
/**
 * The workspace tree of the Files panel: folders as open disclosure groups, files as download
 * links with their size. Symbolic links are shown but never offered for download (the server
 * does not follow them); node_modules / .git are listed but not entered.
 */
import { memo } from "react";
import { downloadUrl } from "@/lib/query/files";
import type { WorkspaceNode } from "@/lib/types/workspace-files";
import { formatBytes } from "@/lib/text/byte-size";

function FileRow({ sessionId, node }: { sessionId: string; node: WorkspaceNode }) {
  return (
    <li className="flex items-baseline justify-between gap-2 py-0.5">
      <a
        href={downloadUrl(sessionId, node.path)}
        download={node.name}
        title={`Download ${node.path}`}
        className="min-w-0 truncate font-mono text-xs text-[var(--color-accent)] underline-offset-2 hover:underline"
      >
        {node.name}
      </a>
      <span className="shrink-0 text-xs text-muted tabular-nums">{node.size === undefined ? "" : formatBytes(node.size)}</span>
    </li>
  );
}

function FolderRow({ sessionId, node }: { sessionId: string; node: WorkspaceNode }) {
  if (node.skipped || !node.children) {
    return (
      <li className="py-0.5 font-mono text-xs">
        {node.name}/ <span className="text-muted">(not listed)</span>
      </li>
    );
  }
  return (
    <li className="py-0.5">
      <details open>
        <summary className="cursor-pointer select-none font-mono text-xs">
          {node.name}/ <span className="text-muted">({node.children.length})</span>
        </summary>
        <FileTree sessionId={sessionId} nodes={node.children} nested />
      </details>
    </li>
  );
}

export const FileTree = memo(function FileTree({
  sessionId,
  nodes,
  nested = false,
}: {
  sessionId: string;
  nodes: WorkspaceNode[];
  nested?: boolean;
}) {
  return (
    <ul aria-label={nested ? undefined : "Workspace files"} className={nested ? "ml-3 border-l border-line pl-2" : ""}>
      {nodes.map((node) => {
        if (node.kind === "directory") return <FolderRow key={node.path} sessionId={sessionId} node={node} />;
        if (node.kind === "file") return <FileRow key={node.path} sessionId={sessionId} node={node} />;
        return (
          <li key={node.path} className="py-0.5 font-mono text-xs">
            {node.name} <span className="text-muted">({node.kind === "symlink" ? "symbolic link, not followed" : "special file"})</span>
          </li>
        );
      })}
    </ul>
  );
});
