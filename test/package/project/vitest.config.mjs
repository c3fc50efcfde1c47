import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { globalSetup: ['./intentsim.setup.mjs'], include: ['*.vitest.test.mjs'] } });
