import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import {
  buildCoverageDoc,
  collectCoverage,
  countedAnnotations,
  coverageDocPath,
  readInterfaceItems,
  renderCoverageDoc,
  specItemsOf,
  type SpecItems,
} from '../../scripts/generate-coverage-doc';
import { chainKindsOf } from '../../scripts/coverageChainKinds';
import { extractInterfaceItems } from '../../scripts/extract-interface-items';
import { FAIL_REASONS, REFUND_FAIL_REASONS, REQUEST_STATUSES } from '../../src/domain/request/requestStatus';
import { TRANSITIONS } from '../../src/domain/request/transitions';

/**
 * A small SPEC with the same structure as the real one. Lines are joined from quoted strings so
 * that no line of this file starts with a covers annotation of its own.
 */
const SYNTHETIC_SPEC = [
  '# Title',
  '',
  '## 1. Intro',
  '',
  'Mentions `GET /not/an/endpoint` outside the scanned sections.',
  '',
  '## 2. Resources',
  '',
  '### 2.3 Request record',
  '',
  '| Field | Type / meaning |',
  '|---|---|',
  '| id | string |',
  '| user, recipient | string |',
  '| `supersededByRequestId` | string or null |',
  '',
  '| Field | Type / meaning |',
  '|---|---|',
  '| nestedOnly | not a top-level field |',
  '',
  '## 3. States and transitions',
  '',
  '| State | Meaning |',
  '|---|---|',
  '| waiting | not yet |',
  '| done | finished |',
  '',
  '| From | Trigger | Condition | To | Also |',
  '|---|---|---|---|---|',
  '| any | x | y | done | z |',
  '',
  '## 4. Endpoints',
  '',
  '### 4.1 `POST /quote/v2`',
  '',
  'Body mentions `GET /ignored/in/body`.',
  '',
  '### 4.2 `GET /status/v3`',
  '',
  '### 4.7 Other endpoints',
  '',
  '- `POST /quote`, `DELETE /things/{id}` (old).',
  '- Other named operations with no shape given: token price, config, currencies (two versions). Shapes of all these: not shown.',
  '',
  '## 7. Errors',
  '',
  '### 7.1 Quote errors',
  '',
  '| errorCode | Condition |',
  '|---|---|',
  '| BAD_THING | when bad |',
  '| `WORSE_THING` | when worse |',
  '',
  '### 7.3 `failReason` values',
  '',
  'UNKNOWN, SLIPPAGE, ERC_1155_TOO_MANY, N/A.',
  '',
  '(The neutral words MARKETPLACE and AGGREGATOR stand in.)',
  '',
  '### 7.4 `refundFailReason` values',
  '',
  'TOO_LOW_TO_REFUND, IS_VASP (and `N/A` in payloads).',
  '',
  '## 8. Limits',
  '',
  '| Limit | Value | Applies to |',
  '|---|---|---|',
  '| page size | max 50 | GET /list |',
  '| rate | 10 rps | GET /list |',
  '| a, b | 0 to 1 | quote and price |',
  '',
  '## 9. Versioning',
  '',
  '- Versions are in the path: `/quote/v2`, `/status/v3`. Older `/status`, `/quote` exist.',
  '- `GET /list/v2` is deprecated.',
  '- explorer path `/transaction/{TX_HASH}` is not an endpoint.',
  '',
].join('\n');

const SYNTHETIC_TRANSITIONS = { waiting: ['done'], done: [] };

