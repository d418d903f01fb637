/**
 * Limits of the session file routes (app/api/sessions/[id]/files), shared with the Files panel
 * so it can refuse an oversized file before sending it. Pure constants, safe in the browser.
 */

/** Largest upload accepted by `POST /api/sessions/[id]/files` (bytes). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Most workspace entries `GET /api/sessions/[id]/files` lists (breadth-first, then cut). */
export const MAX_LISTED_ENTRIES = 2000;
