// covers: status:pending, status:submitted, status:success, transition:waiting->pending, transition:pending->submitted, transition:submitted->success, field:supersededByRequestId
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { zeroAddress, type Address } from 'viem';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../../src/simulator';
import { getJson, postJson, publicClientFor, waitForSettledStatus } from '../../support/bridgeClient';
import { BTC_ADDRESS, BVM_CHAIN_ID, bvmRpc, signDepositStep } from '../../support/bvmClient';
import { cliProcessGroups, waitUntilGone, waitUntilSettled, type CliReady } from '../../support/cliProcess';
import { pooledChains } from '../../support/pooledNodes';

/**
 * The BVM chain with `--db` (durable-common design): its ledger journal gives back, after a graceful
 * restart or a SIGKILL, the same blocks and hashes, the same coins, the transactions still waiting
 * in the mempool, and request records that agree with it; a deposit left in the mempool is filled
 * exactly once after the next block.
 */
const EVM = 8453;
const dir = mkdtempSync(join(tmpdir(), 'intentsim-bvm-restart-'));
const groups = cliProcessGroups();
afterAll(() => {
  groups.killAll();
  rmSync(dir, { recursive: true, force: true });
});

interface Running {
  baseUrl: string;
  rpcUrl: string;
  bvmAccounts: Array<{ address: string; privateKey: string }>;
}

function runningOf(sim: RunningSimulator | CliReady): Running {
  const chain = sim.chains.find((c) => c.id === BVM_CHAIN_ID) as { rpcUrl: string; accounts?: Array<{ address: string; privateKey: string }> };
  return { baseUrl: sim.baseUrl, rpcUrl: chain.rpcUrl, bvmAccounts: chain.accounts! };
}

/** A BTC → ETH on Base quote for BVM account `index`, its deposit signed (not sent). */
async function quoteBtcDeposit(running: Running, index: number, recipient: Address, amount: bigint) {
  const account = running.bvmAccounts[index]!;
  const quote = await postJson(`${running.baseUrl}/quote/v2`, {
    user: account.address, recipient, originChainId: BVM_CHAIN_ID, destinationChainId: EVM,
    originCurrency: BTC_ADDRESS, destinationCurrency: zeroAddress, amount: String(amount), tradeType: 'EXACT_INPUT',
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const step = quote.body.steps[0];
  return { requestId: step.requestId as string, depositAddress: step.depositAddress as string, deposit: signDepositStep(step, account.privateKey), amountOut: BigInt(quote.body.details.currencyOut.amount) };
}

async function waitForStatus(baseUrl: string, requestId: string, wanted: string): Promise<void> {
  for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 5))) {
    const { body } = await getJson(`${baseUrl}/intents/status/v3?requestId=${requestId}`);
    if (body.status === wanted) return;
    if (Date.now() - started > 30_000) throw new Error(`request ${requestId} is ${body.status}, not ${wanted}`);
  }
}

/** What a client can read of the chain: heights, hashes, a mined transaction, the mempool, an account's coins. */
async function chainView(rpcUrl: string, minedTxid: string, account: string) {
  const height = await bvmRpc<number>(rpcUrl, 'getblockcount');
  const mined = await bvmRpc(rpcUrl, 'getrawtransaction', [minedTxid, true]);
  return {
    height,
    tip: await bvmRpc<string>(rpcUrl, 'getbestblockhash'),
    genesis: await bvmRpc<string>(rpcUrl, 'getblockhash', [0]),
    firstFunded: await bvmRpc<string>(rpcUrl, 'getblockhash', [height - 3]),
    mined: { hex: mined.hex, blockhash: mined.blockhash, time: mined.time, confirmations: mined.confirmations },
    minedBlock: await bvmRpc(rpcUrl, 'getblock', [mined.blockhash, 1]),
    mempool: await bvmRpc(rpcUrl, 'getrawmempool', [true]),
    coins: (await bvmRpc(rpcUrl, 'scantxoutset', ['start', [`addr(${account})`]])).unspents,
  };
}