describe('extractInterfaceItems, with the simulator\'s transitions added', () => {
  const items = specItemsOf(extractInterfaceItems(SYNTHETIC_SPEC), SYNTHETIC_TRANSITIONS);

  it('endpoints: §4 headings, §4.7 and §9 (bare §9 paths take their versioned sibling’s method)', () => {
    // not endpoints: a path in another section, a path in a §4 body, an explorer path in §9
    expect(items.endpoint).toEqual(['DELETE /things/{id}', 'GET /list/v2', 'GET /status', 'GET /status/v3', 'POST /quote', 'POST /quote/v2']);
  });

  it('operations: the §4.7 list of operations named without a path', () => {
    expect(items.operation).toEqual(['config', 'currencies (two versions)', 'token price']);
  });

  it('statuses: the rows of the §3 State table only', () => {
    expect(items.status).toEqual(['done', 'waiting']);
  });

  it('transitions: from the given table, as from->to', () => {
    expect(items.transition).toEqual(['waiting->done']);
  });

  it('failReason: the first paragraph of §7.3, N/A included, the note excluded', () => {
    expect(items.failReason).toEqual(['ERC_1155_TOO_MANY', 'N/A', 'SLIPPAGE', 'UNKNOWN']);
  });

  it('refundFailReason: the §7.4 values with N/A', () => {
    expect(items.refundFailReason).toEqual(['IS_VASP', 'N/A', 'TOO_LOW_TO_REFUND']);
  });

  it('errorCode: the first column of the §7.1 table, backticks removed', () => {
    expect(items.errorCode).toEqual(['BAD_THING', 'WORSE_THING']);
  });

  it('limit: first column @ applies-to', () => {
    expect(items.limit).toEqual(['a, b @ quote and price', 'page size @ GET /list', 'rate @ GET /list']);
  });

  it('field: the first Field table of §2.3, a row naming two fields split', () => {
    expect(items.field).toEqual(['id', 'recipient', 'supersededByRequestId', 'user']);
  });

  it('fails clearly when a section is missing', () => {
    expect(() => extractInterfaceItems(SYNTHETIC_SPEC.replace('## 8. Limits', '## 8b Limits'))).toThrow('SPEC has no section 8');
  });

  it('keeps the numbered sections\' titles, backticks removed', () => {
    const { sections } = extractInterfaceItems(SYNTHETIC_SPEC);
    expect(sections['4.1']).toBe('POST /quote/v2');
    expect(sections['7.3']).toBe('failReason values');
    expect(sections['8']).toBe('Limits');
  });
});

describe('docs/interface-items.json, the project\'s list of the interface\'s items', () => {
  const items = specItemsOf(readInterfaceItems());

  it('finds the endpoints of §4, §4.7 and §9', () => {
    expect(items.endpoint).toEqual([
      'GET /chains',
      'GET /intents/status',
      'GET /intents/status/v3',
      'GET /requests',
      'GET /requests/v2',
      'GET /requests/v3',
      'GET /requests/{requestId}/signature',
      'POST /authorize',
      'POST /execute',
      'POST /price',
      'POST /quote',
      'POST /quote/v2',
    ]);
  });

  it('agrees with the simulator’s enums for statuses, failReason and refundFailReason', () => {
    expect(items.status).toEqual([...REQUEST_STATUSES].sort());
    expect([...items.failReason].sort()).toEqual([...FAIL_REASONS].sort());
    expect([...items.refundFailReason].sort()).toEqual([...REFUND_FAIL_REASONS].sort());
  });

  it('takes the transitions from src/domain/request/transitions.ts', () => {
    expect(items.transition).toHaveLength(Object.values(TRANSITIONS).flat().length);
    expect(items.transition).toContain('waiting->pending');
  });

  it('finds the §7.1 error codes and the §8 limits', () => {
    expect(items.errorCode).toEqual([
      'AMOUNT_TOO_LOW',
      'DESTINATION_TX_FAILED',
      'INVALID_ADDRESS',
      'INVALID_RECIPIENT',
      'INVALID_SLIPPAGE_TOLERANCE',
      'REQUEST_TIMED_OUT',
      'RPC_HTTP_ERROR',
    ]);
    expect(items.limit).toHaveLength(9);
    expect(items.limit).toContain('slippageTolerance, latePaymentSlippageTolerance @ quote and price');
    expect(items.limit).toContain('elevated per-key rate @ GET /requests/v3');
    expect(items.limit).toContain('elevated per-key rate @ GET /requests and GET /requests/v2');
  });

  it('finds the top-level fields of the §2.3 request record', () => {
    expect(items.field).toEqual(['data', 'depositAddress', 'id', 'recipient', 'refundTo', 'sender', 'status', 'supersededByRequestId', 'user']);
  });
});

