import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "Arbor",
  description: "Browse, chat in and compact LLM agent sessions as trees.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen antialiased">
        <Providers>
          <header className="flex h-12 items-center gap-4 border-b border-line px-4">
            <Link href="/" className="font-semibold tracking-tight">
              Arbor
            </Link>
            <nav aria-label="Main" className="text-sm text-muted">
              <Link href="/" className="hover:underline">
                Sessions
              </Link>
              <Link href="/sync" className="ml-4 hover:underline">
                Sync folder
              </Link>
              <Link href="/usage" className="ml-4 hover:underline">
                Usage
              </Link>
              <Link href="/trash" className="ml-4 hover:underline">
                Trash
              </Link>
              <Link href="/settings" className="ml-4 hover:underline">
                Settings
              </Link>
            </nav>
            <SignOutButton />
          </header>
          <main className="mx-auto w-full">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
