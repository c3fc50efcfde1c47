// covers: status:pending, status:success, transition:pending->submitted, transition:submitted->success
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Address, type Hex } from 'viem';
import { serviceReceiverArtifact } from '../../fixtures/contracts/artifacts.generated';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';

/** SPEC §3 with DESIGN's store rule: nothing about a request lives only in memory. */
describe('restart on the same database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-restart-'));
  const dbPath = join(dir, 'sim.db');
  const options: StartSimulatorOptions = { port: 0, dbPath, env: {}, log: () => undefined, chains: [{ id: 1, resetOnStart: false }, { id: 8453, resetOnStart: false }] };
  let sim: RunningSimulator | undefined;

  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function fillEventsFor(running: RunningSimulator, requestId: Hex) {
    const receiver = evmChainOf(running, 8453).contractAddresses.serviceReceiver;
    return publicClientFor(running, 8453).getContractEvents({
      address: receiver,
      abi: serviceReceiverArtifact.abi,
      eventName: 'Fill',
      args: { id: requestId },
      fromBlock: 0n,
    });
  }

  async function blockHashes(running: RunningSimulator, chainId: number): Promise<Hex[]> {
    const client = publicClientFor(running, chainId);
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    return Promise.all(Array.from({ length: head + 1 }, async (_, number) => (await client.getBlock({ blockNumber: BigInt(number) })).hash!));
  }

  it('finishes a request left pending by a stopped process, with exactly one fill', async () => {
    sim = await startSimulator({ ...options, solverPolicy: 'hold' });
    const user = sim.accounts[0]!;
    const recipient = sim.accounts[5]!.address as Address;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { recipient, amount: '30000000000000000' }));
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as Hex;
    const pending = sim.control.events.waitFor(requestId, ['pending']);
    const [depositHash] = await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    await pending;
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body).toMatchObject({ status: 'pending', inTxHashes: [depositHash], txHashes: [] });
    const balanceBefore = await publicClientFor(sim, 8453).getBalance({ address: recipient });
    const originBlocks = await blockHashes(sim, 1);
    await sim.stop();

    sim = await startSimulator(options);
    // the chain mined again from its journal is the same chain: every block hash, the deposit's included
    expect((await blockHashes(sim, 1)).slice(0, originBlocks.length)).toEqual(originBlocks);
    const settled = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(settled).toMatchObject({ status: 'success', inTxHashes: [depositHash] });
    expect(settled.txHashes).toHaveLength(1);
    const fills = await fillEventsFor(sim, requestId);
    expect(fills).toHaveLength(1);
    expect(fills[0]!.transactionHash).toBe(settled.txHashes[0]);
    const balanceAfter = await publicClientFor(sim, 8453).getBalance({ address: recipient });
    expect(balanceAfter - balanceBefore).toBe(BigInt(quote.body.details.currencyOut.amount));
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);

    // and once more: a finished request is not touched again
    await sim.stop();
    sim = await startSimulator(options);
    await sim.control.solver.idle();
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body.status).toBe('success');
    expect(await fillEventsFor(sim, requestId)).toHaveLength(1);
    expect(sim.control.requests.eventsFor(requestId)).toHaveLength(4);
  });

  it('re-sends the saved fill bytes instead of signing a second fill when a fill was signed but not mined', async () => {
    // the previous test left `sim` running on this database
    const running = sim!;
    running.control.solver.setPolicy('hold');
    const user = running.accounts[1]!;
    const quote = await postJson(`${running.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { amount: '20000000000000000' }));
    const requestId = quote.body.steps[0].requestId as Hex;
    const pending = running.control.events.waitFor(requestId, ['pending']);
    await executeQuoteSteps(running, user.privateKey as Hex, quote.body);
    await pending;

    // the destination stops mining: the fill is broadcast but stays in the mempool
    const destination = evmChainOf(running, 8453);
    await destination.testClient.setAutomine(false);
    const submitted = running.control.events.waitFor(requestId, ['submitted']);
    running.control.solver.setPolicy('fill');
    const submittedChange = await submitted;
    const fillHash = submittedChange.record.submittedTxs[0]!.txHash;
    await running.stop(); // Anvil saves its state (mempool excluded) on a graceful stop

    sim = await startSimulator(options);
    const settled = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(settled.status).toBe('success');
    expect(settled.txHashes).toEqual([fillHash]);
    expect(await fillEventsFor(sim, requestId)).toHaveLength(1);
  });
});
