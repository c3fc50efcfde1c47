import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packedTarball, packInputsKey } from './packedTarball';

/** The key the installed-package test's tarball is kept by (./packedTarball.ts): every input of the build and the pack changes it, nothing else does. */
const root = mkdtempSync(join(tmpdir(), 'intentsim-pack-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('the packed tarball cache key', () => {
  it('changes with a source, a new source, the build recipe, the package files and what npm installed; not with tests or docs', () => {
    for (const [path, text] of Object.entries({ 'src/index.ts': 'export {};', 'web/explorer/main.ts': '', 'scripts/build/bundleSources.mjs': '', 'package.json': '{}', 'node_modules/.package-lock.json': '{}', 'test/a.test.ts': '', 'docs/a.md': '' })) write(path, text);
    const keys = new Set<string>();
    const keyAfter = (path: string, text: string) => {
      write(path, text);
      return packInputsKey(root);
    };
    keys.add(packInputsKey(root));
    expect(keyAfter('test/a.test.ts', 'changed')).toBe([...keys][0]);
    expect(keyAfter('docs/a.md', 'changed')).toBe([...keys][0]);
    expect(keyAfter('scripts/bench/run.ts', 'new')).toBe([...keys][0]);
    for (const [path, text] of [
      ['src/index.ts', 'export const a = 1;'],
      ['src/chains/new.ts', 'export {};'],
      ['fixtures/contracts/artifacts.generated.ts', ''],
      ['web/explorer/main.ts', 'changed'],
      ['bin/intentsim.js', ''],
      ['scripts/build/bundleSources.mjs', 'changed'],
      ['scripts/build-package.ts', ''],
      ['package.json', '{"version":"0.1.1"}'],
      ['README.md', '# intentsim'],
      ['tsconfig.declarations.json', '{}'],
      ['node_modules/.package-lock.json', '{"packages":{}}'],
    ] as const) {
      const key = keyAfter(path, text);
      expect(keys.has(key), path).toBe(false);
      keys.add(key);
    }
    // the same inputs again: the same key
    expect(packInputsKey(root)).toBe([...keys].at(-1));
  });

  it('packs once: the same inputs again give the tarball packed before, byte for byte (a changed input changes the key, above)', async () => {
    const project = mkdtempSync(join(root, 'project-'));
    const out = (name: string) => mkdtempSync(join(root, `${name}-`));
    mkdirSync(join(project, 'bin'));
    mkdirSync(join(project, 'node_modules'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'packed-once', version: '1.0.0', files: ['bin/'] }));
    writeFileSync(join(project, 'bin', 'run.js'), 'console.log(1);\n');
    const first = await packedTarball(project, out('first'));
    expect(first).toMatchObject({ cached: false, files: expect.arrayContaining(['package.json', 'bin/run.js']) });
    const second = await packedTarball(project, out('second'));
    expect(second).toMatchObject({ cached: true, size: first.size, files: first.files });
    expect(readFileSync(second.tarball).equals(readFileSync(first.tarball))).toBe(true);
  }, 60_000);
});
