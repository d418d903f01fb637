/** The sign-in e2e app (e2e/auth-app.ts): E2E base + 5, next to the ports of e2e/ports.ts. */
import { E2E_PORTS } from "./ports";

export const AUTH_APP_PORT = E2E_PORTS.app + 5;
export const AUTH_APP_PASSWORD = "e2e correct horse";
