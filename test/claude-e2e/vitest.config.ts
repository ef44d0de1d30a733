// `npm run test:claude`: the real Claude Code CLI end to end (claude-code.e2e.ts) and `claude plugin
// validate`. Not part of `npm test`'s default include (test/**/*.test.ts) except plugin-validate.test.ts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/claude-e2e/**/*.e2e.ts', 'test/claude-e2e/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // One CLI at a time: each session starts Node or a native binary, tsm hooks and an MCP server.
    maxWorkers: 1,
    fileParallelism: false,
  },
});
