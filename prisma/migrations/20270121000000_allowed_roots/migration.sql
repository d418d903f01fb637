-- Folders the user allowed Arbor to sync from the web page (the first start's agent folders,
-- ticked: lib/sync/consent.ts). Together with ARBOR_ALLOWED_ROOTS they are the roots the
-- "Sync folder" page may sync inside. A row is the user's consent, remembered.

-- CreateTable
CREATE TABLE "allowed_roots" (
    "path" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "allowed_roots_pkey" PRIMARY KEY ("path")
);
