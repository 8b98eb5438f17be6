/**
 * Run after each integration file, in its worker: what the product removes
 * when its process ends (runtime/hosts/process-end.ts: PostgreSQL's initdb
 * template, under /dev/shm). A vitest worker is ended without an `exit`
 * event, so without this every file that starts a cluster in-process left
 * its template behind (seen: one 40 MB folder a file).
 */
import { afterAll } from 'vitest';
import { runProcessEndCleanups } from '../../runtime/hosts/process-end.js';

afterAll(() => runProcessEndCleanups());
