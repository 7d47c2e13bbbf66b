/**
 * @module env
 * The only place test-infra reads the environment: whether this is CI (never skip), and where
 * PostgreSQL's and HAProxy's binaries are when they are not where Debian puts them.
 */

export const testInfraEnv = {
  /** CI installs the system packages, so a missing binary there is a failure, not a skip. */
  ci: process.env.CI === 'true',
  /** A folder holding initdb and pg_ctl, e.g. /usr/lib/postgresql/16/bin. */
  pgBin: process.env.PG_BIN,
  /** The haproxy binary, when it is not on PATH. */
  haproxyBin: process.env.HAPROXY_BIN,
  path: process.env.PATH ?? '',
};