describe('collectCoverage', () => {
  it('reads line-comment annotations anywhere in a test file, splitting only before kind:', () => {
    const text = [
      "import { it } from 'vitest';",
      '// covers: endpoint:POST /quote/v2, status:success',
      '',
      "it('x', () => {",
      '  // covers: limit:a, b @ quote and price, failReason:N/A',
      '});',
      "const notAnAnnotation = '// covers: status:waiting';",
    ].join('\n');
    expect(collectCoverage([{ path: 'test/a.test.ts', text }]).map((a) => [a.kind, a.item, a.file])).toEqual([
      ['endpoint', 'POST /quote/v2', 'test/a.test.ts'],
      ['status', 'success', 'test/a.test.ts'],
      ['limit', 'a, b @ quote and price', 'test/a.test.ts'],
      ['failReason', 'N/A', 'test/a.test.ts'],
    ]);
  });

  it('reads the top-level covers list of a scenario YAML file, and nothing nested', () => {
    const yaml = ['name: refund flow', 'covers:', '  - status:refund', '  - "transition:pending->refund"', 'steps:', '  - covers: [status:waiting]'].join('\n');
    expect(collectCoverage([{ path: 'scenarios/refund.yaml', text: yaml }]).map((a) => a.raw)).toEqual(['status:refund', 'transition:pending->refund']);
  });

  it('a YAML file without covers gives nothing; a malformed covers list fails naming the file', () => {
    expect(collectCoverage([{ path: 'scenarios/x.yaml', text: 'name: x\n' }])).toEqual([]);
    expect(() => collectCoverage([{ path: 'scenarios/bad.yaml', text: 'covers: status:success\n' }])).toThrow('scenarios/bad.yaml');
    expect(() => collectCoverage([{ path: 'scenarios/worse.yaml', text: 'covers: [\n' }])).toThrow('scenarios/worse.yaml');
  });

  it('keeps annotations without a kind so they can be reported', () => {
    expect(collectCoverage([{ path: 'test/b.test.ts', text: '// covers: something vague' }])).toEqual([
      { raw: 'something vague', kind: '', item: 'something vague', file: 'test/b.test.ts', chainKinds: ['evm'] },
    ]);
  });
});

