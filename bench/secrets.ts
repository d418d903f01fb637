/**
 * The secret scan of an import's stream (lib/secrets, docs/secrets.md): what the import adds to
 * each line — the pre-filter on the line as read and, for a line it lets through, the scan of the
 * parsed entry — timed over the same lines in memory (median of 3 passes), against the median
 * import of the same file measured in the same run (and read + parse of it, in the note).
 * Target: at most ~10 % of the import.
 * The second row plants a FAKE credential (test/secret-fakes.ts) in 1 % of the lines, so the
 * scanner itself runs on them, not only the pre-filter.
 */
import { mayHoldSecret, scanEntry } from "@/lib/secrets";
import type { SessionEntry } from "@/lib/session/types";
import { fakeSecrets } from "@/test/secret-fakes";
import type { BenchSession } from "./lib/sessions";
import { label } from "./lib/sessions";
import { addRow, formatMs, formatRatio, MB, median } from "./lib/stats";

interface Pass {
  ms: number;
  candidates: number;
  findings: number;
}

async function scanPass(lines: readonly string[]): Promise<Pass> {
  let candidates = 0;
  let findings = 0;
  const t = performance.now();
  for (const text of lines) {
    if (!mayHoldSecret(text)) continue;
    candidates++;
    findings += (await scanEntry(JSON.parse(text) as SessionEntry)).length;
  }
  return { ms: performance.now() - t, candidates, findings };
}

async function medianPass(lines: readonly string[]): Promise<Pass> {
  await scanPass(lines.slice(0, 1000)); // warm-up: secretlint's first call loads its rules
  const passes: Pass[] = [];
  for (let i = 0; i < 3; i++) passes.push(await scanPass(lines));
  return { ...passes[0]!, ms: median(passes.map((p) => p.ms)) };
}

/** Every 100th line with a fake credential in an extra top-level field (the scanner walks every string). */
function planted(lines: readonly string[]): string[] {
  const fakes = fakeSecrets(7);
  return lines.map((line, i) => {
    if (i % 100 !== 0) return line;
    const entry = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify({ ...entry, note: `config: ${fakes[(i / 100) % fakes.length]!.text}` });
  });
}

/**
 * `parseMs`: read + JSON.parse of the same file in this run, a second baseline that moves less with
 * the machine's load than the import (which shares it with the database server).
 */
export async function secretScanRows(s: BenchSession, importMs: number, parseMs: number, importNote: string): Promise<void> {
  const mb = s.bytes / MB;
  for (const [name, lines] of [
    ["secret scan of the import's input", s.lines],
    ["the same, a fake credential in 1 % of the lines", planted(s.lines)],
  ] as const) {
    const pass = await medianPass(lines);
    addRow({
      section: "import",
      name,
      n: label(s.n),
      value: `${formatMs(pass.ms)}: ${(mb / (pass.ms / 1000)).toFixed(0)} MB/s`,
      baseline: `importSession ${formatMs(importMs)}`,
      ratio: pass.ms / importMs,
      note: `target ≤ 0.10×; ${formatRatio(pass.ms / parseMs)} read + JSON.parse (${formatMs(parseMs)}); ${pass.candidates.toLocaleString("en")} lines past the pre-filter, ${pass.findings.toLocaleString("en")} secrets; import: ${importNote}`,
    });
  }
}
