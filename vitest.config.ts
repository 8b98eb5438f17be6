import { defineConfig } from 'vitest/config';

// Two projects: `unit` (no root, no network, no real time; always fast) and
// `integration` (real servers in network namespaces; needs root). `npm test`
// runs both; each can run alone with `--project`.
export default defineConfig({
  test: {
    // Every core: vitest's default leaves one of the two cores of a CI machine idle (measured: the checkers'
    // unit files 42 s with the default, 29 s with both cores). Integration files still run one at a time.
    maxWorkers: '100%',
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
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Real clusters share one address range and the machine has 2 cores: one file at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
