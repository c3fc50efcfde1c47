import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RecordNotReplayableError, scenarioFromRecord } from '../../src/scenario/scenarioFromRecord';
import { scenarioYamlRunner } from '../support/scenarioYamlRunner';

/** Runs a scenario written as YAML text; returns its result. */
const runYaml = scenarioYamlRunner('intentsim-from-record-non-evm-');

/** Requests on every chain kind, made on a running simulator; each record is then replayed on its own. */
const ORIGINALS = `chains: [8453, 792703809, 8253038, 3586256]
steps:
  - automine: { chainId: 8253038, enabled: false }
  - quote: { as: evmToSolana, user: 0, originChainId: 8453, destinationChainId: 792703809, originCurrency: USDC, destinationCurrency: USDC, amount: "30000000", recipient: fresh:sol }
  - quote: { as: solanaToEvm, user: account:0, originChainId: 792703809, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "25000000", recipient: fresh:evm }
  - quote: { as: bitcoinToEvm, user: account:0, originChainId: 8253038, destinationChainId: 8453, originCurrency: BTC, destinationCurrency: USDC, amount: "1500000", recipient: fresh:btc }
  - quote: { as: evmToLighter, user: 1, originChainId: 8453, destinationChainId: 3586256, originCurrency: USDC, destinationCurrency: USDC, amount: "40000000", recipient: account:2 }
  - quote: { as: lighterToEvm, user: account:0, originChainId: 3586256, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "20000000", recipient: fresh:withdrawn }
  - quote: { as: solanaShort, user: account:1, originChainId: 792703809, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "25000000", recipient: fresh:short }
  - quote: { as: bitcoinShort, user: account:1, originChainId: 8253038, destinationChainId: 8453, originCurrency: BTC, destinationCurrency: USDC, amount: "1500000", recipient: fresh:btcShort }
  - deposit: { request: evmToSolana }
  - deposit: { request: solanaToEvm }
  - deposit: { request: bitcoinToEvm }
  - deposit: { request: evmToLighter }
  - deposit: { request: lighterToEvm }
  - deposit: { request: solanaShort, amount: "10000000" }
  - deposit: { request: bitcoinShort, amount: "500000" }
  - mine: { chainId: 8253038 }
  - mine: { chainId: 8253038 }
`;

interface RecordView {
  status: string;
  requestType: string;
  data: { failReason: string | null; inTxs: Array<{ chainId: number }>; outTxs: Array<{ chainId: number; type: string; status: string }> };
}

