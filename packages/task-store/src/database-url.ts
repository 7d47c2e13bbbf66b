/**
 * @module database-url
 * `DATABASE_URL` helpers that load no driver, so `env.ts` can use them at start-up for free:
 * which schemes mean Postgres, the URL with its password hidden for logs and errors, and the
 * error a failed migration stops start-up with.
 */

/** The schemes `pg` accepts for a connection string. */
export const POSTGRES_PROTOCOL = /^postgres(ql)?$/;

/** `DATABASE_URL` with its password replaced, for logs and start-up errors. */
export function redactDatabaseUrl(url: string): string {
  // Without a `scheme://host` there is no telling where a password would be: show none of it.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed?.host) return '(an unparseable URL)';
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** The Postgres schema could not be brought up to date; the message names DATABASE_URL, redacted. */
export class StoreMigrationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreMigrationError';
  }
}
