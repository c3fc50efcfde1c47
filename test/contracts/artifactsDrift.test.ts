import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toFunctionSelector, toFunctionSignature } from 'viem';
import type { AbiFunction } from 'viem';
import { describe, it, expect } from 'vitest';
import {
  artifactConstName,
  artifactsPath,
  contractsDir,
  renderArtifactsModule,
} from '../../scripts/compile-contracts';
import { compileCacheKey, compileContractsCached } from '../../scripts/compiledContractsCache';
import {
  contractArtifacts,
  depositAddressFactoryArtifact,
  depositForwarderArtifact,
  depositoryArtifact,
  multicall3Artifact,
  serviceReceiverArtifact,
  stablecoinArtifact,
  wrappedNativeArtifact,
} from '../../fixtures/contracts/artifacts.generated';

type Abi = readonly { readonly type: string; readonly name?: string }[];

const names = (abi: Abi, type: 'function' | 'event' | 'error'): string[] =>
  abi.filter((item) => item.type === type).map((item) => item.name ?? '');

function expectAbi(
  abi: Abi,
  expected: { functions?: string[]; events?: string[]; errors?: string[] },
): void {
  expect(names(abi, 'function')).toEqual(expect.arrayContaining(expected.functions ?? []));
  expect(names(abi, 'event')).toEqual(expect.arrayContaining(expected.events ?? []));
  expect(names(abi, 'error')).toEqual(expect.arrayContaining(expected.errors ?? []));
}

const erc20Functions = [
  'name',
  'symbol',
  'decimals',
  'totalSupply',
  'balanceOf',
  'allowance',
  'approve',
  'transfer',
  'transferFrom',
];

describe('compiled contract artifacts', () => {
  it('committed artifacts.generated.ts matches the sources', { timeout: 120_000 }, () => {
    const rendered = renderArtifactsModule(compileContractsCached());
    const committed = readFileSync(artifactsPath, 'utf8');
    expect(
      rendered === committed,
      'fixtures/contracts/artifacts.generated.ts is out of date: run npm run compile-contracts',
    ).toBe(true);
  });

  it('compiles again when a source changes: the compile cache is keyed by every source\'s text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-contracts-'));
    try {
      cpSync(contractsDir, dir, { recursive: true, filter: (path) => !path.endsWith('.ts') });
      const key = compileCacheKey(dir);
      expect(compileCacheKey(dir)).toBe(key);
      writeFileSync(join(dir, 'Stablecoin.sol'), `${readFileSync(join(dir, 'Stablecoin.sol'), 'utf8')}\n// changed\n`);
      expect(compileCacheKey(dir)).not.toBe(key);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exports one artifact per contract, keyed consistently', () => {
    expect(Object.keys(contractArtifacts)).toEqual([
      'BatchExecutor',
      'CallRecorder',
      'ConstantProductPool',
      'DepositAddressFactory',
      'DepositForwarder',
      'Depository',
      'DexRouter',
      'EditionMint1155',
      'MarketplaceOrderBook',
      'MinimalAccount',
      'MinimalEntryPoint',
      'Multicall3',
      'PausableBadge',
      'PermitToken',
      'ServiceReceiver',
      'Stablecoin',
      'WrappedNative',
    ]);
    for (const [name, artifact] of Object.entries(contractArtifacts)) {
      expect(artifact.contractName).toBe(name);
      expect(artifactConstName(name)).toMatch(/^[a-z][A-Za-z0-9]*Artifact$/);
      expect(artifact.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
      expect(artifact.deployedBytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    }
  });

  it('Stablecoin ABI', () => {
    expectAbi(stablecoinArtifact.abi, {
      functions: [...erc20Functions, 'mint', 'setBlocked', 'isBlocked', 'owner'],
      events: ['Transfer', 'Approval'],
      errors: ['AccountBlocked', 'InsufficientBalance', 'InsufficientAllowance', 'NotOwner'],
    });
  });

  it('WrappedNative ABI', () => {
    expectAbi(wrappedNativeArtifact.abi, {
      functions: [...erc20Functions, 'deposit', 'withdraw'],
      events: ['Transfer', 'Approval', 'Deposit', 'Withdrawal'],
    });
    expect(wrappedNativeArtifact.abi.some((item) => item.type === 'receive')).toBe(true);
  });

  it('Depository ABI', () => {
    expectAbi(depositoryArtifact.abi, {
      functions: ['depositNative', 'depositErc20', 'transferOut', 'owner'],
      events: ['Deposit', 'TransferOut'],
      errors: ['NotOwner', 'ZeroAmount'],
    });
    expect(depositoryArtifact.abi.some((item) => item.type === 'receive')).toBe(true);
  });

  it('DepositAddressFactory and DepositForwarder ABIs', () => {
    expectAbi(depositAddressFactoryArtifact.abi, { functions: ['addressOf', 'sweep', 'owner', 'depository'], events: ['Swept'], errors: ['NotOwner'] });
    expectAbi(depositForwarderArtifact.abi, { functions: ['sweep', 'factory'], errors: ['NotFactory', 'NothingToSweep'] });
    expect(depositForwarderArtifact.abi.some((item) => item.type === 'receive')).toBe(true);
  });

  it('ServiceReceiver ABI', () => {
    expectAbi(serviceReceiverArtifact.abi, {
      functions: ['fillNative', 'fillErc20', 'filled', 'forward', 'solver'],
      events: ['Fill', 'FundsForwardedWithData'],
      errors: ['AlreadyFilled'],
    });
  });

  it('Multicall3 ABI has exactly the canonical function set and selectors', () => {
    const functions = multicall3Artifact.abi.filter(
      (item): item is Extract<(typeof multicall3Artifact.abi)[number], { type: 'function' }> =>
        item.type === 'function',
    );
    const signatures = functions
      .map((f) => toFunctionSignature(f as AbiFunction))
      .sort();
    expect(signatures).toEqual(
      [
        'aggregate((address,bytes)[])',
        'aggregate3((address,bool,bytes)[])',
        'aggregate3Value((address,bool,uint256,bytes)[])',
        'blockAndAggregate((address,bytes)[])',
        'getBasefee()',
        'getBlockHash(uint256)',
        'getBlockNumber()',
        'getChainId()',
        'getCurrentBlockCoinbase()',
        'getCurrentBlockDifficulty()',
        'getCurrentBlockGasLimit()',
        'getCurrentBlockTimestamp()',
        'getEthBalance(address)',
        'getLastBlockHash()',
        'tryAggregate(bool,(address,bytes)[])',
        'tryBlockAndAggregate(bool,(address,bytes)[])',
      ].sort(),
    );
    // Selectors of the canonical deployment (0xcA11bde05977b3631167028862bE2a173976CA11).
    expect(toFunctionSelector('aggregate3((address,bool,bytes)[])')).toBe('0x82ad56cb');
    expect(toFunctionSelector('aggregate((address,bytes)[])')).toBe('0x252dba42');
    expect(toFunctionSelector('tryAggregate(bool,(address,bytes)[])')).toBe('0xbce38bd7');
  });
});
