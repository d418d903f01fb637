-- Full-text vectors stored as they are (EXTERNAL): no pglz attempt on each large one.
--
-- Why: pglz does not shrink a tsvector (the 30 MB session of bench/history.ts: 921 of its
-- 30,703 vectors are over 2 kB, and they take 11.9 MB either way), yet the server tried to
-- compress each of them as it stored it: 60 ms of the 450 ms its import's rows take to load
-- (docs/benchmarks-history.md, IMP2). Rows already stored keep their form; nothing is rewritten.

ALTER TABLE "entry_search" ALTER COLUMN "search" SET STORAGE EXTERNAL;
