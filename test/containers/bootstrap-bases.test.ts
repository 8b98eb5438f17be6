import { describe, expect, it } from 'vitest';
import { debianMirror } from '../../runtime/cluster/containers/bootstrap-bases.js';

describe('debianMirror', () => {
  it('takes the URIs of the first deb822 stanza whose suites include bookworm', () => {
    const sources = `Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\nTypes: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\n`;
    expect(debianMirror([sources])).toBe('http://deb.debian.org/debian');
  });

  it('skips a stanza for other suites and a disabled one', () => {
    const nodesource = `Types: deb\nURIs: https://deb.nodesource.com/node_20.x\nSuites: nodistro\n`;
    const disabled = `Enabled: no\nTypes: deb\nURIs: http://old.example/debian\nSuites: bookworm\n`;
    const real = `Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\n`;
    expect(debianMirror([nodesource, disabled, real])).toBe('http://mirror.example/debian');
  });

  it('reads one-line sources too, options included', () => {
    expect(debianMirror(['deb [arch=amd64] http://ftp.example/debian bookworm main\n'])).toBe('http://ftp.example/debian');
  });

  it('says nothing when no source names bookworm', () => {
    expect(debianMirror(['deb http://ftp.example/debian bullseye main\n'])).toBeUndefined();
  });
});
