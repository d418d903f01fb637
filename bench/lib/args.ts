/** Command-line options of the bench's own scripts. */

/** The value after `--name` on the command line, if any. */
export function argOf(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The generated history folder of bench/sync-ab.ts and bench/sync-profile.ts: `--files` sessions (200) in `--dir`. */
export function historyFolderArgs(): { files: number; dir: string } {
  return { files: Number(argOf("files") ?? 200), dir: argOf("dir") ?? "/tmp/arbor-sync-ab-36" };
}
