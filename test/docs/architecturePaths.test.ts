import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md is the map the next engineer reads first: every path it names exists, and every
 * folder of src/ (and each chain kind's and node's folder) is on it. A move that forgets the map
 * fails here.
 */
const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

/** Backticked repository paths, patterns (`<vm>`, `{a,b}`, `*`) left out. */
function namedPaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!.replace(/[:#].*$/, ''))
    .filter((path) => /^(src|test|scripts|conformance|web|fixtures|docs|bin)\//.test(path) && !/[<>{}*]/.test(path));
}

const exists = (path: string) => [path, `${path}.ts`].some((candidate) => existsSync(join(root, candidate)));

const subfolders = (dir: string) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${dir}/${entry.name}/`);

describe('ARCHITECTURE.md names what is there', () => {
  it('every path it names exists', () => {
    const paths = namedPaths(page);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !exists(path))).toEqual([]);
  });

  it('every folder of src/, and each chain kind and node folder, is on the map', () => {
    const folders = [...subfolders('src'), ...subfolders('src/chains'), ...subfolders('src/nodes')];
    expect(folders).toContain('src/chains/evm/');
    expect(folders.filter((folder) => !page.includes(`\`${folder}\``))).toEqual([]);
  });

  it('the path check sees a missing path and skips patterns', () => {
    expect(namedPaths('`src/nope/gone.ts` `src/chains/<vm>/` `src/{a,b}.ts` `npm test`')).toEqual(['src/nope/gone.ts']);
  });
});
