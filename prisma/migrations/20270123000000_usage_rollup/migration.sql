-- The usage ledger at scale (docs/usage.md "The ledger in the database"):
--
-- 1. Counted once, race-free: a partial unique index on dedupe_key WHERE counted. The ledger's
--    insert puts a key's first row in with counted = true and ON CONFLICT DO NOTHING, then the rows
--    it dropped with counted = false (lib/db/usage/ledger-write.ts), so two imports of the same file
--    at once count each response once: the second waits for the first's row and then yields.
--    Rows that an earlier race counted twice keep only their first (by time, session, entry).
--
-- 2. Pre-aggregation for the Usage page and the session list, kept by statement-level triggers
--    on usage_rows (one statement per ledger write, whatever its row count):
--    - usage_rollup: counted sums per session, 15-minute UTC bucket and model. Every time zone in
--      use today is a whole number of quarter hours off UTC, so a local day, week or month is a
--      union of buckets: the page's sums are exact in any zone, over ~1 row per session-quarter-hour
--      instead of one per model call.
--    - usage_daily: the same sums per local day (in the zone usage_zone names, the server's; the
--      app re-zones it from usage_rollup when the server's zone differs, lib/db/usage/ledger-series.ts)
--      and group, once per way the page stacks them ("model", "project", "agent"): the page over a
--      year reads ~days × models rows (or projects, or agents), however many sessions there are.
--      Its keys hold the session's project and agent, so a deleted session's sums leave it while
--      the session row can still be read (trigger on sessions below).
--    - sessions.cost_micros: the session's counted cost, so the list can sort by cost with keyset
--      paging on (cost_micros, id).
--
-- 3. The user's prices (price_overrides, in integer millionths of a dollar per million tokens).
--    A row's catalogue price is kept (catalogue_cost_micros) so removing an override restores it
--    without the catalogue (a JavaScript package) in SQL. Recorded costs always win.

UPDATE "usage_rows" u SET "counted" = false FROM (
  SELECT "session_id", "entry_id", row_number() OVER (PARTITION BY "dedupe_key" ORDER BY "at", "session_id", "entry_id") AS n
  FROM "usage_rows" WHERE "counted"
) d
WHERE d.n > 1 AND u."session_id" = d."session_id" AND u."entry_id" = d."entry_id";

CREATE UNIQUE INDEX "usage_rows_counted_key" ON "usage_rows"("dedupe_key") WHERE "counted";

ALTER TABLE "usage_rows" ADD COLUMN "catalogue_cost_micros" BIGINT;
UPDATE "usage_rows" SET "catalogue_cost_micros" = "cost_micros" WHERE "price_source" = 'catalogue';

-- CreateTable
CREATE TABLE "price_overrides" (
    "model" TEXT NOT NULL,
    "input" BIGINT NOT NULL,
    "output" BIGINT NOT NULL,
    "cache_read" BIGINT,
    "cache_write" BIGINT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "price_overrides_pkey" PRIMARY KEY ("model")
);

-- A row's cost under the user's prices (millionths of a dollar per million tokens): each token
-- kind rounded half up on its own, as lib/usage/prices.ts does. Cache reads and writes without a
-- price of their own cost the input price.
CREATE FUNCTION "arbor_override_cost"(input bigint, output bigint, cache_read bigint, cache_write bigint, o "price_overrides")
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT (input * o.input + 500000) / 1000000 + (output * o.output + 500000) / 1000000
    + (cache_read * COALESCE(o.cache_read, o.input) + 500000) / 1000000
    + (cache_write * COALESCE(o.cache_write, o.input) + 500000) / 1000000
$$;

ALTER TABLE "sessions" ADD COLUMN "cost_micros" BIGINT NOT NULL DEFAULT 0;
UPDATE "sessions" s SET "cost_micros" = t.cost
FROM (SELECT "session_id", sum("cost_micros") AS cost FROM "usage_rows" WHERE "counted" AND "cost_micros" IS NOT NULL GROUP BY 1) t
WHERE s."id" = t."session_id";

-- CreateIndex
CREATE INDEX "sessions_deleted_at_cost_micros_id_idx" ON "sessions"("deleted_at", "cost_micros" DESC, "id" DESC);

-- CreateTable
CREATE TABLE "usage_rollup" (
    "session_id" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "model" TEXT NOT NULL,
    "cost_micros" BIGINT NOT NULL DEFAULT 0,
    "unpriced_tokens" BIGINT NOT NULL DEFAULT 0,
    "input" BIGINT NOT NULL DEFAULT 0,
    "output" BIGINT NOT NULL DEFAULT 0,
    "cache_read" BIGINT NOT NULL DEFAULT 0,
    "cache_write" BIGINT NOT NULL DEFAULT 0,
    "calls" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_rollup_pkey" PRIMARY KEY ("session_id","bucket","model")
);

-- CreateIndex
CREATE INDEX "usage_rollup_bucket_idx" ON "usage_rollup"("bucket");

-- AddForeignKey
ALTER TABLE "usage_rollup" ADD CONSTRAINT "usage_rollup_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "usage_daily" (
    "stack" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "grp" TEXT NOT NULL,
    "cost_micros" BIGINT NOT NULL DEFAULT 0,
    "unpriced_tokens" BIGINT NOT NULL DEFAULT 0,
    "input" BIGINT NOT NULL DEFAULT 0,
    "output" BIGINT NOT NULL DEFAULT 0,
    "cache_read" BIGINT NOT NULL DEFAULT 0,
    "cache_write" BIGINT NOT NULL DEFAULT 0,
    "calls" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_daily_pkey" PRIMARY KEY ("stack","day","grp")
);

