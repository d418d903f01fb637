/**
 * Request bodies of the chat routes (conventions rule 5: the client sends only the newest
 * message; the server rebuilds the context from the store).
 *
 * `POST /api/chat`: `{ id: sessionId, message: SessionUIMessage (role "user"), model? }`. The
 * message's text parts are the prompt; image file parts (base64 `data:` URLs) are attached as
 * images. Other part types are refused, so nothing a client sends is silently dropped.
 * `POST /api/chat/stop`: `{ id: sessionId }`.
 */
import { z } from "zod";
import { notAnObject, sessionIdSchema } from "@/lib/id-schema";


/** The message for a value that is not an object at all; other issues keep zod's own. */

export const modelRefSchema = z
  .string({ error: 'expected a "provider/modelId" string' })
  .regex(/^[^/\s]+\/\S+$/, { error: 'expected a "provider/modelId" string' });

const textPartSchema = z.object({
  type: z.literal("text"),
  text: z.string({ error: "expected the text of the part" }),
  state: z.string().optional(),
  providerMetadata: z.unknown().optional(),
});

const filePartSchema = z.object({
  type: z.literal("file"),
  mediaType: z.string().regex(/^image\//, { error: "only images can be attached" }),
  url: z.string().startsWith("data:", { error: "attach images as data: URLs" }),
  filename: z.string().optional(),
  providerMetadata: z.unknown().optional(),
});

const partSchema = z.discriminatedUnion("type", [textPartSchema, filePartSchema], {
  error: "expected a text part or an image file part",
});

export const userMessageSchema = z.object(
  {
    id: z.string({ error: "expected the message id" }),
    role: z.literal("user", { error: 'expected a message with role "user"' }),
    parts: z.array(partSchema, { error: "expected the message parts" }).min(1, { error: "the message has no parts" }),
    metadata: z.unknown().optional(),
  },
  { error: notAnObject("expected the newest user message { id, role, parts }") },
);

export const chatBodySchema = z.object(
  {
    id: sessionIdSchema,
    message: userMessageSchema,
    model: modelRefSchema.optional(),
  },
  { error: notAnObject("expected a JSON object { id, message, model? }") },
);

export type ChatBody = z.infer<typeof chatBodySchema>;

export const stopBodySchema = z.object({ id: sessionIdSchema }, { error: notAnObject("expected a JSON object { id }") });
