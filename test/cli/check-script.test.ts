/**
 * The bundle's check script (src/cli/check-script.ts): built with a code cache
 * that V8 takes, and run by `fencecheck check`. A build that stopped writing
 * the cache, or wrote one V8 rejects, would still check correctly, only slower:
 * nothing but this test would notice.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../runtime/hosts/paths.js';

const bundle = join(projectRoot(), 'dist', 'bundle', 'lib');

describe('the check script', () => {
  it("is in the bundle with a code cache that V8 takes (in a node process of a user's flags: none)", () => {
    // A child process: the test runner's own V8 flags would make V8 reject the cache.
    const script = `import(${JSON.stringify(join(projectRoot(), 'dist', 'src', 'cli', 'check-script.js'))}).then((m) => { const l = m.loadCheckScript(${JSON.stringify(bundle)}); process.stdout.write(String(l && l.cached)); })`;
    expect(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } })).toBe('true');
  });
});
