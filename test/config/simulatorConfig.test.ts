import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  DEFAULT_MNEMONIC,
  DEFAULT_PORT,
  ENVIRONMENT_VARIABLES,
  loadSimulatorConfig,
  resolveChains,
  resolveDepositConfirmations,
} from '../../src/config/simulatorConfig';
import { parseChainCounts } from '../../src/config/configFlags';
import { chainKindFacts } from '../../src/chains/chainKinds';
import type { VmType } from '../../src/domain/chain/chainDescription';

/** Whether a chain kind takes a deposit confirmation count (its fact, as the simulator asks it). */
const countsConfirmations = (vm: VmType) => chainKindFacts(vm).countsDepositConfirmations;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'intentsim-config-test-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadSimulatorConfig', () => {
  it('gives the documented defaults with no file, no environment and no options', () => {
    const config = loadSimulatorConfig({ env: {} });
    expect(config).toEqual({
      host: '127.0.0.1',
      chainPorts: {},
      port: DEFAULT_PORT,
      seed: 1,
      chains: [
        { id: 1, resetOnStart: false },
        { id: 8453, resetOnStart: false },
        { id: 42161, resetOnStart: false },
        { id: 792703809, resetOnStart: false },
        { id: 8253038, resetOnStart: false },
        { id: 3586256, resetOnStart: false },
      ],
      mnemonic: DEFAULT_MNEMONIC,
      accountCount: 10,
      keptGenesis: true,
      serviceFeeBps: 10,
      defaultSlippageBps: 50,
      quoteRpcTimeoutMs: 2000,
      httpRequestTimeoutMs: 30_000,
      webhookTimeoutMs: 10_000,
      quoteTtlSeconds: 300,
      fillInclusionWindowSeconds: 120,
      clockMode: 'real',
      solverPolicy: 'fill',
      chainPollIntervalMs: 1000,
      bvmBlockTimeSeconds: 0,
      depositConfirmations: {},
      fork: {},
      forkBlock: {},
      svmRuntime: 'embedded',
      listingRatePerSecond: 20,
      webhookRetryBaseMs: 1000,
    });
    expect(DEFAULT_PORT).toBe(4646);
  });

  it('takes the default key\'s webhook endpoint, with its defaults, and refuses a bad one', () => {
    expect(loadSimulatorConfig({ env: {}, options: { webhook: { url: 'http://127.0.0.1:9000/hook' } } }).webhook).toEqual({ url: 'http://127.0.0.1:9000/hook', enabled: true, headers: {} });
    expect(() => loadSimulatorConfig({ env: {}, options: { webhook: { url: 'ftp://127.0.0.1/hook' } } })).toThrow(/webhook\.url/);
  });

  it('refuses a mnemonic that is not BIP-39 (unknown word or bad checksum), naming the field', () => {
    expect(() => loadSimulatorConfig({ env: {}, options: { mnemonic: 'test test test' } })).toThrow(/mnemonic/);
    expect(() => loadSimulatorConfig({ env: {}, options: { mnemonic: 'test test test test test test test test test test test test' } })).toThrow(/BIP-39/);
    expect(loadSimulatorConfig({ env: {}, options: { mnemonic: 'legal winner thank year wave sausage worth useful legal winner thank yellow' } }).mnemonic).toMatch(/^legal/);
  });

  it('reads a YAML file', () => {
    const path = file('config.yaml', 'port: 5000\nseed: 7\nclockMode: manual\nchains:\n  - id: 1\n  - id: 10\n    name: op\n');
    const config = loadSimulatorConfig({ configFile: path, env: {} });
    expect(config).toMatchObject({ port: 5000, seed: 7, clockMode: 'manual' });
    expect(config.chains).toEqual([
      { id: 1, resetOnStart: false },
      { id: 10, name: 'op', resetOnStart: false },
    ]);
  });

  it('reads a JSON file (by its .json extension)', () => {
    const path = file('config.json', JSON.stringify({ port: 5001, serviceFeeBps: 25, solverPolicy: 'hold' }));
    expect(loadSimulatorConfig({ configFile: path, env: {} })).toMatchObject({ port: 5001, serviceFeeBps: 25, solverPolicy: 'hold' });
  });

  it('precedence: file < environment < options', () => {
    const path = file('precedence.yaml', 'port: 5000\nseed: 7\ndbPath: /from/file.db\nanvilPath: /file/anvil\n');
    const env = { INTENTSIM_PORT: '6000', INTENTSIM_SEED: '8', INTENTSIM_ANVIL: '/env/anvil' };

    const fileOnly = loadSimulatorConfig({ configFile: path, env: {} });
    expect(fileOnly).toMatchObject({ port: 5000, seed: 7, dbPath: '/from/file.db', anvilPath: '/file/anvil' });

    const fileAndEnv = loadSimulatorConfig({ configFile: path, env });
    expect(fileAndEnv).toMatchObject({ port: 6000, seed: 8, dbPath: '/from/file.db', anvilPath: '/env/anvil' });

    const all = loadSimulatorConfig({ configFile: path, env, options: { port: 7000 } });
    expect(all).toMatchObject({ port: 7000, seed: 8, dbPath: '/from/file.db', anvilPath: '/env/anvil' });
  });

  it('reads every documented environment variable', () => {
    expect(ENVIRONMENT_VARIABLES).toEqual({
      INTENTSIM_ANVIL: 'anvilPath',
      INTENTSIM_PORT: 'port',
      INTENTSIM_DB: 'dbPath',
      INTENTSIM_SEED: 'seed',
      INTENTSIM_DATA_DIR: 'dataDir',
      INTENTSIM_SVM: 'svmRuntime',
      INTENTSIM_SOLANA_TEST_VALIDATOR: 'solanaTestValidatorPath',
      INTENTSIM_PUBLIC_URL: 'publicUrl',
      INTENTSIM_CHAIN_PORTS: 'chainPorts',
      INTENTSIM_KEPT_GENESIS: 'keptGenesis',
    });
    const config = loadSimulatorConfig({
      env: {
        INTENTSIM_ANVIL: '/a',
        INTENTSIM_PORT: '1234',
        INTENTSIM_DB: '/d.db',
        INTENTSIM_SEED: '99',
        INTENTSIM_DATA_DIR: '/data',
        INTENTSIM_SVM: 'validator',
        INTENTSIM_SOLANA_TEST_VALIDATOR: '/v',
        INTENTSIM_PUBLIC_URL: 'http://sim.example.test:4646',
        INTENTSIM_CHAIN_PORTS: '1=8545,8253038=18443',
        INTENTSIM_KEPT_GENESIS: 'off',
      },
    });
    expect(config).toMatchObject({
      anvilPath: '/a',
      port: 1234,
      dbPath: '/d.db',
      seed: 99,
      dataDir: '/data',
      svmRuntime: 'validator',
      solanaTestValidatorPath: '/v',
      publicUrl: 'http://sim.example.test:4646',
      chainPorts: { '1': 8545, '8253038': 18443 },
      keptGenesis: false,
    });
    expect(() => loadSimulatorConfig({ env: { INTENTSIM_KEPT_GENESIS: 'no' } })).toThrow(/keptGenesis: must be on or off/);
    expect(() => loadSimulatorConfig({ env: { INTENTSIM_PUBLIC_URL: 'sim.example.test' } })).toThrow(/publicUrl: /);
    expect(() => loadSimulatorConfig({ env: { INTENTSIM_PUBLIC_URL: 'ftp://sim.example.test' } })).toThrow(/publicUrl: must be an http/);
    expect(() => loadSimulatorConfig({ env: { INTENTSIM_SVM: 'auto' } })).toThrow(/svmRuntime: must be one of embedded, validator \(from INTENTSIM_SVM\)/);
  });

  it('ignores empty environment variables and options that are undefined', () => {
    const path = file('keep.yaml', 'port: 5000\n');
    const config = loadSimulatorConfig({ configFile: path, env: { INTENTSIM_PORT: '' }, options: { port: undefined, seed: undefined } });
    expect(config).toMatchObject({ port: 5000, seed: 1 });
  });

  it('ignores environment variables it does not know', () => {
    expect(loadSimulatorConfig({ env: { INTENTSIM_HOST: '0.0.0.0', PORT: '1' } })).toMatchObject({ host: '127.0.0.1', port: DEFAULT_PORT });
  });

  it('an invalid option is a ConfigError naming the field', () => {
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { port: 70_000 } })).message).toMatch(/^invalid configuration: port: /);
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { serviceFeeBps: 1001 } })).message).toContain('serviceFeeBps');
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { defaultSlippageBps: 10_001 } })).message).toContain('defaultSlippageBps');
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { clockMode: 'fast' as never } })).message).toContain('clockMode');
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { solverPolicy: 'sometimes' as never } })).message).toContain('solverPolicy');
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { accountCount: 0 } })).message).toContain('accountCount');
  });

  it('an invalid environment value is a ConfigError naming the field it maps to', () => {
    expect(configError(() => loadSimulatorConfig({ env: { INTENTSIM_PORT: 'abc' } })).message).toMatch(/port: /);
    expect(configError(() => loadSimulatorConfig({ env: { INTENTSIM_SEED: '1.5' } })).message).toMatch(/seed: /);
    expect(configError(() => loadSimulatorConfig({ env: { INTENTSIM_SEED: '-1' } })).message).toMatch(/seed: /);
  });

  it('an invalid file value is a ConfigError naming the field, nested paths included', () => {
    const badPort = file('bad-port.yaml', 'port: "http"\n');
    expect(configError(() => loadSimulatorConfig({ configFile: badPort, env: {} })).message).toMatch(/port: /);
    const badChain = file('bad-chain.json', JSON.stringify({ chains: [{ id: 1 }, { id: -5 }] }));
    expect(configError(() => loadSimulatorConfig({ configFile: badChain, env: {} })).message).toContain('chains.1.id');
    const badUrl = file('bad-url.yaml', 'chains:\n  - id: 1\n    rpcUrl: not a url\n');
    expect(configError(() => loadSimulatorConfig({ configFile: badUrl, env: {} })).message).toContain('chains.0.rpcUrl');
  });

  it('duplicate chain ids and an empty chain list are ConfigErrors', () => {
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { chains: [{ id: 1 }, { id: 1 }] } })).message).toContain(
      'chain ids must be unique',
    );
    expect(configError(() => loadSimulatorConfig({ env: {}, options: { chains: [] } })).message).toContain('chains');
  });

  it('names every invalid field at once', () => {
    const message = configError(() => loadSimulatorConfig({ env: {}, options: { port: -1, seed: -1 } })).message;
    expect(message).toContain('port');
    expect(message).toContain('seed');
  });

  it('a file that does not hold an object (a list, a scalar) is a ConfigError naming the file', () => {
    const list = file('list.yaml', '- 1\n- 2\n');
    expect(configError(() => loadSimulatorConfig({ configFile: list, env: {} })).message).toMatch(/config file .*list\.yaml must hold an object/);
    const jsonList = file('list.json', '[{"port": 5000}]');
    expect(configError(() => loadSimulatorConfig({ configFile: jsonList, env: {} })).message).toMatch(/list\.json must hold an object/);
    const scalar = file('scalar.yaml', '5000\n');
    expect(configError(() => loadSimulatorConfig({ configFile: scalar, env: {} })).message).toMatch(/scalar\.yaml must hold an object/);
  });
});

