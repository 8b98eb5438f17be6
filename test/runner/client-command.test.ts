/**
 * The foreign client's command line, the modes a token kind can serve, and the
 * client-protocol and client-crashes verdicts merged into a run's result.
 */
import { describe, expect, it } from 'vitest';
import { verdict } from '../../core/checkers/lock/verdict.js';
import { UsageError } from '../../core/errors.js';
import { featureMissing, tokenKindExcludes } from '../../core/client-modes.js';
import { readyProblem } from '../../runtime/runner/client-session.js';
import { addClientVerdict, clientCrashVerdict } from '../../core/analyse/client-verdict.js';
import { parseClientCommand } from '../../runtime/runner/client-command-line.js';

describe('parseClientCommand', () => {
  it.each<[string, string[]]>([
    ['/usr/bin/python3 clients/python/redis_py_client.py', ['/usr/bin/python3', 'clients/python/redis_py_client.py']],
    ["  java -cp 'a b.jar:c.jar' Main  ", ['java', '-cp', 'a b.jar:c.jar', 'Main']],
    ['prog "say \\"hi\\"" x\\ y', ['prog', 'say "hi"', 'x y']],
    ["prog '' end", ['prog', '', 'end']],
  ])('%s', (text, argv) => {
    expect(parseClientCommand(text)).toEqual(argv);
  });

  it('unbalanced quotes and empty commands are usage errors', () => {
    expect(() => parseClientCommand("prog 'oops")).toThrow(UsageError);
    expect(() => parseClientCommand('   ')).toThrow('got an empty one');
  });
});

describe('tokenKindExcludes', () => {
  it('fences need monotonic tokens, cas modes any token, none fits all', () => {
    expect(tokenKindExcludes({ token: 'monotonic' }, 'fence-claim')).toBeUndefined();
    expect(tokenKindExcludes({ token: 'unique' }, 'cas-unique')).toBeUndefined();
    expect(tokenKindExcludes({ token: 'unique' }, 'fence')).toContain('needs a monotonic fencing token');
    expect(tokenKindExcludes({ token: 'none' }, 'cas-unique')).toContain('needs one');
    expect(tokenKindExcludes({ token: 'none' }, 'none')).toBeUndefined();
  });

  it('the own concurrency control of the database needs no token', () => {
    expect(tokenKindExcludes({ token: 'none' }, 'version')).toBeUndefined();
    expect(tokenKindExcludes({ token: 'none' }, 'for-update')).toBeUndefined();
    expect(tokenKindExcludes({ token: 'unique' }, 'for-update')).toBeUndefined();
  });
});

describe('featureMissing', () => {
  it('version and for-update need a client that announces transactions; other modes do not', () => {
    expect(featureMissing({ token: 'none' }, 'for-update')).toMatch(/does not announce the feature `transactions`.*for-update needs it/);
    expect(featureMissing({ token: 'none', features: [] }, 'version')).toMatch(/version needs it/);
    expect(featureMissing({ token: 'none', features: ['transactions'] }, 'for-update')).toBeUndefined();
    expect(featureMissing({ token: 'monotonic' }, 'fence')).toBeUndefined();
  });

  it('a ready line whose features are not a list of names is a protocol problem', () => {
    const ready = { ready: true as const, protocol: 1, token: 'monotonic' as const, versions: {} };
    expect(readyProblem(ready)).toBeUndefined();
    expect(readyProblem({ ...ready, features: ['transactions'] })).toBeUndefined();
    expect(readyProblem({ ...ready, features: 'transactions' as never })).toMatch(/expected a list of names/);
  });
});

describe('addClientVerdict', () => {
  const base = { valid: true as const, verdicts: [verdict('lost-updates', true, 'fine', [])], deciding: ['lost-updates'] };
  it('no violation: the result as it was', () => {
    expect(addClientVerdict(base, undefined)).toBe(base);
  });
  it('a violation turns a valid run unknown; an invalid one stays invalid', () => {
    const v = verdict('client-protocol', 'unknown', '1 protocol violation(s)', []);
    expect(addClientVerdict(base, v)).toMatchObject({ valid: 'unknown', deciding: ['lost-updates', 'client-protocol'] });
    const invalid = { ...base, valid: false as const, verdicts: [verdict('lost-updates', false, 'lost', [])] };
    expect(addClientVerdict(invalid, v).valid).toBe(false);
  });
});

describe('clientCrashVerdict', () => {
  const base = { valid: true as const, verdicts: [verdict('lost-updates', true, 'fine', [])], deciding: ['lost-updates'] };
  const crash = { client: 'client1-4', exit: 'signal SIGSEGV', stderrTail: ['a', 'b', 'c', 'd'] };
  it('no crash: no verdict', () => {
    expect(clientCrashVerdict([])).toBeUndefined();
  });
  it('a crash makes a valid run unknown, naming the first and its stderr; an invalid run stays invalid', () => {
    const v = clientCrashVerdict([crash, { ...crash, client: 'client2-5' }])!;
    expect(v).toMatchObject({
      checker: 'client-crashes',
      valid: 'unknown',
      summary: '2 client process(es) died without being asked; first: client1-4 (signal SIGSEGV); its stderr ended: b | c | d',
    });
    expect(addClientVerdict(base, undefined, v)).toMatchObject({ valid: 'unknown', deciding: ['lost-updates', 'client-crashes'] });
    const invalid = { ...base, valid: false as const, verdicts: [verdict('lost-updates', false, 'lost', [])] };
    expect(addClientVerdict(invalid, undefined, v).valid).toBe(false);
  });
});
