// covers: status:success
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';
import { publicClientFor, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';
import { solanaConnection } from '../support/solanaConnections';
import { airdroppedKeypair, SVM_CHAIN_ID as SVM } from '../support/svmClient';

/** With `--db` a world revert is written into the database: a restart comes back to the reverted world. */
describe('a world revert survives a restart on the same database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-world-'));
  const options: StartSimulatorOptions = { port: 0, dbPath: join(dir, 'sim.db'), env: {}, log: () => undefined, chains: [{ id: 1, resetOnStart: false }, { id: 8453, resetOnStart: false }, { id: SVM }] };
  let sim: RunningSimulator | undefined;

  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const listed = async (running: RunningSimulator): Promise<string[]> =>
    ((await requestJson(`${running.baseUrl}/requests/v3?limit=50`, { method: 'GET', headers: { 'x-api-key': running.apiKey } })).body.requests as Array<{ id: string }>).map((request) => request.id);
  const solverEth = (running: RunningSimulator) => publicClientFor(running, 8453).getBalance({ address: running.control.solverAddress as `0x${string}` });

  it('the requests, the EVM chains and the Solana ledger restart as reverted; the next bridge succeeds', async () => {
    sim = await startSimulator(options);
    const first = await quoteAndDepositNative(sim, 1, { origin: 1, destination: 8453 });
    expect(await waitForSettledStatus(sim.baseUrl, first.requestId)).toMatchObject({ status: 'success' });
    const before = { listed: await listed(sim), solverEth: await solverEth(sim) };
    const id = await sim.snapshot();

    const second = await quoteAndDepositNative(sim, 2, { origin: 1, destination: 8453 });
    expect(await waitForSettledStatus(sim.baseUrl, second.requestId)).toMatchObject({ status: 'success' });
    const airdropped = await airdroppedKeypair(solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl), 1);
    await sim.revert(id);
    expect(await listed(sim)).toEqual(before.listed);
    await sim.stop();

    sim = await startSimulator(options);
    expect(await listed(sim)).toEqual(before.listed);
    expect(await solverEth(sim)).toBe(before.solverEth);
    expect(await solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl).getBalance(airdropped.publicKey)).toBe(0);
    const third = await quoteAndDepositNative(sim, 3, { origin: 1, destination: 8453 });
    expect(await waitForSettledStatus(sim.baseUrl, third.requestId)).toMatchObject({ status: 'success' });
  });
});
