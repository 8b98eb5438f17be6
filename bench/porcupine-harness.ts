/**
 * buildPorcupineHarness: a Porcupine binary to run side by side with
 * fencecheck in the bench, built from a Porcupine checkout named by the
 * PORCUPINE_DIR environment variable (any version with the v1.3.0 test
 * helpers) with the Go toolchain on the PATH.
 *
 * Why it is generated and not committed: the harness must parse and model the
 * corpus exactly as Porcupine's own tests do, so it takes those declarations
 * (etcdModel, parseJepsenLog, kvModel, kvNoPartitionModel, cloneMap, parseKvLog
 * and their types) from the checkout's porcupine_test.go at build time; none of
 * Porcupine's code is kept in this repository. The build needs no network
 * (Porcupine has no dependencies): GOPROXY=off, the checkout via `replace`.
 *
 * The binary: `porcupine-harness etcd|kv|kv-nopart FILE...` prints one line
 * per file (`Ok|Illegal|Unknown<TAB>file<TAB>search seconds`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { projectRoot } from '../runtime/hosts/paths.js';
import { join } from 'node:path';

const DECLARATIONS = [
  'type etcdInput',
  'type etcdOutput',
  'var etcdModel',
  'func parseJepsenLog',
  'type kvInput',
  'type kvOutput',
  'var kvModel',
  'var kvNoPartitionModel',
  'func cloneMap',
  'func parseKvLog',
];

const MAIN = `package main

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"

	. "github.com/anishathalye/porcupine"
)

var _ = fnv.New64
var _ = sort.Strings

func main() {
	for _, f := range os.Args[2:] {
		var events []Event
		var model Model
		switch os.Args[1] {
		case "etcd":
			events, model = parseJepsenLog(f), etcdModel
		case "kv":
			events, model = parseKvLog(f), kvModel
		default:
			events, model = parseKvLog(f), kvNoPartitionModel
		}
		t := time.Now()
		res := CheckEventsTimeout(model, events, 120*time.Second)
		fmt.Printf("%s\\t%s\\t%.4f\\n", res, f, time.Since(t).Seconds())
	}
}
`;

export type HarnessOutcome = { binary: string; version: string } | { missing: string };

export function buildPorcupineHarness(env: NodeJS.ProcessEnv = process.env): HarnessOutcome {
  const dir = env['PORCUPINE_DIR'];
  if (!dir) return { missing: 'PORCUPINE_DIR is not set (a Porcupine checkout; Go on the PATH)' };
  const testFile = join(dir, 'porcupine_test.go');
  if (!existsSync(testFile)) return { missing: `${testFile} not found: PORCUPINE_DIR must be a Porcupine checkout` };
  let version: string;
  try {
    version = execFileSync('git', ['-C', dir, 'describe', '--tags', '--always'], { encoding: 'utf8' }).trim();
  } catch {
    version = 'unknown version';
  }
  const source = readFileSync(testFile, 'utf8');
  const parts: string[] = [];
  for (const decl of DECLARATIONS) {
    const text = topLevelDeclaration(source, decl);
    if (text === undefined) return { missing: `${testFile} has no \`${decl}\` (the harness needs Porcupine's v1.3.0 test helpers)` };
    parts.push(text);
  }
  // A build cache kept between bench runs: inside the project (node_modules/.cache, git-ignored), not in /tmp,
  // where it outlived every run and nothing removed it.
  const work = join(projectRoot(), 'node_modules', '.cache', 'fencecheck', `porcupine-harness-${version.replace(/[^\w.-]/g, '_')}`);
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'main.go'), MAIN + '\n' + parts.join('\n\n') + '\n');
  writeFileSync(
    join(work, 'go.mod'),
    `module porcupineharness\n\ngo 1.16\n\nrequire github.com/anishathalye/porcupine v1.3.0\n\nreplace github.com/anishathalye/porcupine => ${dir}\n`,
  );
  const binary = join(work, 'porcupine-harness');
  try {
    execFileSync('go', ['build', '-o', binary, '.'], {
      cwd: work,
      env: { ...env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOSUMDB: 'off', GOTOOLCHAIN: 'local' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    return {
      missing:
        e.code === 'ENOENT'
          ? 'go is not on the PATH'
          : `go build failed: ${String(e.stderr ?? err)
              .trim()
              .split('\n')
              .slice(0, 3)
              .join(' / ')}`,
    };
  }
  return { binary, version: `Porcupine ${version}` };
}

/** The text of a top-level Go declaration starting with `head`: up to the first line that is exactly `}` or `)`. */
function topLevelDeclaration(source: string, head: string): string | undefined {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => l.startsWith(head + ' ') || l.startsWith(head + '('));
  if (start === -1) return undefined;
  for (let i = start; i < lines.length; i++) {
    if (lines[i] === '}' || lines[i] === ')' || (i === start && lines[i]!.trimEnd().endsWith('}'))) return lines.slice(start, i + 1).join('\n');
  }
  return undefined;
}
