// Per-test isolation: intentsim/vitest/isolate resets the shared simulator's world before each test; files run one at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { globalSetup: ['./isolation.setup.mjs'], setupFiles: ['intentsim/vitest/isolate'], fileParallelism: false, include: ['*.isolated.test.mjs'] } });
