/**
 * Test helper: a Db that records every statement and answers from a queue
 * (rows, or an OpError to throw), so the resource's SQL and its outcome
 * mapping can be checked without PostgreSQL.
 */
import type { OpError } from '../../runtime/clients/op-error.js';
import type { Db, Row } from '../../runtime/clients/resource-modes.js';

export type Reply = { rows: Row[]; rowCount?: number } | OpError;

export class FakeDb implements Db {
  readonly statements: [string, unknown[]][] = [];
  constructor(private readonly replies: Reply[] = []) {}

  async query(text: string, values: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number }> {
    this.statements.push([text, [...values]]);
    const r = this.replies.shift() ?? { rows: [] };
    if (r instanceof Error) throw r;
    return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
  }
}
