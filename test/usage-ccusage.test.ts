/**
 * Arbor's usage figures against ccusage's on the same real Claude Code files (docs/usage.md
 * "Accuracy"): daily, monthly and per-session token totals equal to the token, costs within 1 %.
 * ccusage 18.0.11 (a devDependency: plain JavaScript, no network with --offline) reads a folder
 * whose `projects/` holds links to the fixture files; Arbor's CLI reads the same files. Both run
 * as child processes in a time zone far from UTC, so local days are what is compared.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./cli-helpers";
import { FIXTURES_DIR } from "./fixtures";

const CLAUDE = path.join(FIXTURES_DIR, "formats", "claude");
const present = existsSync(CLAUDE);
if (!present) console.warn(`Claude Code fixtures not found at ${CLAUDE} (set ARBOR_FIXTURES); skipping the ccusage comparison`);

const TZ = "Pacific/Auckland";
const home = mkdtempSync(path.join(tmpdir(), "arbor-ccusage-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env, TZ }, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${args.join(" ")}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

interface Group {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
  totalCost: number;
}

const TOKENS = ["inputTokens", "outputTokens", "cacheCreationTokens", "cacheReadTokens", "totalTokens"] as const;

function compare(ours: Record<string, Group>, theirs: Record<string, Group>) {
  expect(Object.keys(ours).sort()).toEqual(Object.keys(theirs).sort());
  for (const [key, t] of Object.entries(theirs)) {
    const o = ours[key]!;
    for (const k of TOKENS) expect(o[k], `${key} ${k}`).toBe(t[k]);
    expect(Math.abs(o.totalCost - t.totalCost), `${key} cost ${o.totalCost} vs ${t.totalCost}`).toBeLessThanOrEqual(t.totalCost * 0.01 + 1e-9);
  }
}

describe.skipIf(!present)("usage against ccusage on the real Claude Code files", () => {
  const projects = path.join(home, "projects", "fixtures");
  if (present) {
    mkdirSync(projects, { recursive: true });
    for (const name of readdirSync(CLAUDE)) symlinkSync(path.join(CLAUDE, name), path.join(projects, name));
  }
  const ccusage = path.join(PROJECT_ROOT, "node_modules", "ccusage", "dist", "index.js");
  const arbor = (period: string) => run(["--import", "tsx", "--conditions=react-server", "cli/main.ts", "usage", period, CLAUDE, "--json"], {});
  const theirs = (period: string) => run([ccusage, period, "--json", "--offline"], { CLAUDE_CONFIG_DIR: home });

  for (const [period, list, key] of [
    ["daily", "daily", "date"],
    ["monthly", "monthly", "month"],
  ] as const) {
    it(`${period}: the same tokens to the token, the cost within 1 %`, async () => {
      const [ours, cc] = await Promise.all([arbor(period), theirs(period)]);
      const index = (json: string) => Object.fromEntries((JSON.parse(json)[list] as (Group & Record<string, string>)[]).map((g) => [g[key], g]));
      const theirGroups = index(cc);
      expect(Object.keys(theirGroups).length).toBeGreaterThan(0);
      compare(index(ours), theirGroups);
      compare({ all: JSON.parse(ours).totals }, { all: JSON.parse(cc).totals });
    }, 120_000);
  }
});
