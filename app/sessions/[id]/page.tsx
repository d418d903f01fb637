import { notFound } from "next/navigation";
import { getSession } from "@/lib/db/sessions";

export const dynamic = "force-dynamic";

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await getSession(id);
  if (!session) notFound();
  return (
    <div className="mx-auto max-w-4xl p-6">
      <h1 className="mb-4 text-2xl font-semibold">{session.title ?? "Untitled session"}</h1>
      {session.entryCount === 0 ? (
        <p className="text-muted">This session is empty. Send a message to start it.</p>
      ) : (
        <p className="text-muted">
          {session.entryCount} {session.entryCount === 1 ? "entry" : "entries"}
        </p>
      )}
    </div>
  );
}
