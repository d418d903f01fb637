/**
 * CLI for the fake OpenAI-compatible server, for e2e runs in a separate process:
 *
 *   tsx test/fake-llm-cli.ts [--port 4010] [--host 127.0.0.1] [--script steps.json] [--models a,b]
 *
 * The script file is a JSON array of steps (answered in order) or `{ "steps": [...], "default": step }`.
 * Without one, the built-in echo responder answers everything. Once listening it prints
 * `fake-llm listening on <base url>` to stdout (wait for that line). SIGINT/SIGTERM stop it.
 * All the logic is in fake-llm-server.ts; this file only parses arguments.
 */
import { readFileSync } from "node:fs";
import { type FakeStep, startFakeLlmServer } from "./fake-llm-server";
import { errorText } from "@/lib/text/error-text";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

type ScriptFile = FakeStep[] | { steps?: FakeStep[]; default?: FakeStep };

async function main(): Promise<void> {
  const server = await startFakeLlmServer({
    port: Number(arg("port") ?? 0),
    host: arg("host"),
    models: arg("models")?.split(",").map((s) => s.trim()).filter(Boolean),
  });
  const scriptPath = arg("script");
  if (scriptPath) {
    const file = JSON.parse(readFileSync(scriptPath, "utf8")) as ScriptFile;
    if (Array.isArray(file)) server.script(file);
    else {
      if (file.steps) server.script(file.steps);
      if (file.default) server.setDefault(file.default);
    }
  }
  process.stdout.write(`fake-llm listening on ${server.url}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`fake-llm failed: ${errorText(err)}\n`);
  process.exit(1);
});
