/**
 * `hash-password`: reads a password from stdin and prints its scrypt hash in the
 * ARBOR_PASSWORD_HASH format (`scrypt$N$r$p$salt$hash`, lib/auth/password.ts), e.g.
 *   printf %s 'my password' | npm run -s cli -- hash-password
 * One trailing newline (from `echo` or a typed line) is not part of the password; anything
 * else, spaces included, is. An empty password exits 2.
 */
import { CliError, type CliCommand, EXIT_OK, UsageError } from "@/cli/command";
import { formatPasswordHash, hashPassword } from "@/lib/auth/password";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function createHashPasswordCommand(read: () => Promise<string> = readStdin): CliCommand {
  return {
    name: "hash-password",
    summary: "print the ARBOR_PASSWORD_HASH of a password read from stdin",
    usage: ["hash-password < password.txt", "Reads the password from stdin (one trailing newline ignored) and prints scrypt$N$r$p$salt$hash."],
    async run(argv, io) {
      if (argv.length > 0) throw new UsageError(`hash-password takes no arguments (got ${argv[0]}); pipe the password to stdin`);
      const password = (await read()).replace(/\r?\n$/, "");
      if (password === "") throw new CliError("no password on stdin (e.g. printf %s 'my password' | npm run -s cli -- hash-password)");
      if (password.length > 1000) throw new CliError("the password is too long (at most 1000 characters, as at sign-in)");
      io.out(`${formatPasswordHash(await hashPassword(password))}\n`);
      return EXIT_OK;
    },
  };
}

export const hashPasswordCommand = createHashPasswordCommand();
