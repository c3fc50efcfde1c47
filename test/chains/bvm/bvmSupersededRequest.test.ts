// covers: endpoint:POST /quote/v2, endpoint:GET /requests/v3, status:pending, status:success, transition:waiting->pending, field:supersededByRequestId
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroAddress, type Address } from 'viem';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { postJson, publicClientFor, requestJson, waitForSettledStatus } from '../../support/bridgeClient';
import { expectPublishedType } from '../../support/publishedApiTypes';
import { BTC_ADDRESS, BVM_CHAIN_ID, bvmRpc, signDepositStep } from '../../support/bvmClient';
import { pooledChains } from '../../support/pooledNodes';

/**
 * SPEC §2.3 `supersededByRequestId` (docs/chains/bitcoin.md ("The Bitcoin-style chain")): a new BTC quote for the
 * same user and route as an earlier request whose deposit address is unpaid regenerates it — the
 * same deposit address, the earlier record superseded by the new id — and a payment into that
 * address is owned and filled by the newest request only. Every other record keeps null.
 */
const EVM = 8453;
let sim: RunningSimulator;
let rpcUrl: string;
let bvmAccounts: Array<{ address: string; privateKey: string }>;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: BVM_CHAIN_ID }] });
  const chain = sim.chains.find((c) => c.id === BVM_CHAIN_ID)!;
  rpcUrl = chain.rpcUrl;
  bvmAccounts = chain.accounts!;
});

afterAll(async () => {
  await sim?.stop();
});

