-- Credentials found in session entries (lib/secrets, docs/secrets.md): one row per finding, with
-- where it is (the entry, its file-order seq, the JSON Pointer of the string and the offsets in
-- it), which rule found it, a human name, and its MASKED form. The value itself is never stored
-- here: only the entry holds it. Rows are written in the same transaction (or statement) as the
-- entries they describe — import, commit, fork — and go with their session.
-- Key: (session, seq, ordinal), so a session's findings are read in file order and counted from
-- the key's index.

-- CreateTable
CREATE TABLE "secret_findings" (
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "entry_id" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "start_offset" INTEGER NOT NULL,
    "end_offset" INTEGER NOT NULL,
    "rule" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "masked" TEXT NOT NULL,

    CONSTRAINT "secret_findings_pkey" PRIMARY KEY ("session_id","seq","ordinal")
);

-- AddForeignKey
ALTER TABLE "secret_findings" ADD CONSTRAINT "secret_findings_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
