/**
 * The e2e suite's `test` and `expect` (every spec imports them from "./test"): Playwright's, plus
 * an automatic console guard (no console errors or hydration warnings on any page).
 *
 * For every page of the test — the default context's, popups, and pages of contexts the test
 * makes with `browser.newContext()` — the guard records console errors, console warnings that
 * mention hydration or a Permissions-Policy header Chromium does not accept, and uncaught page
 * errors. At teardown the test fails if any was recorded that the test did not allow. Allowing
 * is explicit and narrow, for errors a test provokes on purpose (a refused request in the
 * security specs, a 404 it asks for):
 *   test.use({ allowedConsole: [/status of 403/] });            // a whole file
 *   consoleGuard.allow(/status of 404/);                        // one test, from here on
 *
 * Contexts made with `browser.newContext()` get the project's colour scheme unless the test
 * names one, so the dark project runs those pages dark too.
 */
import { type Browser, type BrowserContext, test as base, type ConsoleMessage, type Page } from "@playwright/test";

export { expect } from "@playwright/test";

export interface ConsoleGuard {
  /** Allows matching messages for the rest of this test. */
  allow(pattern: RegExp): void;
  /** What was recorded so far (allowed or not), as "kind: text (url)". */
  readonly messages: readonly string[];
}

interface GuardFixtures {
  /** Messages this file allows (test.use). */
  allowedConsole: RegExp[];
  consoleGuard: ConsoleGuard;
}

/** Warnings that fail a test too: hydration mismatches, and a header feature the browser rejects. */
const GUARDED_WARNING = /hydrat|Permissions-Policy/i;

function describeConsole(msg: ConsoleMessage): string | undefined {
  const type = msg.type();
  const text = msg.text();
  if (type !== "error" && !(type === "warning" && GUARDED_WARNING.test(text))) return undefined;
  const where = msg.location().url;
  return `console.${type}: ${text}${where ? ` (${where})` : ""}`;
}

export const test = base.extend<GuardFixtures>({
  allowedConsole: [[], { option: true }],
  consoleGuard: [
    async ({ context, browser, allowedConsole }, use, testInfo) => {
      const recorded: string[] = [];
      const allowed = [...allowedConsole];
      const watchPage = (page: Page) => {
        page.on("console", (msg) => {
          const line = describeConsole(msg);
          if (line) recorded.push(`${line} [on ${page.url()}]`);
        });
        page.on("pageerror", (err) => recorded.push(`pageerror: ${err.message} [on ${page.url()}]`));
      };
      const watchContext = (ctx: BrowserContext) => {
        for (const p of ctx.pages()) watchPage(p);
        ctx.on("page", watchPage);
      };
      watchContext(context);

      // Contexts the test makes itself: watched too, and dark in the dark project.
      const colorScheme = testInfo.project.use.colorScheme;
      const original = browser.newContext.bind(browser);
      const patched: Browser["newContext"] = async (options = {}) => {
        const ctx = await original({ ...(colorScheme !== undefined ? { colorScheme } : {}), ...options });
        watchContext(ctx);
        return ctx;
      };
      browser.newContext = patched;

      await use({
        allow: (pattern) => void allowed.push(pattern),
        get messages() {
          return recorded;
        },
      });

      browser.newContext = original;
      const unexpected = recorded.filter((line) => !allowed.some((re) => re.test(line)));
      if (unexpected.length > 0) {
        throw new Error(`The page logged ${unexpected.length} unexpected console error(s) or page error(s):\n${unexpected.map((l) => `  - ${l}`).join("\n")}`);
      }
    },
    { auto: true },
  ],
});
