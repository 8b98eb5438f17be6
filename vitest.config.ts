import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { MAX_SLOTS } from './core/cluster/slots.js';

/**
 * The integration files that must run alone, one at a time after every other file: they end every slot's cluster
 * (`down`, a reclaim of every slot), hold fixed slots of their own (the queue files: up to slots 1-7), let the CLI
 * choose free slots (hunt, shrink: two lanes each), run Docker's provider (slot 0 only), or write a slot's names
 * out (partition: `fc-redlock1`, 10.77.0.100). Every other integration file runs in the slot of its vitest worker
 * (test/integration/test-slot.ts), two at once beside the unit files.
 */
const ALONE = [
  'chaos',
  'containers',
  'harness-container',
  'hunt',
  'kept-cluster',
  'partition',
  'queue-cli-slots',
  'queue-faults',
  'queue-hunt-shrink',
  'queue-libraries',
  'queue-renewal',
  'reclaim',
  'slots',
  'warm-reclaim',
].map((name) => `test/integration/${name}.test.ts`);

// Three projects: `unit` (no root, no network, no real time; always fast), `integration` (real servers in
// network namespaces, each file in its worker's slot; needs root) and `integration-alone` (the files above, one
// at a time, last). `npm test` runs all three; each can run alone with `--project`.
export default defineConfig({
  test: {
    // Every core: vitest's default leaves one of the two cores of a CI machine idle (measured: the checkers'
    // unit files 42 s with the default, 29 s with both cores). The integration files of two slots run at once:
    // a run is mostly waiting (leases, pauses, recovery), measured in the closing note of issue 30.
    // At most one worker a slot: an integration file's slot is its worker's (test/integration/test-slot.ts).
    maxWorkers: Math.min(availableParallelism(), MAX_SLOTS),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/integration/**'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ALONE,
          setupFiles: ['test/integration/process-end.setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration-alone',
          include: ALONE,
          setupFiles: ['test/integration/process-end.setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // After every other file, one at a time: vitest runs a project's files whose parallelism is off last.
          fileParallelism: false,
        },
      },
    ],
  },
});