// covers: failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL, failReason:DEPOSIT_REORGED, failReason:DOUBLE_SPEND
// chain kinds: evm, svm, bvm (the refunds and faults are on Solana and Bitcoin origins)
describe('scenario from-record on every chain kind: Solana, Bitcoin and Lighter records replay locally', () => {
  it('records of EVM→Solana, Solana→EVM, Bitcoin→EVM, EVM→Lighter, Lighter→EVM and refunded Solana and Bitcoin deposits each replay to the same status, reasons and chains', async () => {
    const original = await runYaml('originals', ORIGINALS);
    expect(original.error, original.timeline).toBeUndefined();
    const seen: Array<[string, string, string | null, string]> = [];
    for (const [alias, record] of Object.entries(original.records) as Array<[string, RecordView]>) {
      const yaml = scenarioFromRecord({ requests: [record] });
      const replay = await runYaml(`replay-${alias}`, yaml);
      expect(replay.error, `${alias}\n${yaml}\n${replay.timeline}`).toBeUndefined();
      expect(replay.mismatches, replay.timeline).toEqual([]);
      const replayed = replay.records.replay as RecordView;
      expect(replayed.requestType).toBe(record.requestType);
      // the same chains carry the deposit and every transaction the solver sent (fill or refund)
      const path = (view: RecordView) => [...view.data.inTxs.map((tx) => `in ${tx.chainId}`), ...view.data.outTxs.map((tx) => `${tx.type} ${tx.chainId} ${tx.status}`)];
      expect(path(replayed), replay.timeline).toEqual(path(record));
      seen.push([alias, record.status, record.data.failReason, path(record).join(', ')]);
    }
    expect(seen).toEqual([
      ['evmToSolana', 'success', null, 'in 8453, fill 792703809 success'],
      ['solanaToEvm', 'success', null, 'in 792703809, fill 8453 success'],
      ['bitcoinToEvm', 'success', null, 'in 8253038, fill 8453 success'],
      ['evmToLighter', 'success', null, 'in 8453, fill 3586256 success'],
      ['lighterToEvm', 'success', null, 'in 3586256, fill 8453 success'],
      ['solanaShort', 'refund', 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', 'in 792703809, refund 792703809 success'],
      ['bitcoinShort', 'refund', 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', 'in 8253038, refund 8253038 success'],
    ]);
  }, 300_000);

  it('a Solana deposit rolled back (DEPOSIT_REORGED) and a Bitcoin deposit double-spent (DOUBLE_SPEND) replay with their real causes', async () => {
    const faults = `chains: [8453, 792703809, 8253038]
steps:
  - automine: { chainId: 8253038, enabled: false }
  - quote: { as: rolledBack, user: account:0, originChainId: 792703809, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "25000000", recipient: fresh:rolled }
  - solverRule: { match: { request: rolledBack }, action: { kind: never } }
  - deposit: { request: rolledBack }
  - reorg: { chainId: 792703809, depth: 1 }
  - quote: { as: doubleSpent, user: account:0, originChainId: 8253038, destinationChainId: 8453, originCurrency: BTC, destinationCurrency: USDC, amount: "1500000", recipient: fresh:spent }
  - deposit: { request: doubleSpent }
  - doubleSpend: { request: doubleSpent }
  - mine: { chainId: 8253038 }
`;
    const original = await runYaml('fault-originals', faults);
    expect(original.error, original.timeline).toBeUndefined();
    const expected: Record<string, string> = { rolledBack: 'DEPOSIT_REORGED', doubleSpent: 'DOUBLE_SPEND' };
    for (const [alias, failReason] of Object.entries(expected)) {
      const record = original.records[alias] as RecordView;
      expect([record.status, record.data.failReason], original.timeline).toEqual(['failure', failReason]);
      const yaml = scenarioFromRecord({ requests: [record] });
      // the real cause, not the solver's scripted fail path
      expect(yaml).not.toContain('kind: fail');
      const replay = await runYaml(`replay-${alias}`, yaml);
      expect(replay.error, `${alias}\n${yaml}\n${replay.timeline}`).toBeUndefined();
      expect(replay.mismatches, replay.timeline).toEqual([]);
      const replayed = replay.records.replay as RecordView;
      expect([replayed.status, replayed.data.failReason]).toEqual(['failure', failReason]);
    }
  }, 300_000);

  it("each chain's currencies, user wallet and confirmations are written in the chain's own terms", () => {
    const record = (origin: { chainId: number; address: string; symbol: string }, destination: { chainId: number; address: string; symbol: string }, status = 'success', depositAddress: unknown = null) => ({
      id: '0x01',
      status,
      depositAddress,
      data: { failReason: status === 'success' ? null : 'DEPOSIT_REORGED', metadata: { currencyIn: { currency: origin, amount: '100000000' }, currencyOut: { currency: destination } } },
    });
    const sol = { chainId: 792703809, address: '11111111111111111111111111111111', symbol: 'SOL' };
    const btc = { chainId: 8253038, address: 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8', symbol: 'BTC' };
    const lighterUsdc = { chainId: 3586256, address: '0', symbol: 'USDC' };
    const eth = { chainId: 1, address: '0x0000000000000000000000000000000000000000', symbol: 'ETH' };

    const fromSolana = parse(scenarioFromRecord(record(sol, lighterUsdc, 'success', { type: 'open' })));
    expect(fromSolana.chains).toEqual([3586256, 792703809]);
    expect(fromSolana.steps[0].quote).toMatchObject({ user: 'account:0', originCurrency: 'native', destinationCurrency: 'USDC' });
    expect(fromSolana.steps[0].quote.useDepositAddress).toBeUndefined();
    expect(fromSolana.description).toContain('the local Solana chain has none');

    const fromBitcoin = parse(scenarioFromRecord(record(btc, eth, 'success', { type: 'open' })));
    expect(fromBitcoin.steps.map((step: object) => Object.keys(step)[0])).toEqual(['automine', 'quote', 'deposit', 'mine', 'mine', 'expect']);
    expect(fromBitcoin.steps[1].quote).toMatchObject({ user: 'account:0', originCurrency: 'native', useDepositAddress: true });
    const pendingOnBitcoin = parse(scenarioFromRecord(record(btc, eth, 'pending')));
    expect(pendingOnBitcoin.steps.map((step: object) => Object.keys(step)[0])).toEqual(['automine', 'quote', 'deposit', 'expect']);

    // a rollback of the slot that held a Solana deposit; a Bitcoin reorg returns a deposit to the mempool, so it is refused
    const reorgedOnSolana = parse(scenarioFromRecord(record(sol, eth, 'failure')));
    expect(reorgedOnSolana.steps.at(-2)).toEqual({ reorg: { chainId: 792703809, depth: 1 } });
    expect(() => scenarioFromRecord(record(btc, eth, 'failure'))).toThrow(RecordNotReplayableError);
    expect(() => scenarioFromRecord(record({ ...sol, address: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', symbol: 'BONK' }, eth))).toThrow('the simulator\'s svm chains have SOL, USDC and WSOL');
    expect(() => scenarioFromRecord(record({ ...eth, chainId: 56 }, eth))).toThrow('chain 56 has no local chain');
  });
});
