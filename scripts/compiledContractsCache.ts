/**
 * `compileContracts` with its result kept in `node_modules/.cache/intentsim-solc/`, for the tests
 * that compile the contracts to compare or deploy them: solc-js with the optimizer takes ~9 s of
 * CPU for `fixtures/contracts/`, the same every run. The key is a hash of everything the result
 * depends on: every source file (name and text), the solc package's version, and the text of
 * scripts/compile-contracts.ts (its settings and how it shapes the output). A change to any of them
 * compiles again; `npm run compile-contracts` always compiles.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { compileContracts, contractsDir, readSources, type CompiledContracts } from './compile-contracts';
import { writeFileWhole } from '../src/keys/keptFiles';

const cacheDir = fileURLToPath(new URL('../node_modules/.cache/intentsim-solc/', import.meta.url));
const solcVersion = (createRequire(import.meta.url)('solc/package.json') as { version: string }).version;
const compileScript = fileURLToPath(new URL('./compile-contracts.ts', import.meta.url));

/** The cache key of compiling `dir` now. */
export function compileCacheKey(dir: string = contractsDir): string {
  return createHash('sha256')
    .update(JSON.stringify({ sources: readSources(dir), solc: solcVersion, script: readFileSync(compileScript, 'utf8') }))
    .digest('hex');
}

/** compileContracts(dir), read from the cache when the same inputs were compiled before. */
export function compileContractsCached(dir: string = contractsDir): CompiledContracts {
  const file = join(cacheDir, `${compileCacheKey(dir)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as CompiledContracts;
  } catch {
    const compiled = compileContracts(dir);
    // written whole: a worker reading it at the same time sees all of it or none
    writeFileWhole(file, JSON.stringify(compiled));
    return compiled;
  }
}
