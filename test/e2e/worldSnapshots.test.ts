// covers: status:pending, status:success
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction, sendAndConfirmTransaction, type Connection } from '@solana/web3.js';
import { createWalletClient, encodeFunctionData, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import { getJson, nativeBridgeBody, publicClientFor, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { bvmRpc, BVM_CHAIN_ID as BVM } from '../support/bvmClient';
import { evmChainOf } from '../support/evmChainOf';
import { listeningPid } from '../support/listeningPid';
import { pauseProcess, resumeProcess } from '../support/pauseProcess';
import { pooledChains } from '../support/pooledNodes';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';
import { solanaConnection } from '../support/solanaConnections';
import { airdroppedKeypair, SVM_CHAIN_ID as SVM } from '../support/svmClient';
import { sendFrom } from '../support/swapClient';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver';

// One simulator with six chains (the pooled EVM chains, Solana, Bitcoin, Lighter): the whole world
// snapshotted and reverted (sim.snapshot / revert / reset, and over HTTP), on real chains.

const LVM = 3586256;
const ORIGIN = 1;
const DESTINATION = 8453;

let sim: RunningSimulator;
let connection: Connection;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.setStatusCode(500); // deliveries stay pending (retried on the virtual clock)
  sim = await startSimulator({
    port: 0,
    env: {},
    log: () => undefined,
    chains: [...pooledChains(), { id: SVM }, { id: BVM }, { id: LVM }],
    webhook: { url: receiver.url },
  });
  connection = solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl);
});

afterAll(async () => {
  await sim?.stop();
  await receiver?.close();
});

const listed = async (): Promise<string[]> => {
  const answer = await requestJson(`${sim.baseUrl}/requests/v3?limit=50`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });
  expect(answer.status).toBe(200);
  return (answer.body.requests as Array<{ id: string }>).map((request) => request.id);
};
const statusOf = async (requestId: string) => (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
const bvmHeight = async (): Promise<number> => bvmRpc<number>(sim.chains.find((chain) => chain.id === BVM)!.rpcUrl, 'getblockcount');

/** The solver's balance of each currency of its start inventory, and the first EVM account's native balance, on every chain. */
async function balances(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const summary of sim.chains) {
    const liquidity = await getJson(`${sim.baseUrl}/chains/liquidity?chainId=${summary.id}`);
    expect(liquidity.status).toBe(200);
    out[`${summary.id}:solver`] = JSON.stringify(liquidity.body.liquidity);
    if (summary.vmType === 'evm') out[`${summary.id}:user0`] = String(await publicClientFor(sim, summary.id).getBalance({ address: sim.accounts[0]!.address as Address }));
  }
  return out;
}

/** A native bridge quoted with the default API key (its status changes are webhooks) and deposited. */
async function bridgeWithKey(index: number): Promise<Hex> {
  const user = sim.accounts[index]!;
  const quote = await requestJson(`${sim.baseUrl}/quote/v2`, {
    method: 'POST',
    headers: { 'x-api-key': sim.apiKey },
    body: nativeBridgeBody(user.address, { originChainId: ORIGIN, destinationChainId: DESTINATION }),
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const requestId = quote.body.steps[0].requestId as Hex;
  await sendFrom(sim, ORIGIN, user.privateKey, {
    to: evmChainOf(sim, ORIGIN).contractAddresses.depository,
    data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user.address as Address, requestId] }),
    value: BigInt(quote.body.details.currencyIn.amount),
  });
  await evmChainOf(sim, ORIGIN).syncNow();
  await sim.control.solver.idle();
  return requestId;
}

/** `through`: a Connection of its own after a revert (web3.js keeps a recent blockhash a while, and the ledger went back past it). */
async function solanaTransfer(through: Connection = connection): Promise<{ from: Keypair; to: Keypair }> {
  const from = await airdroppedKeypair(through, 2);
  const to = Keypair.generate();
  await sendAndConfirmTransaction(through, new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to.publicKey, lamports: LAMPORTS_PER_SOL / 2 })), [from]);
  return { from, to };
}

