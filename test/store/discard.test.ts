/** A refused run leaves nothing: discard removes its directory and points `latest` back where it was. */
import { existsSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStore } from '../../runtime/store/run-store.js';
import { madeTempDir } from '../support/temp-dirs.js';

describe('RunStore.discard', () => {
  it('removes the directory and restores the previous latest', () => {
    const results = madeTempDir('fencecheck-store-');
    const first = RunStore.create(results, 't', new Date('2026-11-30T10:00:00Z'));
    const refused = RunStore.create(results, 't', new Date('2026-11-30T10:00:05Z'));
    expect(readlinkSync(join(results, 't', 'latest'))).toBe('20261130T100005');
    refused.discard();
    expect(existsSync(refused.dir)).toBe(false);
    expect(readlinkSync(join(results, 't', 'latest'))).toBe('20261130T100000');
    first.discard();
    expect(existsSync(join(results, 't', 'latest'))).toBe(false);
  });
});
