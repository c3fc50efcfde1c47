import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { erc20Abi, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../../src/simulator';
import { startSimulator } from '../../../src/simulator';
import { executeQuoteSteps, getJson, postJson, publicClientFor, usdcOf, waitForSettledStatus } from '../../support/bridgeClient';
import { pooledChains } from '../../support/pooledNodes';
import { BvmChain } from '../../../src/chains/bvm/BvmChain';
import { chainAdapterOf } from '../../support/chainAdapterOf';
import { signP2wpkhTransaction } from '../../../src/nodes/bvm/bvmTransactions';

// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, endpoint:GET /chains, status:pending, status:submitted, status:success, status:failure, status:refund, failReason:DEPOSIT_REORGED, failReason:SOLVER_BALANCE_TOO_LOW, transition:waiting->pending, transition:pending->failure, transition:failure->refund, transition:pending->refund, transition:pending->submitted, transition:submitted->success, errorCode:INVALID_ADDRESS

const BVM = 8253038;
const EVM = 8453;
const BTC = 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8';
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

let sim: RunningSimulator;
let rpcUrl: string;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    env: {},
    log: process.env.BVM_TEST_LOG ? (m: string, e?: unknown) => console.log(m, e ?? '') : () => undefined,
    chains: [...pooledChains([EVM]), { id: BVM }],
  });
  rpcUrl = sim.chains.find((chain) => chain.id === BVM)!.rpcUrl;
});

afterAll(async () => {
  await sim?.stop();
});

/** One call to the chain's Bitcoin Core JSON-RPC, as bitcoin-cli sends it (JSON-RPC 1.0, basic auth). */
async function rpc<T = any>(method: string, params: unknown[] = []): Promise<{ status: number; result: T; error: { code: number; message: string } | null }> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
    body: JSON.stringify({ jsonrpc: '1.0', id: 'test', method, params }),
  });
  const body = (await response.json()) as { result: T; error: { code: number; message: string } | null };
  return { status: response.status, ...body };
}

