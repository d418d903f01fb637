/**
 * The CLI command registry: command name → command. `main.ts` dispatches through it and builds
 * `help` from it. Extension point: another layer (the database layer's `import` and `export`)
 * adds its commands with `registerCommand` from a module imported below, and help picks them up.
 */
import type { CliCommand } from "@/cli/command";
import { contextCommand } from "@/cli/commands/context";
import { cutPointCommand } from "@/cli/commands/cut-point";
import { exportCommand } from "@/cli/commands/export";
import { factcheckCommand } from "@/cli/commands/factcheck";
import { hashPasswordCommand } from "@/cli/commands/hash-password";
import { importCommand } from "@/cli/commands/import";
import { mcpCommand } from "@/cli/commands/mcp";
import { planCommand } from "@/cli/commands/plan";
import { pruneCommand } from "@/cli/commands/prune";
import { syncCommand } from "@/cli/commands/sync";
import { treeCommand } from "@/cli/commands/tree";
import { usageCommand } from "@/cli/commands/usage";

export const commands = new Map<string, CliCommand>();

export function registerCommand(command: CliCommand): void {
  if (commands.has(command.name)) throw new Error(`CLI command "${command.name}" is registered twice`);
  commands.set(command.name, command);
}

for (const command of [contextCommand, cutPointCommand, planCommand, pruneCommand, treeCommand, factcheckCommand, importCommand, syncCommand, exportCommand, hashPasswordCommand, mcpCommand, usageCommand]) {
  registerCommand(command);
}
