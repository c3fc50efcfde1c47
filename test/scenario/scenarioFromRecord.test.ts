import { describe, expect, it } from 'vitest';
import { RecordNotReplayableError, scenarioFromRecord } from '../../src/scenario/scenarioFromRecord';
import { scenarioYamlRunner } from '../support/scenarioYamlRunner';

/** Runs a scenario written as YAML text; returns its result. */
const runYaml = scenarioYamlRunner('intentsim-from-record-');

const ORIGINALS = `chains: [1, 8453, 42161]
steps:
  - quote: { as: filled, originChainId: 1, destinationChainId: 8453, originCurrency: ETH, destinationCurrency: USDC, amount: "10000000000000000" }
  - quote: { as: short, user: 1, originChainId: 8453, destinationChainId: 42161, originCurrency: USDC, destinationCurrency: USDC, amount: "30000000" }
  - quote: { as: reorged, user: 2, originChainId: 42161, destinationChainId: 1, originCurrency: ETH, destinationCurrency: ETH, amount: "10000000000000000" }
  - quote: { as: scripted, user: 3, originChainId: 1, destinationChainId: 42161, originCurrency: ETH, destinationCurrency: ETH, amount: "10000000000000000" }
  - solverRule: { match: { request: reorged }, action: { kind: never } }
  - solverRule: { match: { request: scripted }, action: { kind: fail, failReason: INSUFFICIENT_POOL_LIQUIDITY } }
  - deposit: { request: filled }
  - deposit: { request: short, amount: "10000000" }
  - deposit: { request: reorged }
  - deposit: { request: scripted }
  - reorg: { chainId: 42161, depth: 1 }
`;

describe('scenario from-record: a request record becomes a scenario that takes the same path locally', () => {
  it('records of success, an underpayment, a reorg and a scripted reason each replay to the same status and reasons', async () => {
    const original = await runYaml('originals', ORIGINALS);
    expect(original.error, original.timeline).toBeUndefined();
    const seen: Array<[string, string, string | null]> = [];
    for (const [alias, record] of Object.entries(original.records)) {
      const replay = await runYaml(`replay-${alias}`, scenarioFromRecord({ requests: [record] }));
      expect(replay.error, replay.timeline).toBeUndefined();
      expect(replay.mismatches, replay.timeline).toEqual([]);
      const view = record as { status: string; data: { failReason: string | null }; requestType: string };
      expect((replay.records.replay as { requestType: string }).requestType).toBe(view.requestType);
      seen.push([alias, view.status, view.data.failReason]);
    }
    expect(seen).toEqual([
      ['filled', 'success', null],
      ['short', 'refund', 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL'],
      ['reorged', 'failure', 'DEPOSIT_REORGED'],
      ['scripted', 'refund', 'INSUFFICIENT_POOL_LIQUIDITY'],
    ]);
  });

  it("another deployment's record (its own token addresses) replays with the local stand-ins", async () => {
    const foreign = {
      id: '0x5c1e0000000000000000000000000000000000000000000000000000000000aa',
      status: 'refund',
      depositAddress: null,
      requestType: 'Bridge',
      data: {
        failReason: 'SOLVER_BALANCE_TOO_LOW',
        refundFailReason: null,
        inTxs: [{ chainId: 8453, txHash: '0x01' }],
        outTxs: [{ chainId: 8453, type: 'refund' }],
        metadata: {
          currencyIn: { currency: { chainId: 8453, address: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', symbol: 'USDC', decimals: 6 }, amount: '15000000' },
          currencyOut: { currency: { chainId: 42161, address: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', decimals: 6 }, amount: '14900000' },
        },
      },
    };
    const yaml = scenarioFromRecord(foreign);
    expect(yaml).toContain('kind: drain');
    const replay = await runYaml('foreign', yaml);
    expect(replay.mismatches, replay.timeline).toEqual([]);
    expect(replay.timeline).toContain('failReason SOLVER_BALANCE_TOO_LOW');
  });

  it('says why a record cannot be replayed', () => {
    expect(() => scenarioFromRecord({ hello: 1 })).toThrow(RecordNotReplayableError);
    const bsc = { id: '0x1', status: 'success', data: { metadata: { currencyIn: { currency: { chainId: 56, address: '0x0000000000000000000000000000000000000000', symbol: 'BNB' }, amount: '1' }, currencyOut: { currency: { chainId: 1, address: '0x0000000000000000000000000000000000000000', symbol: 'ETH' } } } } };
    expect(() => scenarioFromRecord(bsc)).toThrow('chain 56 has no local chain');
    const exotic = { ...bsc, data: { metadata: { ...bsc.data.metadata, currencyIn: { currency: { chainId: 1, address: '0x4ed4e862860bed51a9570b96d89af5e1b0efefed', symbol: 'DEGEN' }, amount: '1' } } } };
    expect(() => scenarioFromRecord(exotic)).toThrow('currency DEGEN');
  });

  it('with forks, a Bitcoin record that cannot be replayed faithfully is refused naming the chain; the others restore the deposit before the quote and mine on their own steps', () => {
    const btc = { chainId: 8253038, address: 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8', symbol: 'BTC' };
    const eth = { chainId: 1, address: '0x0000000000000000000000000000000000000000', symbol: 'ETH' };
    const user = 'bcrt1q7z7wlw2lj3fdva3elkxtw6h9gktrwkmegudx7z';
    const record = (status: string, failReason?: string) => ({ id: '0x1', status, user, data: { ...(failReason ? { failReason } : {}), metadata: { currencyIn: { currency: btc, amount: '1500000' }, currencyOut: { currency: eth } } } });
    const forks = { chains: { 8253038: { url: 'http://127.0.0.1:3002', block: null }, 1: { url: 'http://127.0.0.1:8545', block: 41 } }, destinationSolver: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', restoreDepositFunds: { depositTxHash: 'ab'.repeat(32) } };
    expect(() => scenarioFromRecord(record('refund', 'DOUBLE_SPEND'), { forks })).toThrow(/^chain 8253038: a Bitcoin deposit spent again \(DOUBLE_SPEND\) cannot be replayed on a fork/);
    expect(() => scenarioFromRecord(record('pending'), { forks })).toThrow(/^chain 8253038: a pending Bitcoin deposit cannot be replayed on a fork/);
    expect(() => scenarioFromRecord(record('failure', 'DEPOSIT_REORGED'), { forks })).toThrow(/^chain 8253038: a Bitcoin deposit reorged out \(DEPOSIT_REORGED\)/);
    const written = scenarioFromRecord(record('success'), { forks });
    expect(written).toMatch(/fork:\n {2}"1":\n {4}url: http:\/\/127\.0\.0\.1:8545\n {4}block: 41\n {2}"8253038":\n {4}url: http:\/\/127\.0\.0\.1:3002\nsteps:\n {2}- automine:\n.*\n.*\n {2}- restoreDepositFunds:\n/);
  });
});