describe('the BVM chain across a graceful restart on the same --db', () => {
  const options: StartSimulatorOptions = { port: 0, dbPath: join(dir, 'graceful.db'), env: {}, log: () => undefined, chains: [{ id: EVM, resetOnStart: false }, { id: BVM_CHAIN_ID }] };
  let sim: RunningSimulator | undefined;
  let genesisHeight = 0;

  afterAll(async () => {
    await sim?.stop();
  });

  it('keeps blocks, hashes, coins and the mempool; the deposit left in the mempool is filled exactly once after the next block', async () => {
    sim = await startSimulator(options);
    let running = runningOf(sim);
    genesisHeight = await bvmRpc<number>(running.rpcUrl, 'getblockcount');
    const recipient = sim.accounts[4]!.address as Address;

    // one deposit mined and filled before the restart
    const mined = await quoteBtcDeposit(running, 1, recipient, 1_500_000n);
    await bvmRpc(running.rpcUrl, 'sendrawtransaction', [mined.deposit.hex]);
    await bvmRpc(running.rpcUrl, 'generatetoaddress', [1, running.bvmAccounts[0]!.address]);
    expect((await waitForSettledStatus(running.baseUrl, mined.requestId)).status).toBe('success');
    const minedRecord = sim.control.requests.get(mined.requestId)!;
    // one left in the mempool: pending
    const waiting = await quoteBtcDeposit(running, 2, recipient, 2_500_000n);
    await bvmRpc(running.rpcUrl, 'sendrawtransaction', [waiting.deposit.hex]);
    await waitForStatus(running.baseUrl, waiting.requestId, 'pending');
    const before = await chainView(running.rpcUrl, mined.deposit.txid, running.bvmAccounts[1]!.address);
    expect(Object.keys(before.mempool)).toEqual([waiting.deposit.txid]);
    // an unpaid request regenerated before the restart (SPEC §2.3 supersededByRequestId)
    const unpaid = await quoteBtcDeposit(running, 6, recipient, 1_000_000n);
    const regenerated = await quoteBtcDeposit(running, 6, recipient, 1_100_000n);
    expect(sim.control.requests.get(unpaid.requestId)!.supersededByRequestId).toBe(regenerated.requestId);
    await sim.stop();

    sim = await startSimulator(options);
    running = runningOf(sim);
    expect(await chainView(running.rpcUrl, mined.deposit.txid, running.bvmAccounts[1]!.address)).toEqual(before);
    expect(sim.control.requests.get(mined.requestId)).toEqual(minedRecord);
    expect((await getJson(`${running.baseUrl}/intents/status/v3?requestId=${waiting.requestId}`)).body).toMatchObject({ status: 'pending', inTxHashes: [waiting.deposit.txid] });
    // and again after it: the same deposit address, now the newest request's
    const again = await quoteBtcDeposit(running, 6, recipient, 1_200_000n);
    expect(again.depositAddress).toBe(regenerated.depositAddress);
    expect(sim.control.requests.get(regenerated.requestId)!.supersededByRequestId).toBe(again.requestId);

    const balanceBefore = await publicClientFor(sim, EVM).getBalance({ address: recipient });
    const [blockHash] = await bvmRpc<string[]>(running.rpcUrl, 'generatetoaddress', [1, running.bvmAccounts[0]!.address]);
    const settled = await waitForSettledStatus(running.baseUrl, waiting.requestId);
    expect(settled).toMatchObject({ status: 'success', inTxHashes: [waiting.deposit.txid] });
    expect(settled.txHashes).toHaveLength(1);
    expect((await publicClientFor(sim, EVM).getBalance({ address: recipient })) - balanceBefore).toBe(waiting.amountOut);
    expect(sim.control.requests.eventsFor(waiting.requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);
    expect(sim.control.requests.get(waiting.requestId)!.inTxs[0]).toMatchObject({ txHash: waiting.deposit.txid, blockHash, status: 'success' });
    // the mined deposit's request was not touched again
    expect(sim.control.requests.get(mined.requestId)).toEqual(minedRecord);
  });

  it('a simulator without --db starts the chain from genesis', async () => {
    const fresh = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: BVM_CHAIN_ID }] });
    try {
      const { rpcUrl, bvmAccounts } = runningOf(fresh);
      expect(await bvmRpc<number>(rpcUrl, 'getblockcount')).toBe(genesisHeight);
      expect(await bvmRpc<string[]>(rpcUrl, 'getrawmempool')).toEqual([]);
      const descriptor = `addr(${bvmAccounts[1]!.address})`;
      expect((await bvmRpc(rpcUrl, 'scantxoutset', ['start', [descriptor]])).total_amount).toBe(10);
    } finally {
      await fresh.stop();
    }
  });
});