describe('renderCoverageDoc', () => {
  const items: SpecItems = specItemsOf(extractInterfaceItems(SYNTHETIC_SPEC), SYNTHETIC_TRANSITIONS);
  const annotations = collectCoverage([
    { path: 'test/z.test.ts', text: '// covers: status:done, errorCode:BAD_THING, status:gone' },
    { path: 'test/a.test.ts', text: '// covers: status:done, limit:a, b @ quote and price, endpoint:GET /nope' },
    { path: 'scenarios/s.yaml', text: 'covers:\n  - status:done\n  - status:gone\n' },
  ]);
  const doc = renderCoverageDoc(items, annotations);

  it('has the generated-file header', () => {
    expect(doc.startsWith('# SPEC coverage\n')).toBe(true);
    expect(doc).toContain('Generated by `npm run coverage-doc`');
    expect(doc).toContain('Do not edit');
  });

  it('summarises covered / total per kind', () => {
    expect(doc).toContain('| Kind | Covered | EVM | Solana | Bitcoin | Lighter | Total |');
    expect(doc).toContain('| status | 1 | 1 | 0 | 0 | 0 | 2 |');
    expect(doc).toContain('| errorCode | 1 | 1 | 0 | 0 | 0 | 2 |');
    expect(doc).toContain('| limit | 1 | 1 | 0 | 0 | 0 | 3 |');
    expect(doc).toContain('| endpoint | 0 | 0 | 0 | 0 | 0 | 6 |');
    expect(doc).toContain('| operation | 0 | 0 | 0 | 0 | 0 | 3 |');
    expect(doc).toContain('| **all** | **3** | **3** | **0** | **0** | **0** | **28** |');
  });

  it('lists every item with the files that cover it, sorted, or "not covered"', () => {
    expect(doc).toContain('| `done` | 3 | — | — | — | `scenarios/s.yaml`, `test/a.test.ts`, `test/z.test.ts` |');
    expect(doc).toContain('| `waiting` | — | — | — | — | not covered |');
    expect(doc).toContain('| `a, b @ quote and price` | 1 | — | — | — | `test/a.test.ts` |');
    expect(doc).toContain('| `POST /quote/v2` | — | — | — | — | not covered |');
  });

  it('lists the annotations that match no SPEC item, with their files', () => {
    const section = doc.split('## Annotations that match no SPEC item')[1]!;
    expect(section).toContain('| `endpoint:GET /nope` | `test/a.test.ts` |');
    expect(section).toContain('| `status:gone` | `scenarios/s.yaml`, `test/z.test.ts` |');
    expect(section).not.toContain('status:done');
  });

  it('says None. when every annotation matches', () => {
    const clean = renderCoverageDoc(items, collectCoverage([{ path: 'test/a.test.ts', text: '// covers: status:done' }]));
    expect(clean.split('## Annotations that match no SPEC item')[1]).toContain('None.');
  });

  it('is deterministic: the order of files and annotations does not matter', () => {
    expect(renderCoverageDoc(items, [...annotations].reverse())).toBe(doc);
  });

  it('one table per kind, in a fixed order', () => {
    const headings = doc.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## Summary',
      '## Endpoints',
      '## Named operations without a path (§4.7)',
      '## Statuses (§3)',
      '## Transitions (src/domain/request/transitions.ts)',
      '## failReason values (§7.3)',
      '## refundFailReason values (§7.4)',
      '## Error codes (§7.1)',
      '## Limits (§8)',
      '## Request record fields (§2.3)',
      '## Annotations that match no SPEC item',
    ]);
  });
});

