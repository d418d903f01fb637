import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * e2e against the built app on its own port and database (e2e/server.ts).
 * Browser: Debian's Chromium at /usr/bin/chromium when present (CI installs it); elsewhere the
 * browser Playwright already has.
 */
import { E2E_PORTS } from "./e2e/ports";

const PORT = E2E_PORTS.app;
const debianChromium = "/usr/bin/chromium";

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: existsSync(debianChromium)
      ? {
          executablePath: debianChromium,
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
        }
      : {},
  },
  webServer: {
    command: "npx next build && npx tsx --conditions=react-server e2e/server.ts",
    url: `http://127.0.0.1:${PORT}/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
