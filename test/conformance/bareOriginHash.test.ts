// covers: endpoint:GET /requests/v3
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { postJson, requestJson, usdcOf, waitForSettledStatus } from '../support/bridgeClient';
import { pooledChains } from '../support/pooledNodes';
import { startDeviationProxy } from './deviationProxy';

/**
 * SPEC §4.3: for a request whose origin is the chain with explorer path `/transaction/{TX_HASH}`
 * (the perpetuals exchange here), `data.inTxs[].txHash` is the bare 64-hex hash. The check
 * `listing.bare-origin-hash` passes on the simulator and fails on a deployment that prefixes `0x`.
 */
const EVM = 8453;
const EXCHANGE = 3586256;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: EXCHANGE }] });
  // a withdrawal from exchange account 0 to an EVM account: its deposit is a transfer on the exchange
  const account = sim.chains.find((chain) => chain.id === EXCHANGE)!.accounts![0]!;
  const usdc = await usdcOf(sim.baseUrl, EVM);
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
    user: account.address, recipient: sim.accounts[4]!.address, originChainId: EXCHANGE, destinationChainId: EVM,
    originCurrency: '0', destinationCurrency: usdc, amount: '25000000', tradeType: 'EXACT_INPUT',
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const step = quote.body.steps[0];
  const exchangeUrl = sim.chains.find((chain) => chain.id === EXCHANGE)!.rpcUrl;
  const sent = await requestJson(`${exchangeUrl}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': account.privateKey }, body: { accountIndex: Number(account.address), action: step.items[0].data.action } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  expect((await waitForSettledStatus(sim.baseUrl, step.requestId)).status).toBe('success');
});

afterAll(async () => {
  await sim?.stop();
});

describe('conformance check listing.bare-origin-hash (SPEC §4.3)', () => {
  it('passes on the simulator: the exchange-origin request lists its deposit hash bare', async () => {
    const report = await runConformance({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, mode: 'read-only', only: ['listing.bare-origin-hash'] });
    expect(report.results.map((result) => [result.id, result.outcome])).toEqual([['listing.bare-origin-hash', 'pass']]);
  });

  it('fails, naming §4.3, on a deployment that lists that hash with 0x', async () => {
    const proxy = await startDeviationProxy(sim.baseUrl, {
      response: (request, response) => {
        if (request.path !== '/requests/v3' || response.status !== 200) return undefined;
        const body = structuredClone(response.body) as { requests: Array<{ data: { inTxs: Array<{ txHash: string }> } }> };
        for (const record of body.requests) for (const entry of record.data.inTxs) if (!entry.txHash.startsWith('0x')) entry.txHash = `0x${entry.txHash}`;
        return { body };
      },
    });
    try {
      const report = await runConformance({ baseUrl: proxy.baseUrl, apiKey: sim.apiKey, mode: 'read-only', only: ['listing.bare-origin-hash'] });
      expect(report.results.map((result) => [result.id, result.section, result.outcome])).toEqual([['listing.bare-origin-hash', '4.3', 'fail']]);
    } finally {
      await proxy.close();
    }
  });
});
