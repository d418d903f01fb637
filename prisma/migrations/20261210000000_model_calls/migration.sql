-- Context inspector: every model call, exactly as sent. Contents are content-addressed and shared
-- (model_call_contents); a call stores only the messages it appended to an earlier call's list
-- (model_call_messages), so storage grows with the session, not with its square.

-- CreateTable
CREATE TABLE "model_calls" (
    "id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "model_info" JSONB NOT NULL,
    "entry_id" TEXT,
    "system_hash" TEXT,
    "tools_hash" TEXT,
    "settings" JSONB NOT NULL,
    "base_call_id" TEXT,
    "base_keep" INTEGER NOT NULL DEFAULT 0,
    "chain_depth" INTEGER NOT NULL DEFAULT 0,
    "message_count" INTEGER NOT NULL,
    "response_hash" TEXT,
    "response_text" TEXT,
    "usage" JSONB,
    "stop_reason" TEXT NOT NULL,
    "error_message" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "prompt_tokens" INTEGER,

    CONSTRAINT "model_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "model_call_contents" (
    "hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "bytes" INTEGER NOT NULL,

    CONSTRAINT "model_call_contents_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "model_call_messages" (
    "call_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "model_call_messages_pkey" PRIMARY KEY ("call_id","position")
);

-- CreateIndex
CREATE UNIQUE INDEX "model_calls_session_id_seq_key" ON "model_calls"("session_id", "seq");

-- CreateIndex
CREATE INDEX "model_calls_session_id_entry_id_idx" ON "model_calls"("session_id", "entry_id");

-- CreateIndex
CREATE INDEX "model_calls_session_id_response_hash_idx" ON "model_calls"("session_id", "response_hash");

-- CreateIndex
CREATE INDEX "model_calls_base_call_id_idx" ON "model_calls"("base_call_id");

-- CreateIndex
CREATE INDEX "model_call_messages_hash_idx" ON "model_call_messages"("hash");

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_base_call_id_fkey" FOREIGN KEY ("base_call_id") REFERENCES "model_calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_system_hash_fkey" FOREIGN KEY ("system_hash") REFERENCES "model_call_contents"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_tools_hash_fkey" FOREIGN KEY ("tools_hash") REFERENCES "model_call_contents"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_calls" ADD CONSTRAINT "model_calls_response_hash_fkey" FOREIGN KEY ("response_hash") REFERENCES "model_call_contents"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_call_messages" ADD CONSTRAINT "model_call_messages_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "model_calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "model_call_messages" ADD CONSTRAINT "model_call_messages_hash_fkey" FOREIGN KEY ("hash") REFERENCES "model_call_contents"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;
