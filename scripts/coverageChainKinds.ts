/**
 * The chain kinds (SPEC §2.1 `vmType`) a test or scenario file reaches its covered items on, for
 * docs/coverage.md's per-kind columns (scripts/generate-coverage-doc.ts).
 *
 * - A scenario: the kinds of its `chains:` and of every chain id its steps name (`chainId`,
 *   `originChainId`, `destinationChainId`); one that names none runs the default EVM chains.
 * - A test file: a line comment `// chain kinds: evm, svm (why)` says it outright; otherwise the non-EVM
 *   kinds whose chain id or fixture constant it names (`792703809` / `SVM_CHAIN`, `8253038` /
 *   `BVM_CHAIN`, `3586256` / `LVM_CHAIN`), and EVM when it names no non-EVM chain or names an EVM
 *   one (a pooled EVM chain, `DEFAULT_EVM_CHAIN_IDS`, or an EVM chain id other than 1 and 10).
 */
import { parse as parseYaml } from 'yaml';
import { chainMetadataFor, DEFAULT_EVM_CHAIN_IDS, KNOWN_EVM_CHAINS } from '../fixtures/chains';
import type { VmType } from '../src/domain/chain/chainDescription';

export const CHAIN_KINDS: readonly VmType[] = ['evm', 'svm', 'bvm', 'lvm'];

/** Column titles: the chains' names, as a user reads them. */
export const CHAIN_KIND_TITLES: Record<VmType, string> = { evm: 'EVM', svm: 'Solana', bvm: 'Bitcoin', lvm: 'Lighter' };

const NAMED_IN_TESTS: Record<Exclude<VmType, 'evm'>, RegExp> = {
  svm: /\b792703809\b|\bSVM_CHAIN(_ID)?\b/,
  bvm: /\b8253038\b|\bBVM_CHAIN(_ID)?\b/,
  lvm: /\b3586256\b|\bLVM_CHAIN(_ID)?\b/,
};
/** An EVM chain a test names: 1 and 10 are too common as numbers to say so. */
const EVM_NAMED = new RegExp(`\\bpooled(Chains|Nodes)\\(|\\bDEFAULT_EVM_CHAIN_IDS\\b|\\b(${KNOWN_EVM_CHAINS.filter((chain) => chain.id > 10).map((chain) => chain.id).join('|')})\\b`);
const DECLARED = /^[ \t]*\/\/[ \t]*chain kinds:(.*)$/m;

function sortedKinds(kinds: Iterable<VmType>): VmType[] {
  const set = new Set(kinds);
  return CHAIN_KINDS.filter((kind) => set.has(kind));
}

/** Every chain id a scenario names: its `chains:` and the `…chainId` fields of its steps, at any depth. */
function scenarioChainIds(scenario: Record<string, unknown>): number[] {
  const ids: number[] = Array.isArray(scenario.chains) ? scenario.chains.filter((id): id is number => typeof id === 'number') : [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (/chainId$/i.test(key) && typeof inner === 'number') ids.push(inner);
        else walk(inner);
      }
    }
  };
  walk(scenario.steps);
  return ids.length > 0 ? ids : [...DEFAULT_EVM_CHAIN_IDS];
}

/** The chain kinds a test or scenario file reaches its items on (see the file comment). */
export function chainKindsOf(file: { path: string; text: string }): VmType[] {
  if (/\.ya?ml$/.test(file.path)) {
    const parsed = parseYaml(file.text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return ['evm'];
    return sortedKinds(scenarioChainIds(parsed as Record<string, unknown>).map((id) => chainMetadataFor(id).vm));
  }
  const declared = DECLARED.exec(file.text);
  if (declared) {
    const kinds = declared[1]!.replace(/\(.*\)\s*$/, '').split(',').map((kind) => kind.trim());
    const unknown = kinds.filter((kind) => !(CHAIN_KINDS as readonly string[]).includes(kind));
    if (unknown.length > 0) throw new Error(`${file.path}: "chain kinds:" names ${unknown.join(', ')} (kinds: ${CHAIN_KINDS.join(', ')})`);
    return sortedKinds(kinds as VmType[]);
  }
  const named = (Object.keys(NAMED_IN_TESTS) as Array<Exclude<VmType, 'evm'>>).filter((kind) => NAMED_IN_TESTS[kind].test(file.text));
  return sortedKinds(named.length === 0 || EVM_NAMED.test(file.text) ? ['evm', ...named] : named);
}
