import { defineConfig } from 'vitest/config';

// Two projects: unit tests (Node) and e2e tests (built site in Debian's Chromium). The e2e
// project's globalSetup builds dist/ once, and only runs when e2e test files are selected.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'tests/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/global-setup.ts'],
        },
      },
    ],
  },
});