describe('world snapshots', () => {
  it('a revert brings back the requests listed, every chain and the clock; the next bridge succeeds', async () => {
    const before = { listed: await listed(), balances: await balances(), clock: sim.control.clock.now(), bvmHeight: await bvmHeight() };
    const id = await sim.snapshot();

    const bridged = await quoteAndDepositNative(sim, 1, { origin: ORIGIN, destination: DESTINATION });
    expect(await waitForSettledStatus(sim.baseUrl, bridged.requestId)).toMatchObject({ status: 'success' });
    const { from, to } = await solanaTransfer();
    expect(await connection.getBalance(to.publicKey)).toBe(LAMPORTS_PER_SOL / 2);
    await sim.control.chain(BVM).mine(3);
    await sim.control.advanceTime(3600);
    expect(await listed()).toContain(bridged.requestId.toLowerCase());
    expect(await bvmHeight()).toBe(before.bvmHeight + 3);

    const started = performance.now();
    await sim.revert(id);
    const took = performance.now() - started;

    expect(await listed()).toEqual(before.listed);
    expect((await statusOf(bridged.requestId)).status).not.toBe('success');
    expect(await balances()).toEqual(before.balances);
    expect(await connection.getBalance(from.publicKey)).toBe(0);
    expect(await connection.getBalance(to.publicKey)).toBe(0);
    expect(await bvmHeight()).toBe(before.bvmHeight);
    expect(Math.abs(sim.control.clock.now() - before.clock)).toBeLessThan(took + 1000);
    expect(sim.control.clock.now()).toBeLessThan(before.clock + 3_600_000);

    const next = await quoteAndDepositNative(sim, 2, { origin: ORIGIN, destination: DESTINATION });
    expect(await waitForSettledStatus(sim.baseUrl, next.requestId)).toMatchObject({ status: 'success' });
  });

  it('reset: the start balances and an empty listing', async () => {
    await sim.reset();
    const start = await balances();
    expect(await listed()).toEqual([]);
    const bridged = await quoteAndDepositNative(sim, 3, { origin: ORIGIN, destination: DESTINATION });
    expect(await waitForSettledStatus(sim.baseUrl, bridged.requestId)).toMatchObject({ status: 'success' });
    expect(await balances()).not.toEqual(start);
    await sim.reset();
    expect(await listed()).toEqual([]);
    expect(await balances()).toEqual(start);
  });

  it('a snapshot taken while a request is held reverts its deposit, status and pending webhook together; releasing the hold then fills it', async () => {
    await sim.reset();
    sim.control.solver.setPolicy('hold');
    const requestId = await bridgeWithKey(4);
    expect((await statusOf(requestId)).status).toBe('pending');
    await sim.control.webhooks.idle();
    const pendingAtSnapshot = sim.control.webhooks.store.listDeliveries({ requestId }).map((delivery) => ({ id: delivery.id, state: delivery.state }));
    expect(pendingAtSnapshot.length).toBeGreaterThan(0);
    const originBalanceHeld = await balances();
    const id = await sim.snapshot();

    sim.control.solver.setPolicy('fill');
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
    receiver.setStatusCode(200);
    await sim.control.advanceTime(600); // the retries come due and are delivered
    await sim.control.webhooks.idle();
    expect(sim.control.webhooks.store.listDeliveries({ requestId }).some((delivery) => delivery.state === 'delivered')).toBe(true);
    receiver.setStatusCode(500);

    await sim.revert(id);
    expect(sim.control.solver.getPolicy()).toBe('hold');
    expect((await statusOf(requestId)).status).toBe('pending');
    expect(sim.control.webhooks.store.listDeliveries({ requestId }).map((delivery) => ({ id: delivery.id, state: delivery.state }))).toEqual(pendingAtSnapshot);
    expect(sim.control.requests.get(requestId)!.inTxs).toHaveLength(1);
    expect(await balances()).toEqual(originBalanceHeld);

    sim.control.solver.setPolicy('fill');
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
  });

  it('a fill waiting in a pool when the world goes back is dropped, and the work waiting on it writes nothing; releasing the hold fills once', async () => {
    await sim.reset();
    sim.control.solver.setPolicy('hold');
    const requestId = await bridgeWithKey(6);
    const id = await sim.snapshot();
    await sim.control.chain(DESTINATION).setAutomine(false);
    try {
      sim.control.solver.setPolicy('fill');
      await sim.control.solver.idle({ unlessHeld: (tx) => sim.control.chain(tx.chainId).isPending(tx.txHash) });
      const [held] = sim.control.solver.work();
      expect(held?.awaiting).toMatchObject({ chainId: DESTINATION, kind: 'fill' });
      expect(await sim.control.chain(DESTINATION).isPending(held!.awaiting!.txHash)).toBe(true);

      await sim.revert(id);
      await sim.control.solver.idle();
      expect(sim.control.solver.work()).toEqual([]);
      expect(await sim.control.chain(DESTINATION).isPending(held!.awaiting!.txHash)).toBe(false);
      await sim.control.chain(DESTINATION).mine(1);
      await sim.control.solver.idle();
      expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending']);
    } finally {
      await sim.control.chain(DESTINATION).setAutomine(true);
    }
    sim.control.solver.setPolicy('fill');
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
  });

  it('keep: true is reusable; a snapshot is used up otherwise; a revert drops the later snapshots', async () => {
    await sim.reset();
    const kept = await sim.snapshot({ keep: true });
    for (let round = 0; round < 3; round++) {
      const bridged = await quoteAndDepositNative(sim, 5, { origin: ORIGIN, destination: DESTINATION });
      expect(await waitForSettledStatus(sim.baseUrl, bridged.requestId)).toMatchObject({ status: 'success' });
      await sim.revert(kept);
      expect(await listed()).toEqual([]);
    }

    const once = await sim.snapshot();
    await sim.revert(once);
    await expect(sim.revert(once)).rejects.toMatchObject({ errorCode: 'SNAPSHOT_NOT_FOUND' });

    const a = await sim.snapshot();
    await sim.control.chain(BVM).mine(1);
    const b = await sim.snapshot();
    await sim.revert(a);
    await expect(sim.revert(b)).rejects.toMatchObject({ errorCode: 'SNAPSHOT_NOT_FOUND' });
    // the kept one taken before A still stands
    await sim.revert(kept);
  });

  it('every chain changed goes back at once, each on its own, round after round to one kept snapshot', async () => {
    await sim.reset();
    const evmIds = sim.chains.filter((chain) => chain.vmType === 'evm').map((chain) => chain.id);
    expect(evmIds).toHaveLength(3);
    const heads = async () => ({
      evm: await Promise.all(evmIds.map(async (chainId) => (await publicClientFor(sim, chainId).getBlockNumber()).toString())),
      bvm: await bvmHeight(),
      balances: await balances(),
    });
    const kept = await sim.snapshot({ keep: true });
    const atSnapshot = await heads();
    for (let round = 1; round <= 3; round++) {
      // a different change on each chain, every round, all of them pending together at the revert
      await Promise.all([...evmIds, BVM, LVM].map((chainId) => sim.control.chain(chainId).mine(round)));
      const { to } = await solanaTransfer(solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl));
      const changed = await heads();
      expect(changed.evm.map(BigInt)).toEqual(atSnapshot.evm.map((number) => BigInt(number) + BigInt(round)));
      expect(changed.bvm).toBe(atSnapshot.bvm + round);

      await sim.revert(kept);
      expect(await heads()).toEqual(atSnapshot);
      expect(await connection.getBalance(to.publicKey)).toBe(0);
    }
    const bridged = await quoteAndDepositNative(sim, 7, { origin: ORIGIN, destination: DESTINATION });
    expect(await waitForSettledStatus(sim.baseUrl, bridged.requestId)).toMatchObject({ status: 'success' });
    await sim.revert(kept);
    expect(await heads()).toEqual(atSnapshot);
  });

  it('a revert puts back how each chain made blocks: EVM automine and interval mining (a transaction left in a pool is not mined by automine coming back), the Bitcoin block timer', async () => {
    const anvil = async <T>(chainId: number, method: string, params: unknown[] = []): Promise<T> => {
      const answer = await requestJson(evmChainOf(sim, chainId).rpcUrl, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method, params } });
      return answer.body.result as T;
    };
    const mining = async (chainId: number) => ({ automine: await anvil<boolean>(chainId, 'anvil_getAutomine'), interval: await anvil<number | null>(chainId, 'anvil_getIntervalMining') });
    await sim.control.chain(BVM).setIntervalMining(60);
    try {
      const id = await sim.snapshot();
      expect(await mining(ORIGIN)).toEqual({ automine: true, interval: null });

      // the later world: the origin holds a transfer in its pool, the destination mines every 7 s, Bitcoin's timer is off
      await sim.control.chain(ORIGIN).setAutomine(false);
      await sim.control.chain(DESTINATION).setIntervalMining(7);
      await sim.control.chain(BVM).setIntervalMining(0);
      const payer = privateKeyToAccount(sim.accounts[5]!.privateKey as Hex);
      const origin = evmChainOf(sim, ORIGIN);
      const wallet = createWalletClient({ account: payer, chain: origin.viemChain(), transport: http(origin.rpcUrl) });
      const held = await wallet.sendTransaction({ to: sim.accounts[6]!.address as Address, value: 1n });
      expect(await anvil<{ blockNumber: string | null }>(ORIGIN, 'eth_getTransactionByHash', [held])).toMatchObject({ blockNumber: null });

      await sim.revert(id);
      expect(await mining(ORIGIN)).toEqual({ automine: true, interval: null });
      expect(await mining(DESTINATION)).toEqual({ automine: true, interval: null });
      // the pool was emptied before automine came back: the later world's transfer is gone, never mined
      expect(await anvil<unknown>(ORIGIN, 'eth_getTransactionByHash', [held])).toBeNull();
      // Bitcoin's timer runs again, its next block due a minute after it was set
      const height = await bvmHeight();
      await sim.control.advanceTime(60);
      await expect.poll(bvmHeight).toBe(height + 1);
    } finally {
      await sim.control.chain(BVM).setIntervalMining(0);
    }
  });

  it('a revert waits for the requests in flight and holds those that come meanwhile: a quote whose chain read is slow writes its request first, and the revert takes it back', async () => {
    const id = await sim.snapshot();
    const destinationNode = listeningPid(Number(new URL(pooledChains([DESTINATION])[0]!.rpcUrl).port), 'anvil')!;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let reverted = false;
    await pauseProcess(destinationNode);
    let quote: Promise<{ status: number; body: any; answeredBeforeRevert: boolean }>;
    let reverting: Promise<void>;
    let heldLookUp: Promise<{ status: number; answeredAfterRevert: boolean }>;
    try {
      // in flight: the fill's simulation (another amount, so no kept answer) waits on the paused destination node
      quote = requestJson(`${sim.baseUrl}/quote/v2`, { method: 'POST', body: nativeBridgeBody(sim.accounts[4]!.address, { originChainId: ORIGIN, destinationChainId: DESTINATION, amount: '10000000000000777' }) }).then((answer) => ({ ...answer, answeredBeforeRevert: !reverted }));
      await sleep(100);
      reverting = sim.revert(id).then(() => void (reverted = true));
      await sleep(50);
      // sent while the revert waits for the quote: answered only once the revert is done
      heldLookUp = getJson(`${sim.baseUrl}/intents/status/v3?requestId=0x${'0'.repeat(63)}1`).then((answer) => ({ status: answer.status, answeredAfterRevert: reverted }));
      await sleep(200);
      expect(reverted).toBe(false);
    } finally {
      resumeProcess(destinationNode);
    }
    const quoted = await quote;
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    expect(quoted.answeredBeforeRevert).toBe(true);
    await reverting;
    expect(await heldLookUp).toEqual({ status: 404, answeredAfterRevert: true });
    // the quote's request was written before the revert put the tables back
    expect(await listed()).not.toContain(String(quoted.body.steps[0].requestId).toLowerCase());
  });

  it('over HTTP: POST /admin/snapshot, /admin/revert, /admin/reset, and their refusals', async () => {
    const admin = (path: string, body?: unknown) => requestJson(`${sim.baseUrl}${path}`, { method: 'POST', ...(body === undefined ? {} : { body }) });
    const taken = await admin('/admin/snapshot', {});
    expect(taken.status).toBe(201);
    expect(taken.body).toMatchObject({ id: expect.stringMatching(/^0x[0-9a-f]+$/), keep: false });
    const kept = await admin('/admin/snapshot', { keep: true });
    expect(kept.status).toBe(201);
    expect(kept.body.keep).toBe(true);
    const noBody = await fetch(`${sim.baseUrl}/admin/snapshot`, { method: 'POST' });
    expect(noBody.status).toBe(201);

    await sim.control.chain(BVM).mine(2);
    const height = await bvmHeight();
    expect(await admin('/admin/revert', { id: kept.body.id })).toMatchObject({ status: 200, body: { revertedTo: kept.body.id } });
    expect(await bvmHeight()).toBe(height - 2);
    expect(await admin('/admin/revert', { id: kept.body.id })).toMatchObject({ status: 200 });

    // the one taken without a body came after the kept one: dropped by the revert
    const dropped = await admin('/admin/revert', { id: ((await noBody.json()) as { id: string }).id });
    expect(dropped).toMatchObject({ status: 404, body: { errorCode: 'SNAPSHOT_NOT_FOUND', message: expect.stringContaining('no world snapshot') } });
    expect(await admin('/admin/revert', { id: '0xfff' })).toMatchObject({ status: 404, body: { errorCode: 'SNAPSHOT_NOT_FOUND' } });
    expect(await admin('/admin/revert', { id: 'latest' })).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
    expect(await admin('/admin/revert', {})).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
    expect(await admin('/admin/snapshot', { keep: 'yes' })).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });

    expect(await admin('/admin/reset')).toMatchObject({ status: 200, body: { reset: true } });
    expect(await listed()).toEqual([]);
  });
});