describe('the BVM block timer across a restart', () => {
  it('a block time set at run time carries on with the same schedule after a restart with the same --bvm-block-time', async () => {
    const startMs = 1_900_000_000_000;
    const options: StartSimulatorOptions = { port: 0, dbPath: join(dir, 'timer.db'), env: {}, log: () => undefined, clockMode: 'manual', chains: [{ id: BVM_CHAIN_ID }] };
    const first = await startSimulator({ ...options, clockStartMs: startMs });
    let rpcUrl = runningOf(first).rpcUrl;
    let height: number;
    try {
      expect((await postJson(`${first.baseUrl}/admin/chains/${BVM_CHAIN_ID}/interval-mining`, { seconds: 600 })).status).toBe(200);
      height = await bvmRpc<number>(rpcUrl, 'getblockcount');
      await first.control.advanceTime(900);
      expect(await bvmRpc<number>(rpcUrl, 'getblockcount')).toBe(height + 1);
    } finally {
      await first.stop();
    }

    // the clock carries on from where it stood; the timer owes its next block at start + 1200 s
    const second = await startSimulator({ ...options, clockStartMs: startMs + 900_000 });
    try {
      rpcUrl = runningOf(second).rpcUrl;
      expect(await bvmRpc<number>(rpcUrl, 'getblockcount')).toBe(height + 1);
      await second.control.advanceTime(299);
      expect(await bvmRpc<number>(rpcUrl, 'getblockcount')).toBe(height + 1);
      await second.control.advanceTime(1);
      expect(await bvmRpc<number>(rpcUrl, 'getblockcount')).toBe(height + 2);
      const tip = await bvmRpc(rpcUrl, 'getblock', [await bvmRpc<string>(rpcUrl, 'getbestblockhash'), 1]);
      expect(tip.time).toBe(startMs / 1000 + 1200);
    } finally {
      await second.stop();
    }
  });
});

describe('the BVM chain after a SIGKILL of the whole process group', () => {
  const startInOwnGroup = () => groups.start(['--chains', `${EVM},${BVM_CHAIN_ID}`, '--db', join(dir, 'killed.db')]);

  it('loses nothing a client was told: the mined deposit, the filled request, the deposit in the mempool (filled once after the next block)', async () => {
    const first = await startInOwnGroup();
    let running = runningOf(first.ready);
    const recipient = first.ready.accounts[5]!.address;
    const mined = await quoteBtcDeposit(running, 3, recipient, 1_000_000n);
    await bvmRpc(running.rpcUrl, 'sendrawtransaction', [mined.deposit.hex]);
    await bvmRpc(running.rpcUrl, 'generatetoaddress', [1, running.bvmAccounts[0]!.address]);
    const filled = await waitUntilSettled(running.baseUrl, mined.requestId);
    expect(filled.status).toBe('success');
    const waiting = await quoteBtcDeposit(running, 4, recipient, 2_000_000n);
    await bvmRpc(running.rpcUrl, 'sendrawtransaction', [waiting.deposit.hex]);
    await waitForStatus(running.baseUrl, waiting.requestId, 'pending');
    const before = await chainView(running.rpcUrl, mined.deposit.txid, running.bvmAccounts[3]!.address);

    process.kill(-first.top.pid!, 'SIGKILL');
    await waitUntilGone([first.top.pid!], 10_000);

    const second = await startInOwnGroup();
    running = runningOf(second.ready);
    expect(await chainView(running.rpcUrl, mined.deposit.txid, running.bvmAccounts[3]!.address)).toEqual(before);
    expect(await waitUntilSettled(running.baseUrl, mined.requestId)).toEqual(filled);
    expect((await getJson(`${running.baseUrl}/intents/status/v3?requestId=${waiting.requestId}`)).body.status).toBe('pending');

    await bvmRpc(running.rpcUrl, 'generatetoaddress', [1, running.bvmAccounts[0]!.address]);
    const settled = await waitUntilSettled(running.baseUrl, waiting.requestId);
    expect(settled.status).toBe('success');
    expect(settled.txHashes).toHaveLength(1);
    process.kill(-second.top.pid!, 'SIGTERM');
    await waitUntilGone([second.top.pid!], 20_000);
  }, 120_000);
});
