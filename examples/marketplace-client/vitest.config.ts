import { defineConfig } from 'vitest/config';

// This folder's own suite: `npx vitest run --root examples/marketplace-client` (the repository's config runs test/ only).
export default defineConfig({ test: { include: ['*.test.ts'] } });
