import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptGenesisStore, keptGenesisKey } from '../../src/keys/keptGenesisStore';

const dirs: string[] = [];
const store = () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-kept-genesis-'));
  dirs.push(dir);
  return new KeptGenesisStore(join(dir, 'nested'));
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the kept-genesis store', () => {
  it('gives back what was written under the same kind and key, and nothing under another', () => {
    const kept = store();
    expect(kept.read('evm-deployment', 'k1')).toBeUndefined();
    kept.write('evm-deployment', 'k1', '{"state":"0x01"}');
    expect(kept.read('evm-deployment', 'k1')).toBe('{"state":"0x01"}');
    expect(kept.read('evm-deployment', 'k2')).toBeUndefined();
    expect(kept.read('bvm-genesis', 'k1')).toBeUndefined();
    // written through a temporary file renamed into place: none is left behind
    expect(readdirSync(kept.dir)).toEqual(['evm-deployment-k1.json']);
  });

  it('ignores a corrupt entry (its checksum fails) and one copied under another key, and a later write replaces it', () => {
    const kept = store();
    kept.write('evm-deployment', 'k1', 'payload one');
    const file = kept.fileOf('evm-deployment', 'k1');
    writeFileSync(file, readFileSync(file, 'utf8').replace('payload one', 'payload two'));
    expect(kept.read('evm-deployment', 'k1')).toBeUndefined();
    writeFileSync(file, 'not json');
    expect(kept.read('evm-deployment', 'k1')).toBeUndefined();

    kept.write('evm-deployment', 'k2', 'payload of k2');
    writeFileSync(file, readFileSync(kept.fileOf('evm-deployment', 'k2')));
    expect(kept.read('evm-deployment', 'k1')).toBeUndefined();

    kept.write('evm-deployment', 'k1', 'payload one');
    expect(kept.read('evm-deployment', 'k1')).toBe('payload one');
  });

  it('a write it cannot make is no error', () => {
    // a directory under a file: no directory can be made there
    const file = join(store().dir, '..', 'a-file');
    writeFileSync(file, 'x');
    const kept = new KeptGenesisStore(join(file, 'kept'));
    expect(() => kept.write('evm-deployment', 'k1', 'x')).not.toThrow();
    expect(kept.read('evm-deployment', 'k1')).toBeUndefined();
  });

  it('keeps at most 48 entries, dropping the least recently used (a read marks one used)', () => {
    const kept = store();
    kept.write('evm-deployment', 'first', 'x');
    const old = new Date(Date.parse('2020-01-01T00:00:00Z'));
    for (let i = 0; i < 47; i++) kept.write('evm-deployment', `k${i}`, 'x');
    for (const name of readdirSync(kept.dir)) utimesSync(join(kept.dir, name), old, old);
    expect(kept.read('evm-deployment', 'first')).toBe('x');
    kept.write('evm-deployment', 'one-more', 'x');
    const names = readdirSync(kept.dir);
    expect(names).toHaveLength(48);
    expect(names).toContain('evm-deployment-first.json');
    expect(names).toContain('evm-deployment-one-more.json');
  });

  it('keys differ when any part differs, bigints included', () => {
    const base = { chainId: 1, amounts: { pool: 10n }, accounts: ['0xa'] };
    expect(keptGenesisKey(base)).toBe(keptGenesisKey({ chainId: 1, amounts: { pool: 10n }, accounts: ['0xa'] }));
    expect(keptGenesisKey(base)).not.toBe(keptGenesisKey({ ...base, amounts: { pool: 11n } }));
    expect(keptGenesisKey(base)).not.toBe(keptGenesisKey({ ...base, chainId: 8453 }));
  });
});
