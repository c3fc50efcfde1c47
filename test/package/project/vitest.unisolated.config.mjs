// The same test files on the shared simulator without the isolation setup file: each test sees the ones before it.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { globalSetup: ['./isolation.setup.mjs'], include: ['worldIsolation.isolated.test.mjs'] } });
