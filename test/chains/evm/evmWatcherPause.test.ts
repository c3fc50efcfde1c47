import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { depositoryArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../../src/simulator';
import { getJson, nativeBridgeBody, requestJson } from '../../support/bridgeClient';
import { evmChainOf } from '../../support/evmChainOf';
import { sharedTestSimulator } from '../../support/sharedTestSimulator';
import { sendFrom } from '../../support/swapClient';

// A world revert pauses each chain's watcher until its chain has reverted: while paused, nothing a
// catch-up reads (a block notification, the poll, syncNow) is written to the chain index.

const ORIGIN = 1;
const DESTINATION = 8453;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await sharedTestSimulator();
});

afterAll(async () => {
  await sim?.stop();
});

const statusOf = async (requestId: string): Promise<string> => (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body.status as string;

describe('an EVM chain’s watcher paused', () => {
  it('indexes no deposit while paused, and the one it missed once resumed', async () => {
    const user = sim.accounts[3]!;
    const quote = await requestJson(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'x-api-key': sim.apiKey }, body: nativeBridgeBody(user.address, { originChainId: ORIGIN, destinationChainId: DESTINATION }) });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const requestId = quote.body.steps[0].requestId as Hex;
    const chain = evmChainOf(sim, ORIGIN);

    const resume = await chain.cheats.pauseWatching();
    await sendFrom(sim, ORIGIN, user.privateKey, {
      to: chain.contractAddresses.depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user.address as Address, requestId] }),
      value: BigInt(quote.body.details.currencyIn.amount),
    });
    await chain.syncNow();
    await sim.control.solver.idle();
    expect(await statusOf(requestId)).toBe('waiting');

    resume();
    await chain.syncNow();
    await sim.control.solver.idle();
    expect(await statusOf(requestId)).not.toBe('waiting');
  });
});
