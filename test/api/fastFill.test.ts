import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, publicClientFor, requestJson } from '../support/bridgeClient';
import { expectPublishedRecord, expectPublishedType } from '../support/publishedApiTypes';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:POST /quote/v2, operation:fast fill, status:success, transition:waiting->pending, transition:pending->submitted, transition:submitted->success

function fastFill(sim: RunningSimulator, body: unknown, apiKey: string = sim.apiKey) {
  return requestJson(`${sim.baseUrl}/fast-fill`, { method: 'POST', body, headers: apiKey ? { 'x-api-key': apiKey } : {} });
}

describe('fast fill (SPEC §1.6): POST /fast-fill fills before the deposit is indexed', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const quoteFor = async (recipient: Address) => {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[8]!.address, { recipient, amount: '20000000000000000' }));
    expect(quote.status).toBe(200);
    return quote.body;
  };

  it('fills at once (waiting → pending → submitted → success, triggeredByFastFill, feature fast_fill); the later deposit is recorded and never filled twice', async () => {
    const recipient = '0x00000000000000000000000000000000000fa57f' as Address;
    const quote = await quoteFor(recipient);
    const requestId = quote.steps[0].requestId as string;
    const destination = publicClientFor(sim, 8453);

    expect((await fastFill(sim, { requestId }, '')).status).toBe(401);
    const filled = await fastFill(sim, { requestId });
    expect(filled.status).toBe(200);
    expectPublishedType('FastFill', filled.body);
    const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    expect(status).toMatchObject({ status: 'success', inTxHashes: [] });
    expect(status.txHashes).toHaveLength(1);
    expect(await destination.getBalance({ address: recipient })).toBe(BigInt(quote.details.currencyOut.amount));
    const record = sim.control.requests.get(requestId)!;
    expect(record.triggeredByFastFill).toBe(true);
    expect((await expectPublishedRecord(sim, requestId)).data.triggeredByFastFill).toBe(true);
    expect(record.quote.features).toContain('fast_fill');
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);

    expect((await fastFill(sim, { requestId })).body).toMatchObject({ errorCode: 'FAST_FILL_NOT_ALLOWED', statusCode: 409 });

    const [depositHash] = await executeQuoteSteps(sim, sim.accounts[8]!.privateKey as Hex, quote);
    await evmChainOf(sim, 1).syncNow();
    await sim.control.solver.idle();
    const after = sim.control.requests.get(requestId)!;
    expect(after.status).toBe('success');
    expect(after.inTxs.map((tx) => tx.txHash)).toEqual([depositHash]);
    expect(after.depositor).toBe(sim.accounts[8]!.address);
    expect(after.outTxs.filter((tx) => tx.type === 'fill')).toHaveLength(1);
    expect(await destination.getBalance({ address: recipient })).toBe(BigInt(quote.details.currencyOut.amount));
  });

  it('refuses unknown requests, bad bodies, an input that does not cover the quote and a fill over maxFillAmountUsd', async () => {
    const quote = await quoteFor('0x00000000000000000000000000000000000fa580');
    const requestId = quote.steps[0].requestId as string;
    expect((await fastFill(sim, { requestId: `0x${'ab'.repeat(32)}` })).status).toBe(404);
    expect((await fastFill(sim, { requestId: 'nope' })).body.errorCode).toBe('INVALID_INPUT_PARAMS');
    expect((await fastFill(sim, { requestId }, 'unknown-key')).status).toBe(401);
    const capped = await fastFill(sim, { requestId, maxFillAmountUsd: '10' }); // the fill is worth ~$60
    expect(capped.body).toMatchObject({ errorCode: 'FAST_FILL_REJECTED', statusCode: 400 });
    const short = await fastFill(sim, { requestId, solverInputCurrencyAmount: '1000' });
    expect(short.body.errorCode).toBe('FAST_FILL_REJECTED');
    expect(short.body.message).toContain('NEGATIVE_NEW_AMOUNT_AFTER_FEES');
    expect(sim.control.requests.get(requestId)!.status).toBe('waiting');
    expect(sim.control.requests.get(requestId)!.triggeredByFastFill).toBeNull();
  });
  it('answers submitted when its fill waits in a pool nothing mines (automine off), and the fill settles once mined', async () => {
    const recipient = '0x00000000000000000000000000000000000fa580' as Address;
    const requestId = (await quoteFor(recipient)).steps[0].requestId as string;
    const base = sim.control.chain(8453);
    await base.setAutomine(false);
    try {
      const filled = await fastFill(sim, { requestId });
      expect(filled.status).toBe(200);
      expect(filled.body).toEqual({ message: `Fast fill of ${requestId} is submitted` });
    } finally {
      await base.setAutomine(true);
    }
    await base.mine(1);
    await sim.control.solver.idle();
    expect(sim.control.requests.get(requestId)?.status).toBe('success');
  });
});