-- CreateTable
CREATE TABLE "usage_zone" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "time_zone" TEXT NOT NULL,

    CONSTRAINT "usage_zone_pkey" PRIMARY KEY ("id")
);
INSERT INTO "usage_zone" ("id", "time_zone") VALUES (1, 'UTC');

-- A session's project and agent as the Usage page groups them.
CREATE FUNCTION "arbor_usage_project"(cwd text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(NULLIF(cwd, ''), '(no project)')
$$;
CREATE FUNCTION "arbor_usage_agent"(header jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(header ->> 'sourceFormat', 'pi')
$$;

-- The groups a row's sums go to in usage_daily: its model, its session's project, its session's agent.
CREATE FUNCTION "arbor_usage_groups"(model text, cwd text, header jsonb) RETURNS TABLE (stack text, grp text)
LANGUAGE sql IMMUTABLE AS $$
  VALUES ('model', model), ('project', arbor_usage_project(cwd)), ('agent', arbor_usage_agent(header))
$$;

CREATE FUNCTION "arbor_usage_bucket"(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', at, TIMESTAMPTZ '2000-01-01 00:00:00+00')
$$;

-- The signed counted sums of the statement's ledger rows (new rows +1, old rows -1) per rollup key,
-- added to usage_rollup and sessions.cost_micros. An insert creates its keys' rollup rows (also for
-- uncounted rows), so an update or delete, whose rows were inserted before, only updates: a delete
-- cascading from its session must not re-create rows the cascade removes.
CREATE FUNCTION "arbor_usage_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT n.*, 1 AS sign FROM new_rows n'
    WHEN 'DELETE' THEN 'SELECT o.*, -1 AS sign FROM old_rows o'
    ELSE 'SELECT n.*, 1 AS sign FROM new_rows n UNION ALL SELECT o.*, -1 AS sign FROM old_rows o' END;
  sums text := format($q$
    WITH g AS (
      SELECT d.session_id, arbor_usage_bucket(d.at) AS bucket, d.model,
        COALESCE(sum(d.sign * COALESCE(d.cost_micros, 0)) FILTER (WHERE d.counted), 0) AS cost,
        COALESCE(sum(d.sign * (d.input + d.output + d.cache_read + d.cache_write)) FILTER (WHERE d.counted AND d.cost_micros IS NULL), 0) AS unpriced,
        COALESCE(sum(d.sign * d.input) FILTER (WHERE d.counted), 0) AS input,
        COALESCE(sum(d.sign * d.output) FILTER (WHERE d.counted), 0) AS output,
        COALESCE(sum(d.sign * d.cache_read) FILTER (WHERE d.counted), 0) AS cache_read,
        COALESCE(sum(d.sign * d.cache_write) FILTER (WHERE d.counted), 0) AS cache_write,
        COALESCE(sum(d.sign) FILTER (WHERE d.counted), 0) AS calls
      FROM (%s) d GROUP BY 1, 2, 3
    ), sc AS (
      UPDATE sessions s SET cost_micros = s.cost_micros + x.cost
      FROM (SELECT g.session_id, sum(g.cost) AS cost FROM g GROUP BY 1) x
      WHERE s.id = x.session_id AND x.cost <> 0
    ), dy AS (
      INSERT INTO usage_daily AS r (stack, day, grp, cost_micros, unpriced_tokens, input, output, cache_read, cache_write, calls)
      SELECT k.stack, (g.bucket AT TIME ZONE z.time_zone)::date, k.grp,
        sum(g.cost), sum(g.unpriced), sum(g.input), sum(g.output), sum(g.cache_read), sum(g.cache_write), sum(g.calls)
      FROM g JOIN sessions s ON s.id = g.session_id CROSS JOIN usage_zone z
        CROSS JOIN LATERAL arbor_usage_groups(g.model, s.cwd, s.header) k
      WHERE g.calls <> 0 OR g.cost <> 0 OR g.unpriced <> 0 OR g.input <> 0 OR g.output <> 0 OR g.cache_read <> 0 OR g.cache_write <> 0
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (stack, day, grp) DO UPDATE SET cost_micros = r.cost_micros + excluded.cost_micros,
        unpriced_tokens = r.unpriced_tokens + excluded.unpriced_tokens, input = r.input + excluded.input,
        output = r.output + excluded.output, cache_read = r.cache_read + excluded.cache_read,
        cache_write = r.cache_write + excluded.cache_write, calls = r.calls + excluded.calls
    ) $q$, src);
BEGIN
  -- A commit without model calls (a user message) still runs its INSERT: nothing to add.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP = 'INSERT' THEN
    EXECUTE sums || $q$
      INSERT INTO usage_rollup AS r (session_id, bucket, model, cost_micros, unpriced_tokens, input, output, cache_read, cache_write, calls)
      SELECT g.session_id, g.bucket, g.model, g.cost, g.unpriced, g.input, g.output, g.cache_read, g.cache_write, g.calls
      FROM g ORDER BY 1, 2, 3
      ON CONFLICT (session_id, bucket, model) DO UPDATE SET cost_micros = r.cost_micros + excluded.cost_micros,
        unpriced_tokens = r.unpriced_tokens + excluded.unpriced_tokens, input = r.input + excluded.input,
        output = r.output + excluded.output, cache_read = r.cache_read + excluded.cache_read,
        cache_write = r.cache_write + excluded.cache_write, calls = r.calls + excluded.calls $q$;
  ELSE
    EXECUTE sums || $q$
      UPDATE usage_rollup r SET cost_micros = r.cost_micros + g.cost, unpriced_tokens = r.unpriced_tokens + g.unpriced,
        input = r.input + g.input, output = r.output + g.output, cache_read = r.cache_read + g.cache_read,
        cache_write = r.cache_write + g.cache_write, calls = r.calls + g.calls
      FROM g WHERE r.session_id = g.session_id AND r.bucket = g.bucket AND r.model = g.model
        AND (g.cost <> 0 OR g.unpriced <> 0 OR g.calls <> 0 OR g.input <> 0 OR g.output <> 0 OR g.cache_read <> 0 OR g.cache_write <> 0) $q$;
  END IF;
  RETURN NULL;
END $fn$;

-- A deleted session's counted sums leave usage_daily while its project and agent can still be
-- read (the keys; the ledger rows' own delete, by the cascade, no longer finds the session).
CREATE FUNCTION "arbor_sessions_drop_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily AS d (stack, day, grp, cost_micros, unpriced_tokens, input, output, cache_read, cache_write, calls)
  SELECT k.stack, (r.bucket AT TIME ZONE z.time_zone)::date, k.grp,
    -sum(r.cost_micros), -sum(r.unpriced_tokens), -sum(r.input), -sum(r.output), -sum(r.cache_read), -sum(r.cache_write), -sum(r.calls)
  FROM usage_rollup r CROSS JOIN usage_zone z CROSS JOIN LATERAL arbor_usage_groups(r.model, OLD.cwd, OLD.header) k
  WHERE r.session_id = OLD.id AND r.calls <> 0
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (stack, day, grp) DO UPDATE SET cost_micros = d.cost_micros + excluded.cost_micros,
    unpriced_tokens = d.unpriced_tokens + excluded.unpriced_tokens, input = d.input + excluded.input,
    output = d.output + excluded.output, cache_read = d.cache_read + excluded.cache_read,
    cache_write = d.cache_write + excluded.cache_write, calls = d.calls + excluded.calls;
  RETURN OLD;
END $$;
CREATE TRIGGER "sessions_drop_usage" BEFORE DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "arbor_sessions_drop_usage"();

CREATE TRIGGER "usage_rows_inserted" AFTER INSERT ON "usage_rows" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "arbor_usage_rows_changed"();
CREATE TRIGGER "usage_rows_updated" AFTER UPDATE ON "usage_rows" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "arbor_usage_rows_changed"();
CREATE TRIGGER "usage_rows_deleted" AFTER DELETE ON "usage_rows" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "arbor_usage_rows_changed"();

-- The rollup of the rows already stored.
INSERT INTO "usage_rollup" (session_id, bucket, model, cost_micros, unpriced_tokens, input, output, cache_read, cache_write, calls)
SELECT session_id, arbor_usage_bucket(at), model,
  COALESCE(sum(cost_micros) FILTER (WHERE counted), 0),
  COALESCE(sum(input + output + cache_read + cache_write) FILTER (WHERE counted AND cost_micros IS NULL), 0),
  COALESCE(sum(input) FILTER (WHERE counted), 0), COALESCE(sum(output) FILTER (WHERE counted), 0),
  COALESCE(sum(cache_read) FILTER (WHERE counted), 0), COALESCE(sum(cache_write) FILTER (WHERE counted), 0),
  count(*) FILTER (WHERE counted)
FROM "usage_rows" GROUP BY 1, 2, 3;

INSERT INTO "usage_daily" (stack, day, grp, cost_micros, unpriced_tokens, input, output, cache_read, cache_write, calls)
SELECT k.stack, (r.bucket AT TIME ZONE 'UTC')::date, k.grp,
  sum(r.cost_micros), sum(r.unpriced_tokens), sum(r.input), sum(r.output), sum(r.cache_read), sum(r.cache_write), sum(r.calls)
FROM "usage_rollup" r JOIN "sessions" s ON s.id = r.session_id CROSS JOIN LATERAL arbor_usage_groups(r.model, s.cwd, s.header) k
WHERE r.calls > 0 GROUP BY 1, 2, 3;
