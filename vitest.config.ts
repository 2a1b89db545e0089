import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources (the `xv-source` export
// condition), so tests never need a build.
export default defineConfig({
  resolve: { conditions: ['xv-source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['xv-source', ...defaultServerConditions] } },
  test: {
    env: { XV_LOG_LEVEL: 'silent' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'services/*/src/**/*.test.{ts,tsx}',
            'services/*/test/**/*.test.ts',
            'bench/lib/**/*.test.ts',
          ],
        },
      },
      { extends: true, test: { name: 'e2e', include: ['e2e/**/*.test.ts'], fileParallelism: false } },
    ],
  },
});
