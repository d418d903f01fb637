import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * e2e against the built app on its own port and database (e2e/server.ts).
 * Browser: Debian's Chromium at /usr/bin/chromium, which `npm run test:e2e` installs first when it is
 * missing (scripts/ensure-browser.mjs); ARBOR_CHROMIUM names another executable.
 */
import { E2E_PORTS } from "./e2e/ports";

const PORT = E2E_PORTS.app;
/** Debian's Chromium (scripts/ensure-browser.mjs installs it before the e2e run), or ARBOR_CHROMIUM. */
const debianChromium = process.env.ARBOR_CHROMIUM ?? "/usr/bin/chromium";

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
  // Every flow runs in the light and in the dark colour scheme (no console errors or
  // hydration warnings in either); e2e/test.ts fails a test on any console error. Dark leaves out
  // the specs whose subject the theme cannot change and that cost the most: the security specs
  // (request-level CSRF, Host and header checks, ~1.5 min) and light-page (bytes on the wire of a
  // generated 10,000-entry session, ~2 min); the dark session page itself is e2e/screens.spec.ts's.
  // Both projects share one database, so specs that import generate per-project sessions.
  projects: [
    { name: "light", use: { colorScheme: "light" } },
    {
      name: "dark",
      use: { colorScheme: "dark" },
      testIgnore: ["security.spec.ts", "security-auth.spec.ts", "light-page.spec.ts"],
    },
  ],
  webServer: {
    command: "npx tsx scripts/build-page-script.ts && npx next build && npx tsx --conditions=react-server e2e/server.ts",
    url: `http://127.0.0.1:${PORT}/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
  },
});
