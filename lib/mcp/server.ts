/**
 * Arbor's MCP server (docs/mcp.md): read-only tools over the store, one resource per session
 * (`arbor://session/<id>`: the current branch as text) and the prompt "recall what the last
 * compaction dropped". Every answer passes through `maskSecrets` (docs/secrets.md). The caller
 * connects it to a transport (stdio: cli/commands/mcp.ts).
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { listSessions } from "@/lib/db";
import { maskSecrets } from "@/lib/secrets";
import { clipText, ToolInputError } from "./bounded";
import { droppedBy } from "./dropped";
import { entryText } from "./entry-text";
import { branchTo, findSession, sessionMeta } from "./sessions";
import { registerCompactionTools } from "./tools/compactions";
import { registerFilesTouched } from "./tools/files-touched";
import { registerReadSession } from "./tools/read-session";
import { registerSearchSessions } from "./tools/search-sessions";
import { registerSessionContext } from "./tools/session-context";
import { registerUsage } from "./tools/usage";

/** The largest resource text; read_session pages through longer branches. */
const RESOURCE_MAX_BYTES = 200_000;

export function createArborMcpServer(version = "0.1.0"): McpServer {
  const server = new McpServer({ name: "arbor", version });
  registerSearchSessions(server);
  registerReadSession(server);
  registerSessionContext(server);
  registerCompactionTools(server);
  registerUsage(server);
  registerFilesTouched(server);
  registerSessionResource(server);
  registerRecallPrompt(server);
  return server;
}

function registerSessionResource(server: McpServer): void {
  const template = new ResourceTemplate("arbor://session/{id}", {
    list: async () => ({
      resources: (await listSessions({ limit: 50 })).sessions.map((s) => ({ uri: `arbor://session/${s.id}`, name: s.title ?? s.id, mimeType: "text/plain" })),
    }),
  });
  server.registerResource(
    "session",
    template,
    { title: "An Arbor session", description: "The session's current branch as text (at most 200 kB; read_session pages through longer ones).", mimeType: "text/plain" },
    async (uri, { id }) => {
      const sessionId = String(id);
      const meta = await findSession(sessionId);
      if (!meta) throw new McpError(ErrorCode.InvalidParams, `unknown session "${sessionId}"`);
      const { path } = await branchTo(meta, undefined);
      const header = `# ${meta.title ?? meta.id}\nsession ${meta.id} · ${meta.cwd} · ${path.length} entries on the current branch\n\n`;
      const body = path.map((e, i) => `## ${e.id}\n${entryText(e, i).text}`).join("\n\n");
      const text = await maskSecrets(clipText(header + body, RESOURCE_MAX_BYTES));
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
    },
  );
}

function registerRecallPrompt(server: McpServer): void {
  server.registerPrompt(
    "recall_compaction",
    {
      title: "Recall what the last compaction dropped",
      description: "Run right after a compaction: lists what the summary left out of the span it replaced, with the entries to read for detail.",
      argsSchema: { session: z.string().optional().describe("The session id; default the session active most recently.") },
    },
    async ({ session }) => {
      const id = session ?? (await listSessions({ limit: 1 })).sessions[0]?.id;
      if (!id) throw new McpError(ErrorCode.InvalidParams, "there are no sessions in Arbor");
      let text: string;
      try {
        const d = await droppedBy(await sessionMeta(id), undefined);
        const lines = d.dropped.map((f) => `- ${f.kind}: ${f.text}${f.detail ? ` (${f.detail})` : ""} [entry ${f.entry}]`);
        text = [
          `Your context in session ${id} was compacted at ${d.timestamp} (compaction ${d.compaction}). Its summary carried ${d.score.carried} of ${d.score.total} facts of the ${d.spanEntries} entries it replaced.`,
          lines.length === 0
            ? "Nothing of note was left out."
            : `These were in the replaced entries but not in the summary. Keep them in mind; read an entry with the read_session tool (fromEntry) when you need its detail:\n${lines.join("\n")}`,
        ].join("\n\n");
      } catch (error) {
        if (error instanceof ToolInputError) throw new McpError(ErrorCode.InvalidParams, error.message);
        throw error;
      }
      return { messages: [{ role: "user", content: { type: "text", text: await maskSecrets(text) } }] };
    },
  );
}
