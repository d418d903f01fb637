/**
 * The whole inline script of the HTML export, as one string. Its source is TypeScript in
 * lib/export-html/page/ (type-checked and linted with the app); scripts/build-page-script.ts
 * bundles it into generated/ at install, build, dev start and before the unit tests.
 */
export { PAGE_SCRIPT } from "@/generated/export-html/page-script";
