// Isolation with two test files side by side: the second worker's setup file refuses to run.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { globalSetup: ['./isolation.setup.mjs'], setupFiles: ['intentsim/vitest/isolate'], fileParallelism: true, maxWorkers: 2, include: ['*.isolated.test.mjs'] } });