async function quoteBtc(user: string, recipient: string, amount: bigint, extra: Record<string, unknown> = {}) {
  const quote = await requestJson(`${sim.baseUrl}/quote/v2`, {
    method: 'POST',
    headers: { 'x-api-key': sim.apiKey },
    body: {
      user, recipient, originChainId: BVM_CHAIN_ID, destinationChainId: EVM,
      originCurrency: BTC_ADDRESS, destinationCurrency: zeroAddress, amount: String(amount), tradeType: 'EXACT_INPUT', ...extra,
    },
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const step = quote.body.steps[0];
  return { requestId: step.requestId as string, depositAddress: step.depositAddress as string, step, amountOut: BigInt(quote.body.details.currencyOut.amount) };
}

/** The §2.3 record as `GET /requests/v3` lists it. */
async function listed(requestId: string, includeChildRequests = false) {
  const { status, body } = await requestJson(`${sim.baseUrl}/requests/v3?id=${requestId}${includeChildRequests ? '&includeChildRequests=true' : ''}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });
  expect(status).toBe(200);
  expectPublishedType('RequestsV3', body, `GET /requests/v3?id=${requestId}`);
  return body.requests as Array<{ id: string; status: string; supersededByRequestId: string | null; depositAddress: { address: string } | null }>;
}

describe('regenerated BVM deposit-address requests (supersededByRequestId)', () => {
  it('a new quote for the same user and route reuses the unpaid deposit address; the payment is owned and filled by the newest request only', async () => {
    const user = bvmAccounts[5]!;
    const recipient = sim.accounts[3]!.address as Address;
    const first = await quoteBtc(user.address, recipient, 1_000_000n);
    const second = await quoteBtc(user.address, recipient, 1_200_000n);
    expect(second.requestId).not.toBe(first.requestId);
    expect(second.depositAddress).toBe(first.depositAddress);
    const [firstRecord] = await listed(first.requestId);
    expect(firstRecord).toMatchObject({ status: 'waiting', supersededByRequestId: second.requestId });
    expect((await listed(second.requestId))[0]).toMatchObject({ status: 'waiting', supersededByRequestId: null, depositAddress: { address: first.depositAddress } });

    // regenerated again: the chain goes on, each record pointing at the one that took it over
    const third = await quoteBtc(user.address, recipient, 1_500_000n);
    expect(third.depositAddress).toBe(first.depositAddress);
    expect((await listed(second.requestId))[0]!.supersededByRequestId).toBe(third.requestId);
    expect((await listed(first.requestId))[0]!.supersededByRequestId).toBe(second.requestId);
    expect((await listed(first.requestId, true)).map((record) => record.id).sort()).toEqual([first.requestId, second.requestId, third.requestId].sort());

    // the user's wallet pays the address with the newest quote's PSBT: the newest request owns it
    const balanceBefore = await publicClientFor(sim, EVM).getBalance({ address: recipient });
    const deposit = signDepositStep(third.step, user.privateKey);
    await bvmRpc(rpcUrl, 'sendrawtransaction', [deposit.hex]);
    for (const started = Date.now(); sim.control.requests.get(third.requestId)!.status !== 'pending'; await new Promise((resolve) => setTimeout(resolve, 5))) {
      if (Date.now() - started > 30_000) throw new Error('the newest request never went pending');
    }
    await bvmRpc(rpcUrl, 'generatetoaddress', [1, bvmAccounts[0]!.address]);
    const settled = await waitForSettledStatus(sim.baseUrl, third.requestId);
    expect(settled).toMatchObject({ status: 'success', inTxHashes: [deposit.txid] });
    expect(settled.txHashes).toHaveLength(1);
    expect((await publicClientFor(sim, EVM).getBalance({ address: recipient })) - balanceBefore).toBe(third.amountOut);
    expect(sim.control.requests.get(third.requestId)!).toMatchObject({ supersededByRequestId: null, depositAddress: { address: first.depositAddress, depositTxHash: deposit.txid } });
    for (const superseded of [first, second]) {
      const record = sim.control.requests.get(superseded.requestId)!;
      expect(record).toMatchObject({ status: 'waiting', inTxs: [], outTxs: [], depositAddress: { depositTxHash: null } });
      expect(sim.control.requests.eventsFor(superseded.requestId).map((event) => event.toStatus)).toEqual(['waiting']);
    }

    // paid: the next quote for the same route gets an address of its own and supersedes nothing
    const afterPayment = await quoteBtc(user.address, recipient, 1_000_000n);
    expect(afterPayment.depositAddress).not.toBe(first.depositAddress);
    expect(sim.control.requests.get(third.requestId)!.supersededByRequestId).toBeNull();
    expect(sim.control.requests.get(afterPayment.requestId)!.supersededByRequestId).toBeNull();
  });

  it('another recipient, another user or another deposit-address type is a request of its own: a new address, nothing superseded', async () => {
    const user = bvmAccounts[6]!;
    const recipient = sim.accounts[4]!.address as Address;
    const base = await quoteBtc(user.address, recipient, 1_000_000n);
    const otherRecipient = await quoteBtc(user.address, sim.accounts[5]!.address, 1_000_000n);
    const otherUser = await quoteBtc(bvmAccounts[7]!.address, recipient, 1_000_000n);
    const strict = await quoteBtc(user.address, recipient, 1_000_000n, { useDepositAddress: true, strict: true, refundTo: user.address });
    const addresses = new Set([base, otherRecipient, otherUser, strict].map((quote) => quote.depositAddress));
    expect(addresses.size).toBe(4);
    for (const quote of [base, otherRecipient, otherUser, strict]) expect(sim.control.requests.get(quote.requestId)!.supersededByRequestId).toBeNull();
  });

  it('EVM-origin deposit-address requests are never regenerated', async () => {
    const user = sim.accounts[6]!.address;
    const body = {
      user, recipient: bvmAccounts[8]!.address, originChainId: EVM, destinationChainId: BVM_CHAIN_ID,
      originCurrency: zeroAddress, destinationCurrency: BTC_ADDRESS, amount: '10000000000000000', tradeType: 'EXACT_INPUT', useDepositAddress: true,
    };
    const first = await postJson(`${sim.baseUrl}/quote/v2`, body);
    const second = await postJson(`${sim.baseUrl}/quote/v2`, body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.steps[0].depositAddress).not.toBe(first.body.steps[0].depositAddress);
    for (const quote of [first, second]) expect(sim.control.requests.get(quote.body.steps[0].requestId)!.supersededByRequestId).toBeNull();
  });
});
