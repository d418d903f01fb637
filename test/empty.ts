// Stands in for `server-only` outside Next (vitest), where its default export would throw.
export {};
