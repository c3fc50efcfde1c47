import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../scripts/test.mjs';

/** `npm test` runs, beside vitest, the import rules (with dependency-cruiser's cache) and the type check of the whole project and of the explorer. */
describe('npm test', () => {
  it('runs scripts/test.mjs, whose checks type-check tsconfig.json and web/explorer and apply the import rules', () => {
    const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(packageJson.scripts.test).toBe('node scripts/test.mjs');
    const commands = CHECKS.map((check) => check.command.join(' '));
    expect(commands).toEqual([
      expect.stringMatching(/^npm run --silent check-imports -- --cache \S+\/node_modules\/\.cache\/intentsim-depcruise\/[0-9a-f]{12} --cache-strategy content$/),
      expect.stringMatching(/typescript-native\/bin\/tsc --noEmit -p tsconfig\.json --singleThreaded --incremental/),
      expect.stringMatching(/typescript-native\/bin\/tsc --noEmit -p web\/explorer --singleThreaded --incremental --tsBuildInfoFile \S+\/intentsim-typecheck\/[0-9a-f]{12}-explorer-ts7\.tsbuildinfo$/),
    ]);
    // the checks' compiler is TypeScript 7 (native), whatever version the JavaScript API users get
    const native = JSON.parse(readFileSync('node_modules/typescript-native/package.json', 'utf8')) as { name: string; version: string };
    expect(native.name).toBe('typescript');
    expect(Number(native.version.split('.')[0])).toBeGreaterThanOrEqual(7);
    const tsconfig = JSON.parse(readFileSync('tsconfig.json', 'utf8')) as { include: string[] };
    expect(tsconfig.include).toEqual(expect.arrayContaining(['src', 'test', 'scripts', 'fixtures', 'conformance', 'bin']));
  });
});
