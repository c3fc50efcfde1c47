import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeScriptFilesUnder } from '../support/typeScriptFilesUnder';
import { chainKindFacts } from '../../src/chains/chainKinds';
import { VM_TYPES } from '../../src/domain/chain/chainDescription';

const root = join(__dirname, '..', '..');

/** A comparison with a VM kind's name (`x === 'bvm'`, `'svm' !== y`, also through `vm`/`vmType` switches' cases). */
const VM_COMPARISON = /(?:[!=]==?\s*'(?:evm|svm|bvm|lvm)'|'(?:evm|svm|bvm|lvm)'\s*[!=]==?|case\s+'(?:evm|svm|bvm|lvm)'\s*:)/;

function comparisonsIn(text: string): string[] {
  return text.split('\n').filter((line) => VM_COMPARISON.test(line));
}

/** The explorer's link table keeps its one: the exchange's transaction path differs from the rest. */
const ALLOWED = new Set(['src/domain/chain/explorerLinks.ts']);

describe("each VM's knowledge stays in chains/ (and the nodes): the rest asks the chain or its kind's facts", () => {
  it('no file outside src/chains and src/nodes compares a vmType with a kind, but the explorer link table', () => {
    const files = [...typeScriptFilesUnder(join(root, 'src')), ...typeScriptFilesUnder(join(root, 'web'))]
      .map((path) => relative(root, path))
      .filter((path) => !/^src\/(chains|nodes)\//.test(path) && !ALLOWED.has(path));
    const offenders = files.flatMap((path) => comparisonsIn(readFileSync(join(root, path), 'utf8')).map((line) => `${path}: ${line.trim()}`));
    expect(offenders).toEqual([]);
  });

  it('the check finds a comparison (it can fail)', () => {
    expect(comparisonsIn("if (chain.vm !== 'bvm' && count !== 1) throw error;\nconst a = 'evm';")).toHaveLength(1);
    expect(comparisonsIn("switch (kind) {\n  case 'svm':\n}")).toHaveLength(1);
  });

  it("the EVM's decoded revert stays in the EVM adapter: the rest speaks of a ChainFailure", () => {
    const named = typeScriptFilesUnder(join(root, 'src'))
      .map((path) => relative(root, path))
      .filter((path) => !path.startsWith('src/chains/evm/') && /\bDecodedRevert\b/.test(readFileSync(join(root, path), 'utf8')));
    expect(named).toEqual([]);
    expect(readFileSync(join(root, 'src/chains/evm/decodedRevert.ts'), 'utf8')).toMatch(/\bDecodedRevert\b/);
  });

  it('every kind states its facts, under its own name', () => {
    for (const vm of VM_TYPES) expect(chainKindFacts(vm).vmType).toBe(vm);
  });
});
