import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl p-8">
      <h1 className="mb-2 text-xl font-semibold">Not found</h1>
      <p className="mb-4 text-muted">There is no such page or session. It may have been deleted.</p>
      <Link href="/" className="text-[var(--color-accent)] underline">
        Back to sessions
      </Link>
    </div>
  );
}
