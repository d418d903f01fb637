/**
 * `mcp`: Arbor's MCP server (lib/mcp, docs/mcp.md) on stdio, for an agent's MCP configuration.
 * Stdout carries the protocol only (run it with `npm run -s` so npm prints no banner there);
 * diagnostics go to stderr. Read-only. Runs until the client closes stdin or a signal arrives,
 * then closes the database (db-runtime.ts).
 */
import { parseArgs } from "@/cli/args";
import { type CliCommand, EXIT_OK } from "@/cli/command";
import { type DbRuntime, processDbRuntime, withDatabase } from "@/cli/commands/db-runtime";

export function makeMcpCommand(runtime: DbRuntime): CliCommand {
  return {
    name: "mcp",
    summary: "serve Arbor's sessions to an agent over MCP (stdio, read-only)",
    usage: ["mcp", "  Speaks the Model Context Protocol on stdin/stdout until stdin closes. See docs/mcp.md for agents' config lines."],
    async run(argv, io) {
      parseArgs(argv, { positionals: [], options: {} } as const);
      // Stdout is the protocol's: a note the embedded database server prints (console.log) goes to stderr.
      console.log = (...args: unknown[]) => console.error(...args);
      await withDatabase(runtime, async (db) => {
        const [{ createArborMcpServer }, { StdioServerTransport }] = await Promise.all([
          import("@/lib/mcp/server"),
          import("@modelcontextprotocol/sdk/server/stdio.js"),
        ]);
        const server = createArborMcpServer();
        const transport = new StdioServerTransport();
        const closed = new Promise<void>((resolve) => {
          transport.onclose = resolve;
          process.stdin.once("end", resolve);
          db.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        await server.connect(transport);
        io.err("arbor mcp: serving on stdio\n");
        await closed;
        await server.close();
      });
      return EXIT_OK;
    },
  };
}

export const mcpCommand = makeMcpCommand(processDbRuntime);
