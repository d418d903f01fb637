"use client";
/** Client-side providers: one TanStack QueryClient per tab, and the "?" shortcuts list. */
import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ShortcutsOverlay } from "@/components/shortcuts-overlay";
import { getQueryClient } from "@/lib/query/client";

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={getQueryClient()}>
      {children}
      <ShortcutsOverlay />
    </QueryClientProvider>
  );
}
