/**
 * The HTML export's page script (session-engine.md §16): TypeScript, type-checked and linted with the app,
 * bundled by scripts/build-page-script.ts into one IIFE that render-session-html.ts inlines.
 * Vanilla DOM, no network: it reads the `#session-data` block and builds nodes with
 * `createElement`/`textContent` (tree.ts: the row list; path.ts: the path view).
 */
import { startTree } from "./tree";

startTree();
