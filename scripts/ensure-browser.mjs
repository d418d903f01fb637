/**
 * Makes sure the e2e tests have a browser before Playwright starts (`npm run test:e2e` runs this
 * first, and `npm run bench -- --canvas` before its first section), so `npm install && npm test`
 * is the whole set-up on a fresh machine.
 * - Debian's Chromium at /usr/bin/chromium is used when it exists (playwright.config.ts).
 * - Missing and we are root: install it with apt-get (the only browser source these machines reach;
 *   Playwright's own download cannot work here).
 * - Missing and not root: fail with the one command to run.
 * ARBOR_CHROMIUM names another executable to check instead (also read by playwright.config.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const browser = process.env.ARBOR_CHROMIUM ?? "/usr/bin/chromium";
if (existsSync(browser)) process.exit(0);

const command = "apt-get update && apt-get install -y chromium";
if (process.getuid?.() !== 0) {
  console.error(`e2e: no browser at ${browser}. Install Debian's Chromium once, as root:\n  sudo sh -c '${command}'`);
  process.exit(1);
}

console.log(`e2e: no browser at ${browser}; installing Debian's chromium (${command})`);
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [["update", "-qq"], ["install", "-y", "-qq", "chromium"]]) {
  const run = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env });
  if (run.status !== 0) {
    console.error(`e2e: \`apt-get ${args.join(" ")}\` failed (exit ${run.status ?? run.signal}); install Chromium with: ${command}`);
    process.exit(1);
  }
}
if (!existsSync(browser)) {
  console.error(`e2e: chromium was installed but ${browser} does not exist; set ARBOR_CHROMIUM to its path`);
  process.exit(1);
}
console.log(`e2e: installed ${browser}`);
