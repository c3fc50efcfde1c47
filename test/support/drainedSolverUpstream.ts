import { createPublicClient, createTestClient, http, parseEther, type Address, type Hex } from 'viem';
import { expect } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, nativeBridgeBody, postJson, waitForSettledStatus } from './bridgeClient';
import { evmChainOf } from './evmChainOf';

/** A native bridge 1 → 8453 from the upstream's test account `index`, paid; its request id and status once settled (a refund included). */
export async function bridgeOnUpstream(upstream: RunningSimulator, index: number, beforeDeposit?: () => Promise<void>): Promise<{ id: string; status: string }> {
  const account = upstream.accounts[index]!;
  const quote = await postJson(`${upstream.baseUrl}/quote/v2`, nativeBridgeBody(account.address));
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  await beforeDeposit?.();
  await executeQuoteSteps(upstream, account.privateKey as Hex, quote.body);
  const id = quote.body.steps[0].requestId as string;
  let settled = await waitForSettledStatus(upstream.baseUrl, id, 60_000);
  // a failure the solver refunds next: settled once the refund is
  for (const started = Date.now(); settled.status === 'failure' && Date.now() - started < 60_000; ) {
    await upstream.control.solver.idle();
    settled = await waitForSettledStatus(upstream.baseUrl, id, 60_000);
  }
  return { id, status: settled.status };
}

/**
 * A request on the upstream (chains 1 and 8453) that ends `refund` SOLVER_BALANCE_TOO_LOW: its
 * solver drained on 8453 in a block before the deposit, the deposit's block after it (the chains'
 * clocks run apart, so each is set past the other's). Returns its request id.
 */
export async function refundedByDrainedSolver(upstream: RunningSimulator, index: number): Promise<string> {
  const destination = evmChainOf(upstream, 8453).rpcUrl;
  const origin = evmChainOf(upstream, 1).rpcUrl;
  const cheats = createTestClient({ mode: 'anvil', transport: http(destination) });
  const originCheats = createTestClient({ mode: 'anvil', transport: http(origin) });
  const latestTime = (url: string) => createPublicClient({ transport: http(url) }).getBlock({ blockTag: 'latest' }).then((block) => block.timestamp);
  const drained = await bridgeOnUpstream(upstream, index, async () => {
    const drainAt = [await latestTime(destination), await latestTime(origin)].reduce((a, b) => (a > b ? a : b)) + 5n;
    // Anvil's cheats change the state of its latest block: an empty block first keeps the earlier fills' block as it was
    await cheats.setNextBlockTimestamp({ timestamp: drainAt });
    await cheats.mine({ blocks: 1 });
    await cheats.setBalance({ address: upstream.control.solverAddress as Address, value: parseEther('0.001') });
    await originCheats.setNextBlockTimestamp({ timestamp: drainAt + 5n });
  });
  expect(drained.status).toBe('refund');
  return drained.id;
}
