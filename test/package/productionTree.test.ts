import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeModulesFootprint, productionInstall } from './productionTree';

// what installedPackage.test.ts installs and measures: npm's production tree read from a lock
describe('productionInstall', () => {
  it('follows dependencies, optional dependencies and required peers, nearest node_modules first; leaves out devDependencies and optional peers', () => {
    const packages = {
      '': { dependencies: { a: '1' }, optionalDependencies: { native: '1', 'other-platform': '1' }, devDependencies: { tool: '1' } },
      'node_modules/a': { dependencies: { b: '2' }, peerDependencies: { peer: '1', typescript: '5' }, peerDependenciesMeta: { typescript: { optional: true } } },
      'node_modules/a/node_modules/b': { dependencies: { c: '1' } },
      'node_modules/b': {},
      'node_modules/c': {},
      'node_modules/peer': {},
      'node_modules/native': {},
      'node_modules/typescript': {},
      'node_modules/tool': { dependencies: { b: '1' } },
    };
    expect(productionInstall({ packages })).toEqual(['node_modules/a', 'node_modules/a/node_modules/b', 'node_modules/c', 'node_modules/native', 'node_modules/peer']);
  });
});

describe('nodeModulesFootprint', () => {
  it('counts each package (scoped ones too) and each file once, through symlinks, and skips dangling links', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-footprint-'));
    try {
      const store = join(dir, 'store', 'x');
      mkdirSync(store, { recursive: true });
      writeFileSync(join(store, 'big.bin'), Buffer.alloc(64 * 1024, 1));
      const nodeModules = join(dir, 'node_modules');
      mkdirSync(join(nodeModules, '@scope', 'y'), { recursive: true });
      writeFileSync(join(nodeModules, '@scope', 'y', 'package.json'), '{}');
      symlinkSync(store, join(nodeModules, 'x'));
      symlinkSync(store, join(nodeModules, '@scope', 'x-again'));
      symlinkSync(join(dir, 'missing'), join(nodeModules, 'gone'));
      const { bytes, packages } = nodeModulesFootprint(nodeModules);
      expect(packages).toBe(3);
      expect(bytes).toBeGreaterThanOrEqual(64 * 1024);
      expect(bytes).toBeLessThan(2 * 64 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
