-- entries.data as text, not json.
--
-- Why: the json type checks its input, so every row an import streams in (lib/db/import/entry-load.ts)
-- was parsed a second time by the server: for the 30 MB session of bench/history.ts half of the
-- entries' COPY, ~0.4 s of the server's CPU (docs/benchmarks-history.md, IMP2). Every writer
-- already sends JSON it has proven: the import stores a line JSON.parse accepted (or
-- JSON.stringify of the entry), commit, fork and prune JSON.stringify (toPgJson) or render jsonb.
-- Reads are unchanged in cost: the read model selected data::text already, and the other readers
-- (lib/db/store/read.ts, prune.ts, export.ts) parse the text in Node, as the driver parsed json
-- before. The few statements that look inside an entry (prune) cast it (data::json).
--
-- The change rewrites every partition of entries once (text has no binary cast from json), and
-- keeps the column stored as sent (EXTERNAL: no pglz).

ALTER TABLE "entries" ALTER COLUMN "data" SET DATA TYPE TEXT, ALTER COLUMN "data" SET STORAGE EXTERNAL;
