// covers: endpoint:POST /transactions/index, operation:transactions index, operation:transactions single
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { expectPublishedType } from '../support/publishedApiTypes';
import { evmChainOf } from '../support/evmChainOf';

/**
 * The notifications the official SDK posts after sending a deposit: `/transactions/index`
 * (`{ txHash, chainId }`) and, for same-chain steps, `/transactions/single` (`{ tx, chainId,
 * requestId, referrer }`, `tx` the item's data with `txHash` or `replacementTxHash` as a JSON string).
 */
describe('POST /transactions/index and /transactions/single', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function payBridge(accountIndex: number): Promise<{ requestId: string; txHash: Hex; item: Record<string, unknown> }> {
    const account = privateKeyToAccount(sim.accounts[accountIndex]!.privateKey as Hex);
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(account.address));
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const item = step.items[0].data;
    const chain = evmChainOf(sim, 1);
    const wallet = createWalletClient({ account, chain: chain.viemChain(), transport: http(chain.rpcUrl) });
    const txHash = await wallet.sendTransaction({ to: item.to as Address, data: item.data as Hex, value: BigInt(item.value) });
    await publicClientFor(sim, 1).waitForTransactionReceipt({ hash: txHash, pollingInterval: 5 });
    return { requestId: step.requestId, txHash, item };
  }

  it('/transactions/single takes the SDK’s body (tx = the item data with the hash, as JSON) and the request settles', async () => {
    const { requestId, txHash, item } = await payBridge(1);
    const answer = await postJson(`${sim.baseUrl}/transactions/single`, { tx: JSON.stringify({ ...item, txHash }), chainId: '1', requestId, referrer: 'relay.link' });
    expect(answer).toEqual({ status: 200, body: { message: 'Transaction indexed' } });
    expectPublishedType('TransactionsSingle', answer.body);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
  });

  it('/transactions/single reads a replacement hash; /transactions/index the plain hash', async () => {
    const replaced = await payBridge(2);
    expect(await postJson(`${sim.baseUrl}/transactions/single`, { tx: JSON.stringify({ ...replaced.item, replacementTxHash: replaced.txHash }), chainId: '1', requestId: replaced.requestId })).toMatchObject({ status: 200 });
    expect((await waitForSettledStatus(sim.baseUrl, replaced.requestId)).inTxHashes).toEqual([replaced.txHash]);
    const indexed = await payBridge(3);
    const index = await postJson(`${sim.baseUrl}/transactions/index`, { txHash: indexed.txHash, chainId: 1 });
    expect(index).toEqual({ status: 200, body: { message: 'Transaction indexed' } });
    expectPublishedType('TransactionsIndex', index.body);
    expect((await waitForSettledStatus(sim.baseUrl, indexed.requestId)).status).toBe('success');
  });

  it('refuses what it cannot use with a 4xx and an errorCode: a missing field, a chain it does not run', async () => {
    const missing = await postJson(`${sim.baseUrl}/transactions/single`, { chainId: '1', requestId: `0x${'ab'.repeat(32)}` });
    expect(missing.status).toBe(400);
    expect(typeof missing.body.errorCode).toBe('string');
    const unknownChain = await postJson(`${sim.baseUrl}/transactions/single`, { tx: '{}', chainId: '999999', requestId: `0x${'ab'.repeat(32)}` });
    expect(unknownChain.status).toBe(400);
    expect(typeof unknownChain.body.errorCode).toBe('string');
    // a tx that is not JSON names no hash: accepted, nothing to look at
    expect(await postJson(`${sim.baseUrl}/transactions/single`, { tx: '0xdeadbeef', chainId: '1', requestId: `0x${'ab'.repeat(32)}` })).toMatchObject({ status: 200 });
  });
});