describe('the generator on this repository', () => {
  it('reads nothing above the repository root: the interface items are its own data', () => {
    const scripts = ['scripts/generate-coverage-doc.ts', 'scripts/extract-interface-items.ts'].map((path) => readFileSync(path, 'utf8'));
    for (const text of scripts) expect(text).not.toMatch(/\.\.['"/]+shared/);
    expect(Object.keys(readInterfaceItems().sections)).toContain('4.7');
  });

  it('docs/coverage.md is up to date (run `npm run coverage-doc`)', () => {
    const committed = existsSync(coverageDocPath()) ? readFileSync(coverageDocPath(), 'utf8') : '';
    expect(committed, 'docs/coverage.md is stale: run `npm run coverage-doc`').toBe(buildCoverageDoc());
  });
});

describe('statuses and transitions count only where a running simulator reaches them', () => {
  const tableTest = { path: 'test/domain/t.test.ts', text: '// covers: transition:waiting->pending, status:pending, failReason:N/A\nimport { TRANSITIONS } from "x";' };
  const e2eTest = { path: 'test/e2e/b.test.ts', text: '// covers: transition:waiting->pending, status:pending\nsim = await startTestSimulator();' };
  const sharedTest = { path: 'test/e2e/c.test.ts', text: '// covers: status:success\nsim = await sharedTestSimulator();' };
  const scenario = { path: 'scenarios/s.yaml', text: 'covers:\n  - status:refund\n' };

  it('drops status and transition annotations of files that start no simulator, keeps their other kinds', () => {
    expect(countedAnnotations([tableTest]).map((a) => a.raw)).toEqual(['failReason:N/A']);
  });

  it("keeps them from test files that start a simulator or take the worker's shared one, and from scenarios", () => {
    expect(countedAnnotations([e2eTest, sharedTest, scenario]).map((a) => `${a.file} ${a.raw}`)).toEqual([
      'test/e2e/b.test.ts transition:waiting->pending',
      'test/e2e/b.test.ts status:pending',
      'test/e2e/c.test.ts status:success',
      'scenarios/s.yaml status:refund',
    ]);
  });

  it('shows a transition no code takes yet as "not reached yet" with its reason', () => {
    const items = specItemsOf(extractInterfaceItems(SYNTHETIC_SPEC), { waiting: ['done', 'gone'], done: [], gone: [] });
    const [first, second] = items.transition;
    expect([first, second]).toEqual(['waiting->done', 'waiting->gone']);
    const doc = renderCoverageDoc(items, [], { [first!]: 'needs the execute path' });
    expect(doc).toContain(`| \`${first}\` | — | — | — | — | not reached yet (needs the execute path) |`);
    expect(doc).toContain(`| \`${second}\` | — | — | — | — | not covered |`);
  });
});

describe('coverage per chain kind: EVM, Solana (svm), Bitcoin (bvm), Lighter (lvm)', () => {
  it("a scenario reaches its items on the kinds of its chains: and of the chain ids its steps name; one naming none runs the default EVM chains", () => {
    const solanaBridge = 'chains: [8453, 792703809]\nsteps:\n  - quote: {as: a, originChainId: 792703809, destinationChainId: 8453}\n';
    expect(chainKindsOf({ path: 'scenarios/a.yaml', text: solanaBridge })).toEqual(['evm', 'svm']);
    const stepsOnly = 'steps:\n  - quote: {as: a, originChainId: 8253038, destinationChainId: 3586256}\n  - mine: {chainId: 8253038}\n';
    expect(chainKindsOf({ path: 'scenarios/b.yaml', text: stepsOnly })).toEqual(['bvm', 'lvm']);
    expect(chainKindsOf({ path: 'scenarios/c.yaml', text: 'steps:\n  - advanceClock: {seconds: 1}\n' })).toEqual(['evm']);
  });

  it('a test file: its "chain kinds:" line, else the non-EVM chains it names, and EVM unless it names only non-EVM ones', () => {
    expect(chainKindsOf({ path: 'test/a.test.ts', text: 'startTestSimulator({ chains: pooledChains() });' })).toEqual(['evm']);
    expect(chainKindsOf({ path: 'test/b.test.ts', text: 'const LVM = 3586256;\nchains: [...pooledChains(), { id: LVM }]' })).toEqual(['evm', 'lvm']);
    expect(chainKindsOf({ path: 'test/c.test.ts', text: 'startSvmNode({ id: SVM_CHAIN.id })' })).toEqual(['svm']);
    expect(chainKindsOf({ path: 'test/d.test.ts', text: '// chain kinds: evm (its Solana part covers nothing annotated)\nchains: [...pooledChains(), { id: SVM_CHAIN.id }]' })).toEqual(['evm']);
    expect(() => chainKindsOf({ path: 'test/e.test.ts', text: '// chain kinds: evm, solana' })).toThrow('test/e.test.ts: "chain kinds:" names solana');
  });

  it('counts per item the files reaching it on each kind, so a failReason covered on EVM only shows as such', () => {
    const items: SpecItems = specItemsOf(extractInterfaceItems(SYNTHETIC_SPEC), SYNTHETIC_TRANSITIONS);
    const doc = renderCoverageDoc(items, collectCoverage([
      { path: 'scenarios/evm.yaml', text: 'covers: [failReason:SLIPPAGE, failReason:UNKNOWN]\nchains: [8453]\nsteps: [{mine: {chainId: 8453}}]\n' },
      { path: 'scenarios/btc.yaml', text: 'covers: [failReason:UNKNOWN]\nchains: [8253038, 8453]\nsteps: [{mine: {chainId: 8253038}}]\n' },
      { path: 'test/svm.test.ts', text: '// covers: failReason:UNKNOWN\n// chain kinds: svm\n' },
    ]));
    expect(doc).toContain('| `SLIPPAGE` | 1 | — | — | — | `scenarios/evm.yaml` |');
    expect(doc).toContain('| `UNKNOWN` | 2 | 1 | 1 | — | `scenarios/btc.yaml`, `scenarios/evm.yaml`, `test/svm.test.ts` |');
    expect(doc).toContain('| failReason | 2 | 2 | 1 | 1 | 0 | 4 |');
  });
});
