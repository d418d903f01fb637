/**
 * `export SESSION_ID [-o FILE] [--format jsonl|html]`: writes a session as a v3 JSONL file that
 * pi and oh-my-pi load (lib/db/store/export.ts; the header carries `arborLeafId` when the current
 * leaf is not the last entry, so `import` restores it), or with `--format html` as one
 * self-contained HTML page (lib/export-html: tree, filters, search, root → entry paths).
 *
 * Without `-o` the file goes to stdout. With `-o FILE` it is written to a temporary file next
 * to FILE and renamed when complete, so a failed export never leaves half a file; `-o DIR/`
 * (or an existing directory) writes `<timestamp>_<sessionId>.jsonl` (or `.html`) inside it. A confirmation
 * goes to stderr. An unknown session id exits 2.
 */
import { createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseNodeArgs } from "@/cli/args";
import { CliError, type CliCommand, EXIT_OK, UsageError } from "@/cli/command";
import { type DbRuntime, processDbRuntime, withDatabase } from "@/cli/commands/db-runtime";
import type { SessionExport } from "@/lib/db";
import { htmlExportFileName, renderSessionHtml } from "@/lib/export-html/render-session-html";

export const EXPORT_FORMATS = ["jsonl", "html"] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

function parse(argv: readonly string[]) {
  return parseNodeArgs(argv, { out: { type: "string", short: "o" }, format: { type: "string" } });
}

async function isDirectory(target: string): Promise<boolean> {
  return stat(target).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** What a file is written from: the JSONL export, or the rendered HTML as a single chunk. */
type ExportSource = Pick<SessionExport, "fileName" | "entryCount"> & { lines(): AsyncIterable<string> | Iterable<string> };

async function writeFileAtomically(exp: ExportSource, target: string): Promise<string> {
  const file = target.endsWith(path.sep) || (await isDirectory(target)) ? path.join(target, exp.fileName) : target;
  const temp = `${file}.${process.pid}.partial`;
  try {
    await pipeline(Readable.from(exp.lines()), createWriteStream(temp));
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`);
  }
  return file;
}

/** The session rendered as one HTML page (lib/export-html), shaped like a JSONL export. */
async function htmlExport(sessionId: string): Promise<ExportSource> {
  const { getSessionMeta, loadEntries } = await import("@/lib/db");
  const meta = await getSessionMeta({ id: sessionId });
  const entries = await loadEntries({ sessionId });
  const html = renderSessionHtml({ header: meta.header, entries, leafId: meta.leafId, title: meta.title ?? "Untitled session" });
  const timestamp = typeof meta.header.timestamp === "string" ? meta.header.timestamp : meta.createdAt;
  return { fileName: htmlExportFileName(timestamp, sessionId), entryCount: entries.length, lines: () => [html] };
}

export function makeExportCommand(runtime: DbRuntime = processDbRuntime): CliCommand {
  return {
    name: "export",
    summary: "export a session from the database as JSONL or HTML",
    usage: [
      "export SESSION_ID [-o FILE] [--format jsonl|html]",
      "  Writes the session as v3 JSONL (pi / oh-my-pi compatible) to FILE, or to stdout.",
      "  -o, --out FILE   output file (or directory: the file is named <timestamp>_<id>.jsonl or .html)",
      "  --format jsonl   the default",
      "  --format html    one self-contained HTML page (tree, filters, search, paths; no network)",
    ],
    async run(argv, io) {
      const { positionals, values } = parse(argv);
      if (positionals.length === 0) throw new UsageError("missing SESSION_ID");
      if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
      const sessionId = positionals[0]!;
      const format = (values.format ?? "jsonl") as ExportFormat;
      if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(", ")}; got "${values.format}"`);
      const { exportSession, NotFoundError } = await import("@/lib/db");
      return withDatabase(runtime, async () => {
        let exp: ExportSource;
        try {
          exp = format === "html" ? await htmlExport(sessionId) : await exportSession({ sessionId });
        } catch (error) {
          if (error instanceof NotFoundError) throw new CliError(`session ${sessionId} not found`);
          throw error;
        }
        if (values.out === undefined) {
          // Lines are grouped into ~64 KB writes.
          let chunk = "";
          for await (const line of exp.lines()) {
            chunk += line;
            if (chunk.length >= 64 * 1024) {
              io.out(chunk);
              chunk = "";
            }
          }
          if (chunk) io.out(chunk);
          return EXIT_OK;
        }
        const file = await writeFileAtomically(exp, values.out);
        io.err(`exported ${sessionId} → ${file} (${exp.entryCount} ${exp.entryCount === 1 ? "entry" : "entries"})\n`);
        return EXIT_OK;
      });
    },
  };
}

export const exportCommand = makeExportCommand();