async function waitForStatus(requestId: string, wanted: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { body } = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    if (body.status === wanted) return;
    if (['success', 'failure', 'refund'].includes(body.status) || Date.now() - started > 30_000) throw new Error(`request ${requestId} is ${body.status}, not ${wanted}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function sats(btc: number): bigint {
  return BigInt(Math.round(btc * 1e8));
}

describe('the BVM chain through the simulator', () => {
  it('lists the BVM chain in /chains and its funded bcrt1q accounts (keys in WIF), funded by confirmed outputs', async () => {
    const { body } = await getJson(`${sim.baseUrl}/chains`);
    const bvm = body.chains.find((chain: { id: number }) => chain.id === BVM);
    expect(bvm).toMatchObject({ vmType: 'bvm', currency: { address: BTC, decimals: 8, symbol: 'BTC' }, httpRpcUrl: rpcUrl });
    expect(bvm.solverAddresses).toEqual([expect.stringMatching(/^bcrt1q/)]);
    expect(bvm.protocol.v2.depository).toBe(bvm.solverAddresses[0]);
    const summary = sim.chains.find((chain) => chain.id === BVM)!;
    expect(summary.accounts).toHaveLength(10);
    const account = summary.accounts![0]!;
    expect(account.address).toMatch(/^bcrt1q[0-9a-z]{38}$/);
    const key = ECPair.fromWIF(account.privateKey, network);
    expect(bitcoin.payments.p2wpkh({ pubkey: key.publicKey, network }).address).toBe(account.address);
    const scan = await rpc('scantxoutset', ['start', [`addr(${account.address})`]]);
    expect(scan.result.unspents).toHaveLength(10);
    expect(scan.result.total_amount).toBe(10);
    const info = await rpc('getblockchaininfo');
    expect(info.result).toMatchObject({ chain: 'regtest', blocks: (await rpc('getblockcount')).result });
    expect(info.result.blocks).toBeGreaterThan(100);
  });

  it('answers errors in bitcoind shape: unknown transaction -5, bad hex -22, unknown method 404', async () => {
    const missing = await rpc('getrawtransaction', ['00'.repeat(32), true]);
    expect(missing).toMatchObject({ status: 500, result: null, error: { code: -5 } });
    expect((await rpc('sendrawtransaction', ['zz'])).error?.code).toBe(-22);
    expect(await rpc('nosuchmethod')).toMatchObject({ status: 404, error: { code: -32601 } });
  });

  it('refuses an EVM address on the BVM side and a bcrt1 address on the EVM side (INVALID_ADDRESS)', async () => {
    const evmUser = sim.accounts[0]!.address;
    const bvmUser = sim.chains.find((chain) => chain.id === BVM)!.accounts![0]!.address;
    const base = { originChainId: BVM, destinationChainId: EVM, originCurrency: BTC, destinationCurrency: '0x0000000000000000000000000000000000000000', amount: '1000000', tradeType: 'EXACT_INPUT' };
    expect(await postJson(`${sim.baseUrl}/quote/v2`, { ...base, user: evmUser, recipient: evmUser })).toMatchObject({ status: 400, body: { errorCode: 'INVALID_ADDRESS' } });
    expect(await postJson(`${sim.baseUrl}/quote/v2`, { ...base, user: bvmUser, recipient: bvmUser })).toMatchObject({ status: 400, body: { errorCode: 'INVALID_ADDRESS' } });
  });

  it('BTC → USDC on an EVM chain: the user signs the quote PSBT, the request is pending while the deposit waits in the mempool, success once mined', async () => {
    const account = sim.chains.find((chain) => chain.id === BVM)!.accounts![1]!;
    const key = ECPair.fromWIF(account.privateKey, network);
    const usdc = await usdcOf(sim.baseUrl, EVM);
    const recipient = sim.accounts[6]!.address as Address;
    const balance = () => publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const before = await balance();

    const amount = 1_500_000n; // 0.015 BTC
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: account.address, recipient, originChainId: BVM, destinationChainId: EVM, originCurrency: BTC, destinationCurrency: usdc, amount: String(amount), tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    expect(step).toMatchObject({ id: 'deposit', kind: 'transaction', depositAddress: expect.stringMatching(/^bcrt1q/) });
    const requestId = step.requestId as string;

    // what the SDK's Bitcoin adapter does: Psbt.fromHex(item.data.psbt), the wallet signs and finalizes
    const psbt = bitcoin.Psbt.fromHex(step.items[0].data.psbt, { network });
    expect(psbt.data.inputs.every((input) => input.witnessUtxo !== undefined)).toBe(true);
    const deposit = psbt.txOutputs.find((output) => output.address === step.depositAddress)!;
    expect(deposit.value).toBe(amount);
    const inputs = psbt.data.inputs.reduce((sum, input) => sum + input.witnessUtxo!.value, 0n);
    const outputs = psbt.txOutputs.reduce((sum, output) => sum + output.value, 0n);
    expect(inputs - outputs).toBeGreaterThan(0n); // the network fee, on top of the amount
    psbt.signAllInputs(key);
    expect(psbt.validateSignaturesOfAllInputs((pubkey, hash, signature) => ecc.verify(hash, pubkey, signature))).toBe(true);
    psbt.finalizeAllInputs();
    const tx = psbt.extractTransaction();
    const sent = await rpc('sendrawtransaction', [tx.toHex()]);
    expect(sent.error).toBeNull();
    expect(sent.result).toBe(tx.getId());

    // SPEC §3: pending from the mempool; not filled before the block
    await waitForStatus(requestId, 'pending');
    expect((await rpc('getrawmempool')).result).toContain(tx.getId());
    const unconfirmed = await rpc('getrawtransaction', [tx.getId(), true]);
    expect(unconfirmed.result.confirmations).toBeUndefined();
    expect(await balance()).toBe(before);
    const pendingRecord = sim.control.requests.get(requestId)!;
    expect(pendingRecord.inTxs.map((entry) => entry.txHash)).toEqual([tx.getId()]);
    expect(pendingRecord.outTxs).toEqual([]);
    // every BVM-origin request is a deposit-address request: the payment is its deposit
    expect(pendingRecord.depositAddress).toMatchObject({ address: step.depositAddress, type: 'open', depositor: account.address, depositTxHash: tx.getId() });

    const [blockHash] = (await rpc<string[]>('generatetoaddress', [1, account.address])).result;
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    expect(status.inTxHashes).toContain(tx.getId());
    expect((await balance()) - before).toBe(BigInt(quote.body.details.currencyOut.amount));
    const mined = await rpc('getrawtransaction', [tx.getId(), true]);
    expect(mined.result).toMatchObject({ txid: tx.getId(), blockhash: blockHash, confirmations: 1 });
    const block = await rpc('getblock', [blockHash, 1]);
    expect(block.result.tx).toContain(tx.getId());
    expect(sim.control.requests.get(requestId)!.inTxs[0]).toMatchObject({ chainId: BVM, block: block.result.height, status: 'success' });
  });

  it('ETH on an EVM chain → BTC: the solver pays a bcrt1 recipient from its own coins; submitted until a block mines it', async () => {
    const user = sim.accounts[7]!;
    const recipientKey = ECPair.fromPrivateKey(createHash('sha256').update('bvm-bridge-recipient').digest(), { network });
    const recipient = bitcoin.payments.p2wpkh({ pubkey: recipientKey.publicKey, network }).address!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address, recipient, originChainId: EVM, destinationChainId: BVM,
      originCurrency: '0x0000000000000000000000000000000000000000', destinationCurrency: BTC, amount: '100000000000000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const expected = BigInt(quote.body.details.currencyOut.amount);
    expect(expected).toBeGreaterThan(0n);
    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const requestId = quote.body.steps.at(-1).requestId as string;

    await waitForStatus(requestId, 'submitted');
    const { body: submitted } = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    const fill = submitted.txHashes[0] as string;
    expect((await rpc('getrawmempool')).result).toContain(fill);
    expect((await rpc('scantxoutset', ['start', [`addr(${recipient})`]])).result.unspents).toEqual([]);

    await rpc('generatetoaddress', [1, recipient]);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    const scan = await rpc('scantxoutset', ['start', [`addr(${recipient})`]]);
    const paid = scan.result.unspents.filter((coin: { txid: string; coinbase: boolean }) => coin.txid === fill);
    expect(paid).toHaveLength(1);
    expect(sats(paid[0].amount)).toBe(expected);
    const listed = await rpc('listunspent', [1, 9999999, [recipient]]);
    expect(listed.result.some((coin: { txid: string; confirmations: number }) => coin.txid === fill && coin.confirmations === 1)).toBe(true);
  });

  it('a deposit that leaves the mempool unmined fails the pending request (DEPOSIT_REORGED, its inTxs entry failure)', async () => {
    const account = sim.chains.find((chain) => chain.id === BVM)!.accounts![2]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: account.address, recipient: sim.accounts[8]!.address, originChainId: BVM, destinationChainId: EVM,
      originCurrency: BTC, destinationCurrency: '0x0000000000000000000000000000000000000000', amount: '2000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const psbt = bitcoin.Psbt.fromHex(step.items[0].data.psbt, { network });
    psbt.signAllInputs(ECPair.fromWIF(account.privateKey, network)).finalizeAllInputs();
    const txid = (await rpc('sendrawtransaction', [psbt.extractTransaction().toHex()])).result as string;
    await waitForStatus(step.requestId, 'pending');

    // the wallet abandons it: the ledger drops it from the mempool (there is no bitcoind RPC for this)
    chainAdapterOf(sim, BVM, BvmChain).ledger.evict(txid);
    const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
    expect(status).toMatchObject({ status: 'failure', failReason: 'DEPOSIT_REORGED' });
    expect(sim.control.requests.get(step.requestId)!.inTxs).toEqual([expect.objectContaining({ txHash: txid, status: 'failure' })]);
    expect((await rpc('getrawmempool')).result).not.toContain(txid);
  });

  it('a refunded BVM deposit goes back to the depositor in a transaction the solver signs (the deposit sent through the chain adapter\'s user wallet)', async () => {
    const chain = chainAdapterOf(sim, BVM, BvmChain);
    const account = sim.chains.find((c) => c.id === BVM)!.accounts![3]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: account.address, recipient: sim.accounts[5]!.address, originChainId: BVM, destinationChainId: EVM,
      originCurrency: BTC, destinationCurrency: '0x0000000000000000000000000000000000000000', amount: '3000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const rule = sim.control.solver.addRule({ match: { requestId: step.requestId }, action: { kind: 'refund' } });
    try {
      const sent = await chain.userWallet.sendUserTransaction(account.privateKey, step.items[0]);
      expect(sent.status).toBe('sent');
      await waitForStatus(step.requestId, 'pending');
      await rpc('generatetoaddress', [1, chain.keys.miner.address]);
      // the refund waits in the mempool until the next block
      const started = Date.now();
      let refund: { txHash: string } | undefined;
      while (!(refund = sim.control.requests.get(step.requestId)!.outTxs.find((tx) => tx.type === 'refund')) && Date.now() - started < 30_000) {
        const mempool = (await rpc<string[]>('getrawmempool')).result;
        if (mempool.length > 0) await rpc('generatetoaddress', [1, chain.keys.miner.address]);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
      expect(status.status).toBe('refund');
      const mined = await rpc('getrawtransaction', [refund!.txHash, true]);
      expect(mined.result.confirmations).toBeGreaterThanOrEqual(1);
      const toUser = mined.result.vout.filter((output: { scriptPubKey: { address?: string } }) => output.scriptPubKey.address === account.address);
      expect(toUser).toHaveLength(1);
      expect(sats(toUser[0].value)).toBeGreaterThan(0n);
      expect(sats(toUser[0].value)).toBeLessThanOrEqual(3_000_000n);
    } finally {
      sim.control.solver.removeRule(rule.id);
    }
  });

  it('mines a block every N seconds of the virtual clock once interval mining is on (what --bvm-block-time sets at start), block times from the clock', async () => {
    expect((await postJson(`${sim.baseUrl}/admin/chains/${BVM}/interval-mining`, { seconds: 600 })).status).toBe(200);
    try {
      const before = (await rpc<number>('getblockcount')).result;
      await sim.control.advanceTime(1200);
      expect((await rpc<number>('getblockcount')).result).toBe(before + 2);
      const tip = await rpc('getblock', [(await rpc<string>('getbestblockhash')).result, 1]);
      expect(Math.abs(tip.result.time - Math.floor(sim.control.clock.now() / 1000))).toBeLessThanOrEqual(1);
      expect(tip.result.previousblockhash).toBe((await rpc<string>('getblockhash', [before + 1])).result);
    } finally {
      await postJson(`${sim.baseUrl}/admin/chains/${BVM}/interval-mining`, { seconds: 0 });
    }
  });

  it('the solver short of coins on the BVM chain fails the fill (SOLVER_BALANCE_TOO_LOW) and refunds the EVM deposit', async () => {
    const chain = chainAdapterOf(sim, BVM, BvmChain);
    const user = sim.accounts[9]!;
    const recipient = chain.userWallet.addressForLabel('short-solver-recipient');
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address, recipient, originChainId: EVM, destinationChainId: BVM,
      originCurrency: '0x0000000000000000000000000000000000000000', destinationCurrency: BTC, amount: '100000000000000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    // after the quote, the solver's coins go elsewhere but one small one
    const solver = chain.keys.solver;
    const coins = chain.ledger.coinsOf(solver.script, true);
    const total = coins.reduce((sum, coin) => sum + coin.value, 0n);
    const sweep = signP2wpkhTransaction(coins.map((coin) => ({ coin, key: solver })), [
      { script: chain.keys.miner.script, value: total - 100_000n },
      { script: solver.script, value: 50_000n },
    ]);
    expect((await rpc('sendrawtransaction', [sweep.toHex()])).error).toBeNull();
    await rpc('generatetoaddress', [1, chain.keys.miner.address]);

    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const requestId = quote.body.steps.at(-1).requestId as string;
    // failure, then refund once the refund of the deposit is mined (on automine that can be before the first look)
    let status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(['failure', 'refund']).toContain(status.status);
    for (const started = Date.now(); status.status !== 'refund' && Date.now() - started < 30_000; await new Promise((resolve) => setTimeout(resolve, 5))) {
      status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    }
    expect(status).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(expect.arrayContaining(['failure', 'refund']));
    expect(status.txHashes ?? []).toEqual([]);
    expect((await rpc('scantxoutset', ['start', [`addr(${recipient})`]])).result.unspents).toEqual([]);
  });
});