describe('resolveChains', () => {
  it('takes deposit confirmations per chain (flag text or an object), for Bitcoin-style chains only', () => {
    expect(parseChainCounts('8253038=2')).toEqual({ '8253038': 2 });
    expect(() => parseChainCounts('8253038:2')).toThrow(/chainId=count/);
    const config = loadSimulatorConfig({ options: { chains: [{ id: 8453 }, { id: 8253038 }], depositConfirmations: { 8253038: 3 } }, env: {} });
    expect(resolveDepositConfirmations(config, countsConfirmations)).toEqual({ 8253038: 3 });
    expect(() => loadSimulatorConfig({ options: { depositConfirmations: { 8253038: 0 } }, env: {} })).toThrow(ConfigError);
    expect(() => resolveDepositConfirmations(loadSimulatorConfig({ options: { chains: [{ id: 8453 }], depositConfirmations: { 8453: 2 } }, env: {} }), countsConfirmations)).toThrow(/only Bitcoin-style/);
    expect(() => resolveDepositConfirmations(loadSimulatorConfig({ options: { chains: [{ id: 8453 }], depositConfirmations: { 8253038: 2 } }, env: {} }), countsConfirmations)).toThrow(/not configured/);
  });

  it('fills names from the known-chain table and keeps explicit ones', () => {
    const config = loadSimulatorConfig({
      env: {},
      options: { chains: [{ id: 1 }, { id: 8453, displayName: 'My Base' }, { id: 31337, rpcUrl: 'http://127.0.0.1:8545', resetOnStart: true }] },
    });
    expect(resolveChains(config)).toEqual([
      { id: 1, vm: 'evm', name: 'ethereum', displayName: 'Ethereum', rpcUrl: undefined, resetOnStart: false },
      { id: 8453, vm: 'evm', name: 'base', displayName: 'My Base', rpcUrl: undefined, resetOnStart: false },
      { id: 31337, vm: 'evm', name: 'chain-31337', displayName: 'Chain 31337', rpcUrl: 'http://127.0.0.1:8545', resetOnStart: true },
    ]);
  });

  it('takes a chain\'s VM kind from the config, else from the known-chain table (evm)', () => {
    const config = loadSimulatorConfig({ env: {}, options: { chains: [{ id: 1 }, { id: 792703809, vm: 'svm' }] } });
    expect(resolveChains(config).map((chain) => [chain.id, chain.vm])).toEqual([
      [1, 'evm'],
      [792703809, 'svm'],
    ]);
    expect(() => loadSimulatorConfig({ env: {}, options: { chains: [{ id: 5, vm: 'wasm' as never }] } })).toThrow(/chains\.0\.vm/);
  });
});
