// covers: status:success
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../src/simulator';
import { publicClientFor, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';
import { pauseProcess, resumeProcess } from '../support/pauseProcess';
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

  it("a user's transaction sent to an EVM chain's URL while the world goes back is forwarded once the revert is done, lands in the world put back, and is there after a restart", async () => {
    const running = sim ?? (sim = await startSimulator(options));
    const id = await running.snapshot();
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const slowNode = evmChainOf(running, 8453).nodePid!;
    const origin = evmChainOf(running, 1);
    const wallet = createWalletClient({ account: privateKeyToAccount(running.accounts[8]!.privateKey as Hex), chain: origin.viemChain(), transport: http(origin.rpcUrl) });
    const headAtSnapshot = await publicClientFor(running, 1).getBlockNumber();
    let reverted = false;
    let reverting: Promise<void>;
    let sent: Promise<{ hash: Hex; answeredAfterRevert: boolean }>;
    // the revert waits on the other chain's node, paused: the transfer on chain 1 is held by the hold alone
    await pauseProcess(slowNode);
    try {
      reverting = running.revert(id).then(() => void (reverted = true));
      await sleep(50);
      sent = wallet.sendTransaction({ to: running.accounts[9]!.address as Address, value: 1n }).then((hash) => ({ hash, answeredAfterRevert: reverted }));
      await sleep(250);
      expect(reverted).toBe(false);
    } finally {
      resumeProcess(slowNode);
    }
    await reverting;
    const { hash, answeredAfterRevert } = await sent;
    expect(answeredAfterRevert).toBe(true);
    const receipt = await publicClientFor(running, 1).waitForTransactionReceipt({ hash, pollingInterval: 5 });
    expect(receipt).toMatchObject({ status: 'success', blockNumber: headAtSnapshot + 1n });
    await running.stop();

    sim = await startSimulator(options);
    expect(await publicClientFor(sim, 1).getTransactionReceipt({ hash })).toMatchObject({ status: 'success', blockNumber: headAtSnapshot + 1n });
  });
});
