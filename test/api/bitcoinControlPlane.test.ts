import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { postJson, requestJson } from '../support/bridgeClient';
import { MAX_TIMER_BLOCKS_PER_STEP } from '../../src/nodes/bvm';
import { BTC_ADDRESS, BVM_CHAIN_ID, bvmRpc, signDepositStep } from '../support/bvmClient';
import { pooledChains } from '../support/pooledNodes';

// covers: status:pending, status:failure, transition:pending->failure, failReason:DEPOSIT_REORGED

/** The control plane on the Bitcoin chain: mine, the clock (with interval mining), snapshot / revert and reorg over HTTP. */
describe('control routes on the Bitcoin chain (8253038)', () => {
  let sim: RunningSimulator;
  let rpcUrl: string;
  const admin = (method: string, path: string, body?: unknown) => requestJson(`${sim.baseUrl}${path}`, { method, body });
  const height = () => bvmRpc<number>(rpcUrl, 'getblockcount');

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, env: {}, log: () => undefined, clockMode: 'manual', clockStartMs: Date.UTC(2026, 0, 1), chains: [...pooledChains([8453]), { id: BVM_CHAIN_ID }] });
    rpcUrl = sim.chains.find((chain) => chain.id === BVM_CHAIN_ID)!.rpcUrl;
  });
  afterAll(async () => {
    await sim?.stop();
  });

  /** A BTC → Base USDC quote paid from Bitcoin account `index`: the deposit waits in the mempool. */
  async function depositFrom(index: number): Promise<{ requestId: string; txid: string }> {
    const account = sim.chains.find((chain) => chain.id === BVM_CHAIN_ID)!.accounts![index]!;
    const usdc = (await requestJson(`${sim.baseUrl}/chains`, { method: 'GET' })).body.chains.find((chain: { id: number }) => chain.id === 8453).erc20Currencies.find((c: { symbol: string }) => c.symbol === 'USDC').address;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, { user: account.address, recipient: sim.accounts[7]!.address, originChainId: BVM_CHAIN_ID, destinationChainId: 8453, originCurrency: BTC_ADDRESS, destinationCurrency: usdc, amount: '1500000', tradeType: 'EXACT_INPUT' });
    expect(quote.status).toBe(200);
    const signed = signDepositStep(quote.body.steps[0], account.privateKey);
    expect(await bvmRpc(rpcUrl, 'sendrawtransaction', [signed.hex])).toBe(signed.txid);
    await sim.control.solver.idle();
    const requestId = quote.body.steps[0].requestId as string;
    expect(sim.control.requests.get(requestId)?.status).toBe('pending');
    return { requestId, txid: signed.txid };
  }

  it('mines blocks, and mines on its block timer as the virtual clock advances', async () => {
    const start = await height();
    expect((await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/mine`, { blocks: 2 })).body).toEqual({ chainId: BVM_CHAIN_ID, mined: 2 });
    expect(await height()).toBe(start + 2);
    expect((await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/interval-mining`, { seconds: 600 })).body).toEqual({ chainId: BVM_CHAIN_ID, intervalSeconds: 600 });
    expect((await admin('POST', '/admin/clock/advance', { seconds: 1800 })).body).toEqual({ now: Date.UTC(2026, 0, 1) + 1_800_000, mode: 'manual' });
    expect(await height()).toBe(start + 5);
    const tip = await bvmRpc<{ time: number }>(rpcUrl, 'getblockheader', [await bvmRpc(rpcUrl, 'getbestblockhash')]);
    expect(tip.time).toBe(Date.UTC(2026, 0, 1) / 1000 + 1800);
    await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/interval-mining`, { seconds: 0 });
  });

  it('reverts to a snapshot taken before a deposit waiting in the mempool: the deposit is gone with nothing spending it, so the request fails DEPOSIT_REORGED; a snapshot is used once', async () => {
    const start = await bvmRpc<string>(rpcUrl, 'getbestblockhash');
    const snapshot = await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/snapshot`);
    expect(snapshot).toMatchObject({ status: 201, body: { chainId: BVM_CHAIN_ID, id: expect.stringMatching(/^0x[0-9a-f]+$/) } });
    const { requestId, txid } = await depositFrom(2);
    expect((await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/revert`, { id: snapshot.body.id })).body).toEqual({ chainId: BVM_CHAIN_ID, revertedTo: snapshot.body.id });
    expect(await bvmRpc(rpcUrl, 'getbestblockhash')).toBe(start);
    await expect(bvmRpc(rpcUrl, 'getrawtransaction', [txid])).rejects.toThrow(/-5/);
    await sim.control.solver.idle();
    const record = sim.control.requests.get(requestId)!;
    expect(record).toMatchObject({ status: 'failure', failReason: 'DEPOSIT_REORGED' });
    expect(record.inTxs[0]).toMatchObject({ status: 'failure', metadata: { reorg: { failReason: 'DEPOSIT_REORGED' } } });
    const again = await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/revert`, { id: snapshot.body.id });
    expect(again).toMatchObject({ status: 400, body: { errorCode: 'CHEAT_CALL_REFUSED' } });
  });

  it('a reorg replaces the tip with another block; the filled deposit returns to the mempool and the request stays success; a depth of 0 is refused', async () => {
    const { requestId, txid } = await depositFrom(3);
    await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/mine`, { blocks: 1 });
    await sim.control.solver.idle();
    expect(sim.control.requests.get(requestId)?.status).toBe('success');
    const [tipBefore, heightBefore] = [await bvmRpc<string>(rpcUrl, 'getbestblockhash'), await height()];
    expect((await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/reorg`, { depth: 1 })).body).toEqual({ chainId: BVM_CHAIN_ID, depth: 1 });
    expect(await height()).toBe(heightBefore);
    expect(await bvmRpc(rpcUrl, 'getbestblockhash')).not.toBe(tipBefore);
    expect(await bvmRpc(rpcUrl, 'getrawmempool')).toEqual([txid]);
    await sim.control.solver.idle();
    expect(sim.control.requests.get(requestId)).toMatchObject({ status: 'success', outTxs: [expect.objectContaining({ type: 'fill' })] });
    expect((await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/reorg`, { depth: 0 })).body).toMatchObject({ errorCode: expect.any(String) });
  });

  // last: it moves the shared manual clock ten years on
  it('a ten-year clock step at a 1 s block time answers, mining only the last MAX_TIMER_BLOCKS_PER_STEP blocks, each timestamped when it was due', async () => {
    const start = await height();
    const before = (await admin('GET', '/admin/clock')).body.now as number;
    expect((await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/interval-mining`, { seconds: 1 })).status).toBe(200);
    const tenYears = 10 * 365 * 86_400;
    expect((await admin('POST', '/admin/clock/advance', { seconds: tenYears })).body).toEqual({ now: before + tenYears * 1000, mode: 'manual' });
    expect(await height()).toBe(start + MAX_TIMER_BLOCKS_PER_STEP);
    const tip = await bvmRpc<{ time: number; previousblockhash: string }>(rpcUrl, 'getblockheader', [await bvmRpc(rpcUrl, 'getbestblockhash')]);
    expect(tip.time).toBe(before / 1000 + tenYears);
    expect((await bvmRpc<{ time: number }>(rpcUrl, 'getblockheader', [tip.previousblockhash])).time).toBe(tip.time - 1);
    // the schedule carries on from there: one more second, one more block
    await admin('POST', '/admin/clock/advance', { seconds: 1 });
    expect(await height()).toBe(start + MAX_TIMER_BLOCKS_PER_STEP + 1);
    await admin('POST', `/admin/chains/${BVM_CHAIN_ID}/interval-mining`, { seconds: 0 });
  });
});
