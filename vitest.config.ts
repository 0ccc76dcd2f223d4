import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every answer of every mock a test starts is checked against the OpenAPI document.
    setupFiles: ['test/helpers/answer-check-setup.ts'],
  },
});
