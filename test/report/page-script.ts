/**
 * Loads page scripts (src/report/page/*.js) into a fresh V8 context, so their
 * pure parts (decoding, formatting) can be tested without a browser. They are
 * plain scripts sharing one scope, as in the page.
 */
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';

export function loadPageScripts<T>(files: string[], exports: string[]): T {
  const code = files.map((f) => readFileSync(new URL(`../../src/report/page/${f}`, import.meta.url), 'utf8')).join('\n');
  return runInNewContext(`${code}\n;({ ${exports.join(', ')} })`, {}) as T;
}
