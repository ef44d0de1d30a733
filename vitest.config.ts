import { defineConfig } from 'vitest/config';

// No test opens a TLS connection, and with NODE_EXTRA_CA_CERTS set (as on this project's machines) Node 20
// parses the whole CA bundle as every process starts: ~40 ms of each of the thousands of `tsm` processes the
// end-to-end tests spawn, and of each test file's worker. Dropped here, before the workers are forked, so
// that nothing started from a test inherits it; the tests of the launcher's own handling of it (index.e2e,
// model-cli.e2e) set it themselves.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built CLI and real processes: give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
