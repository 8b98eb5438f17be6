/**
 * PostgreSQL's session advisory lock, as the session-end fault reaches it:
 * the lock is the session's, so ending the backend that holds it releases it
 * (behind PgBouncer too: the pooled server connection is that backend).
 */
export const PG_SESSION_LOCK = { server: 'pg-advisory' } as const;
