// covers: endpoint:POST /quote/v2, status:success
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertViemChainToRelayChain, createClient, getClient } from '@relayprotocol/relay-sdk';
import { createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { getJson, publicClientFor } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';

/** The SDK polls a request's status every 10 ms (its default is 5 s), for up to 30 s (docs/testing.md). */
const SDK_POLLING = { pollingInterval: 10, maxPollingAttemptsBeforeTimeout: 3000 };

/** The official SDK, unmodified, pays a strict deposit address: its deposit step is a plain transfer. */
describe('deposit addresses through the official SDK', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('getQuote with useDepositAddress + strict + refundTo, then execute, reaches success', async () => {
    const [origin, destination] = [sim.chains[1]!, sim.chains[2]!];
    const chain = evmChainOf(sim, origin.id);
    const user = sim.accounts[4]!;
    const wallet = createWalletClient({ account: privateKeyToAccount(user.privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
    createClient({
      baseApiUrl: sim.baseUrl,
      source: 'intentsim-test',
      chains: sim.chains.map((c) => convertViemChainToRelayChain(evmChainOf(sim, c.id).viemChain())),
      ...SDK_POLLING,
    });
    const refundTo = sim.accounts[8]!.address;
    const quote = await getClient().actions.getQuote({
      chainId: origin.id,
      toChainId: destination.id,
      currency: zeroAddress,
      toCurrency: zeroAddress,
      amount: '15000000000000000',
      tradeType: 'EXACT_INPUT',
      wallet,
      options: { useDepositAddress: true, strict: true, refundTo },
    }, true);
    const step = quote.steps[0]!;
    expect(step.depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const before = await publicClientFor(sim, destination.id).getBalance({ address: user.address as Address });

    await getClient().actions.execute({ quote, wallet, onProgress: () => undefined });

    const status = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${step.requestId}`);
    expect(status.body.status).toBe('success');
    expect((await publicClientFor(sim, destination.id).getBalance({ address: user.address as Address })) - before).toBe(BigInt(quote.details!.currencyOut!.amount!));
    const record = sim.control.requests.get(step.requestId!)!;
    expect(record.depositAddress).toMatchObject({ address: step.depositAddress, type: 'strict', depositor: user.address });
    expect(record.refundTo).toBe(refundTo);
    expect(status.body.inTxHashes).not.toContain(record.depositAddress!.depositTxHash);
  });
});
