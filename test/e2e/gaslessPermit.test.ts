// covers: endpoint:POST /execute/permits, operation:execute permits, status:depositing, transition:waiting->depositing, transition:depositing->pending, status:success
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertViemChainToRelayChain, createClient, getClient, type Execute } from '@relayprotocol/relay-sdk';
import { createWalletClient, erc20Abi, http, zeroAddress, type Address, type Hex, type TypedDataDomain, type TypedDataParameter } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import type { RequestStatus } from '../../src/domain/request/requestStatus';
import { startTestSimulator } from '../support/startTestSimulator';
import { getJson, postJson, requestJson } from '../support/bridgeClient';
import { expectPublishedRecord } from '../support/publishedApiTypes';
import { balanceOn } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

const ORIGIN = 1;
const DESTINATION = 8453;

/**
 * SPEC §1.6 gasless swaps: a `usePermit` quote of the stablecoin answers one signature step (an
 * EIP-3009 ReceiveWithAuthorization, `data.post` → `/execute/permits`); the official SDK's
 * `execute` signs and posts it unmodified; the relayer pulls the tokens into the depository with
 * the signature and pays the gas. The user sends no transaction at all (no approve).
 */
describe('gasless swaps (usePermit, POST /execute/permits)', () => {
  let sim: RunningSimulator;
  let stablecoin: Address;
  beforeAll(async () => {
    sim = await startTestSimulator();
    stablecoin = evmChainOf(sim, ORIGIN).contractAddresses.stablecoin;
    createClient({
      baseApiUrl: sim.baseUrl,
      source: 'intentsim-test',
      chains: sim.chains.map((chain) => convertViemChainToRelayChain(evmChainOf(sim, chain.id).viemChain())),
      // the SDK polls the request's status every 10 ms (its default is 5 s), for up to 30 s
      pollingInterval: 10,
      maxPollingAttemptsBeforeTimeout: 3000,
    });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  function walletOf(accountIndex: number) {
    const chain = evmChainOf(sim, ORIGIN);
    return createWalletClient({ account: privateKeyToAccount(sim.accounts[accountIndex]!.privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  }

  function permitQuote(accountIndex: number, amount: string, currency: string = stablecoin): Promise<Execute> {
    const destination = evmChainOf(sim, DESTINATION).contractAddresses;
    return getClient().actions.getQuote(
      {
        chainId: ORIGIN,
        toChainId: DESTINATION,
        currency,
        toCurrency: currency === zeroAddress ? zeroAddress : destination.stablecoin,
        amount,
        tradeType: 'EXACT_INPUT',
        wallet: walletOf(accountIndex),
        options: { usePermit: true },
      },
      true,
    );
  }

  it('the official SDK signs the quote signature step; the relayer deposits with it; depositing is a real, published status change', async () => {
    const account = 3;
    const user = sim.accounts[account]!.address as Address;
    const origin = evmChainOf(sim, ORIGIN);
    const quote = await permitQuote(account, '40000000');
    expect(quote.steps.map((step) => [step.id, step.kind])).toEqual([['deposit', 'signature']]);
    const item = quote.steps[0]!.items[0]!;
    expect(item.data.sign).toMatchObject({ signatureKind: 'eip712', primaryType: 'ReceiveWithAuthorization', value: { from: user, to: origin.contractAddresses.depository, value: '40000000' } });
    expect(item.data.post).toMatchObject({ endpoint: '/execute/permits', method: 'POST' });
    expect(quote.fees?.gas?.amount).toBe('0');
    const requestId = quote.steps[0]!.requestId!;

    const published: RequestStatus[] = [];
    const unsubscribe = sim.control.events.subscribe((event) => {
      if (event.requestId === requestId) published.push(event.to);
    });
    const [nativeBefore, nonceBefore, stableBefore] = await Promise.all([
      balanceOn(sim, ORIGIN, zeroAddress, user),
      origin.publicClient.getTransactionCount({ address: user }),
      balanceOn(sim, ORIGIN, stablecoin, user),
    ]);

    const result = await getClient().actions.execute({ quote, wallet: walletOf(account) });
    unsubscribe();
    expect(result.data.steps[0]!.items[0]!.status).toBe('complete');

    const status = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    expect(status.body.status).toBe('success');
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'depositing', 'pending', 'submitted', 'success']);
    expect(published).toEqual(['depositing', 'pending', 'submitted', 'success']);
    // no transaction from the user (same nonce), no gas, no approval; the tokens left by signature
    expect(await origin.publicClient.getTransactionCount({ address: user })).toBe(nonceBefore);
    expect(await balanceOn(sim, ORIGIN, zeroAddress, user)).toBe(nativeBefore);
    expect(await balanceOn(sim, ORIGIN, stablecoin, user)).toBe(stableBefore - 40_000_000n);
    expect(await origin.publicClient.readContract({ address: stablecoin, abi: erc20Abi, functionName: 'allowance', args: [user, origin.contractAddresses.depository] })).toBe(0n);
    const record = sim.control.requests.get(requestId)!;
    expect(record.quote.features).toContain('gasless_swap');
    expect((await expectPublishedRecord(sim, requestId)).features).toContain('gasless_swap');
    const depositTx = await origin.publicClient.getTransaction({ hash: record.inTxs[0]!.txHash as Hex });
    expect(depositTx.to?.toLowerCase()).toBe(origin.contractAddresses.depository.toLowerCase());
    expect([user.toLowerCase(), sim.control.solverAddress.toLowerCase()]).not.toContain(depositTx.from.toLowerCase());
  });

  it('a signature by anyone but the user is refused in simulation with the decoded error; the request keeps waiting', async () => {
    const quote = await permitQuote(4, '1000000');
    const item = quote.steps[0]!.items[0]!;
    const sign = item.data.sign as { domain: TypedDataDomain; types: Record<string, TypedDataParameter[]>; primaryType: string; value: Record<string, unknown> };
    const forged = await walletOf(5).signTypedData({ domain: sign.domain, types: sign.types, primaryType: sign.primaryType, message: sign.value });
    const post = item.data.post as { endpoint: string; body: Record<string, unknown> };
    const answer = await postJson(`${sim.baseUrl}${post.endpoint}?signature=${forged}`, post.body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorCode: 'EXECUTION_REVERTED', error: 'InvalidSignature()', requestId: quote.steps[0]!.requestId });
    expect(answer.body.details.innermost.to).toBe(stablecoin);
    expect(sim.control.requests.get(quote.steps[0]!.requestId!)!.status).toBe('waiting');

    const malformed = await postJson(`${sim.baseUrl}${post.endpoint}?signature=0x1234`, post.body);
    expect(malformed).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
  });

  it('usePermit leaves currencies without signatures to the usual transaction steps, and /execute/permits refuses requests quoted without it', async () => {
    const native = await permitQuote(6, '1000000000000000', zeroAddress);
    expect(native.steps.map((step) => [step.id, step.kind])).toEqual([['deposit', 'transaction']]);
    const answer = await postJson(`${sim.baseUrl}/execute/permits?signature=0x${'11'.repeat(65)}`, {
      kind: 'eip3009',
      requestId: native.steps[0]!.requestId,
      validAfter: '0',
      validBefore: '99999999999',
    });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS', requestId: native.steps[0]!.requestId } });
    const unknown = await requestJson(`${sim.baseUrl}/execute/permits?signature=0x${'11'.repeat(65)}`, {
      method: 'POST',
      body: { kind: 'eip3009', requestId: `0x${'ab'.repeat(32)}`, validAfter: '0', validBefore: '1' },
    });
    expect(unknown).toMatchObject({ status: 404, body: { errorCode: 'REQUEST_NOT_FOUND' } });
  });
});
