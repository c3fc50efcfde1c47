import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Client from 'bitcoin-core';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { startBvmNode, type StartedBvmNode } from '../../../src/nodes/bvm/startBvmNode';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

// A Bitcoin node forking another (issue 35, part 3): the upstream is a second embedded node with an
// address funded only there by a mined transaction; the fork is read as integrators read it (Esplora
// over plain fetch, the bitcoin-core npm client for JSON-RPC) and spent from with bitcoinjs-lib.
const ECPair = ECPairFactory(ecc);
const REGTEST = bitcoin.networks.regtest;
// a key neither node's mnemonic derives: its address is funded upstream only
const holder = ECPair.fromPrivateKey(Buffer.alloc(32, 7), { network: REGTEST });
const holderPayment = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(holder.publicKey), network: REGTEST });
const holderAddress = holderPayment.address!;
const FUNDED = 50_000_000n;

let upstream: StartedBvmNode;
let fork: StartedBvmNode;
let upstreamRpc: Client;
let forkRpc: Client;
const journal = new LedgerJournalStore(openDatabase(':memory:'));
let funding: { txid: string; vout: number; hex: string };
/** The upstream wallet's mining address (the same key on the fork: wallets derive from the node's mnemonic). */
let minedTo: string;
let spendTxid: string;
const running: StartedBvmNode[] = [];

async function get(base: string, path: string): Promise<{ status: number; text: string; json: () => any }> {
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

/** The holder's upstream output spent to `to`, signed with the holder's key over `claimedValue` (the output's real amount unless a test lies). */
function spendOfFunding(to: string, claimedValue: bigint = FUNDED): string {
  const psbt = new bitcoin.Psbt({ network: REGTEST })
    .addInput({ hash: funding.txid, index: funding.vout, witnessUtxo: { script: holderPayment.output!, value: claimedValue } })
    .addOutput({ address: to, value: FUNDED - 10_000n });
  psbt.signInput(0, { publicKey: Buffer.from(holder.publicKey), sign: (hash: Uint8Array) => Buffer.from(holder.sign(hash)) });
  psbt.finalizeAllInputs();
  return psbt.extractTransaction().toHex();
}

beforeAll(async () => {
  upstream = await startBvmNode({ accountCount: 2 });
  running.push(upstream);
  upstreamRpc = new Client({ host: upstream.rpcUrl });
  // upstream only: a wallet mines, pays the holder, and the payment is mined
  await upstreamRpc.command('createwallet', 'funder');
  const funder = new Client({ host: upstream.rpcUrl, wallet: 'funder' });
  const mine = (await funder.command('getnewaddress')) as string;
  await upstreamRpc.command('generatetoaddress', 101, mine);
  const txid = (await funder.command('sendtoaddress', holderAddress, 0.5)) as string;
  await upstreamRpc.command('generatetoaddress', 1, mine);
  const hex = (await upstreamRpc.command('getrawtransaction', txid)) as string;
  const vout = bitcoin.Transaction.fromHex(hex).outs.findIndex((output) => Buffer.from(output.script).equals(Buffer.from(holderPayment.output!)));
  funding = { txid, vout, hex };
  minedTo = mine;

  fork = await startBvmNode({ accountCount: 2, fork: { esploraUrl: upstream.esploraUrl }, journal });
  running.push(fork);
  forkRpc = new Client({ host: fork.rpcUrl });
});

afterAll(async () => {
  for (const node of running) await node.stop();
});

describe('a Bitcoin node forking an upstream Esplora', () => {
  it('shows an output that exists only upstream: Esplora utxo and balance stats, listunspent, gettxout, the funding transaction by id', async () => {
    expect(await forkRpc.command('getblockcount')).toBeLessThan((await upstreamRpc.command('getblockcount')) as number);
    const utxos = (await get(fork.esploraUrl, `/address/${holderAddress}/utxo`)).json();
    expect(utxos).toEqual([{ txid: funding.txid, vout: funding.vout, value: Number(FUNDED), status: expect.objectContaining({ confirmed: true }) }]);
    expect((await get(fork.esploraUrl, `/address/${holderAddress}`)).json()).toMatchObject({
      address: holderAddress,
      chain_stats: { funded_txo_count: 1, funded_txo_sum: Number(FUNDED), spent_txo_count: 0, spent_txo_sum: 0 },
      mempool_stats: { funded_txo_count: 0, spent_txo_count: 0 },
    });
    const listed = (await forkRpc.command('listunspent', 1, 9_999_999, [holderAddress])) as Array<{ txid: string; amount: number }>;
    expect(listed).toEqual([expect.objectContaining({ txid: funding.txid, vout: funding.vout, amount: 0.5 })]);
    expect(await forkRpc.command('gettxout', funding.txid, funding.vout)).toMatchObject({ value: 0.5, scriptPubKey: { address: holderAddress } });
    expect(await forkRpc.command('getrawtransaction', funding.txid)).toBe(funding.hex);
    expect(await forkRpc.command('getrawtransaction', funding.txid, true)).toMatchObject({ txid: funding.txid, hex: funding.hex, upstreamblockhash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await get(fork.esploraUrl, `/tx/${funding.txid}/hex`)).text).toBe(funding.hex);
    expect((await get(fork.esploraUrl, `/tx/${funding.txid}`)).json()).toMatchObject({ txid: funding.txid, status: { confirmed: true } });
    // what the upstream does not know is not there either
    expect((await get(fork.esploraUrl, `/tx/${'ab'.repeat(32)}`)).status).toBe(404);
  });

  it("reads a wallet's addresses before a wallet method: the same wallet here lists the outputs mined to it upstream", async () => {
    await forkRpc.command('createwallet', 'funder');
    const wallet = new Client({ host: fork.rpcUrl, wallet: 'funder' });
    expect(await wallet.command('getnewaddress')).toBe(minedTo);
    const upstreamScan = (await upstreamRpc.command('scantxoutset', 'start', [`addr(${minedTo})`])) as { unspents: Array<{ txid: string; vout: number }> };
    const listed = (await wallet.command('listunspent')) as Array<{ txid: string; vout: number; address: string }>;
    expect(listed.map((coin) => `${coin.txid}:${coin.vout}`).sort()).toEqual(upstreamScan.unspents.map((coin) => `${coin.txid}:${coin.vout}`).sort());
    expect(upstreamScan.unspents.length).toBeGreaterThan(100);
  });

  it("checks a spend against the upstream output's own amount, mines a true one locally, and leaves the upstream unchanged", async () => {
    const upstreamTip = (await get(upstream.esploraUrl, '/blocks/tip/hash')).text;
    const recipient = fork.fundedAccounts[1]!.address;
    // signed over an amount the output does not hold: the signature does not verify
    await expect(forkRpc.command('sendrawtransaction', spendOfFunding(recipient, FUNDED + 1n))).rejects.toThrow(/mandatory-script-verify-flag-failed/);
    spendTxid = (await forkRpc.command('sendrawtransaction', spendOfFunding(recipient))) as string;
    await forkRpc.command('generatetoaddress', 1, fork.keys.miner.address);
    expect(await forkRpc.command('getrawtransaction', spendTxid, true)).toMatchObject({ confirmations: 1 });
    expect((await get(fork.esploraUrl, `/address/${holderAddress}/utxo`)).json()).toEqual([]);
    expect(await forkRpc.command('listunspent', 0, 9_999_999, [holderAddress])).toEqual([]);
    expect((await get(fork.esploraUrl, `/address/${holderAddress}`)).json()).toMatchObject({ chain_stats: { funded_txo_count: 1, spent_txo_count: 1, spent_txo_sum: Number(FUNDED), tx_count: 2 } });
    // spent locally: never offered again, a second spend is refused
    await expect(forkRpc.command('sendrawtransaction', spendOfFunding(fork.fundedAccounts[0]!.address))).rejects.toThrow(/bad-txns-inputs-missingorspent/);

    expect((await get(upstream.esploraUrl, '/blocks/tip/hash')).text).toBe(upstreamTip);
    expect((await get(upstream.esploraUrl, `/address/${holderAddress}/utxo`)).json()).toEqual([expect.objectContaining({ txid: funding.txid, vout: funding.vout })]);
    expect((await get(upstream.esploraUrl, `/tx/${spendTxid}`)).status).toBe(404);
    expect(await upstreamRpc.command('getrawmempool')).toEqual([]);
  });

  it('comes back from its journal with the upstream stopped: the funding transaction, the spend, the outputs; an address never read fails at once, naming the upstream', async () => {
    await fork.stop();
    running.splice(running.indexOf(fork), 1);
    await upstream.stop();
    running.splice(running.indexOf(upstream), 1);
    const restarted = await startBvmNode({ accountCount: 2, fork: { esploraUrl: upstream.esploraUrl }, journal });
    running.push(restarted);
    const rpc = new Client({ host: restarted.rpcUrl });
    expect((await get(restarted.esploraUrl, `/tx/${funding.txid}/hex`)).text).toBe(funding.hex);
    expect(await rpc.command('getrawtransaction', spendTxid, true)).toMatchObject({ confirmations: 1 });
    expect((await get(restarted.esploraUrl, `/address/${holderAddress}/utxo`)).json()).toEqual([]);
    expect(await rpc.command('gettxout', spendTxid, 0)).toMatchObject({ value: 0.4999 });

    const started = performance.now();
    const never = await get(restarted.esploraUrl, `/address/${restarted.fundedAccounts[0]!.address.slice(0, -1)}x`);
    expect(never.status).toBe(400);
    const unread = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(ECPair.fromPrivateKey(Buffer.alloc(32, 9)).publicKey), network: REGTEST }).address!;
    const answer = await get(restarted.esploraUrl, `/address/${unread}/utxo`);
    expect(answer.status).toBe(502);
    expect(answer.text).toContain(`the fork's upstream Esplora ${upstream.esploraUrl} could not be read (GET /address/${unread}/utxo)`);
    expect(answer.text).toMatch(/ECONNREFUSED/);
    await expect(rpc.command('listunspent', 1, 9_999_999, [unread])).rejects.toThrow(/upstream Esplora .* could not be read/);
    // a fork's first start (no journal) asks the upstream first: refused at once
    await expect(startBvmNode({ accountCount: 1, fork: { esploraUrl: upstream.esploraUrl } })).rejects.toThrow(/could not be read \(GET \/blocks\/tip\/height\): fetch failed \(ECONNREFUSED\)/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('answers a clear error within its timeout when the upstream stops answering, at start and at an ask', async () => {
    // an Esplora that answers its tip height, then holds every other request open forever
    const held = new Set<ServerResponse>();
    const stalling = createHttpServer((req, res) => {
      if (req.url === '/blocks/tip/height') return void res.end('7');
      held.add(res);
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stalling.address() as { port: number }).port}`;
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      let started = performance.now();
      await expect(startBvmNode({ accountCount: 1, fork: { esploraUrl: silentUrl, timeoutMs: 300 } })).rejects.toThrow(`${silentUrl} could not be read (GET /blocks/tip/height): no answer within 300 ms`);
      expect(performance.now() - started).toBeLessThan(2_000);

      const stuck = await startBvmNode({ accountCount: 1, fork: { esploraUrl: url, timeoutMs: 300 } });
      running.push(stuck);
      started = performance.now();
      const answer = await get(stuck.esploraUrl, `/address/${holderAddress}/utxo`);
      expect(answer.status).toBe(502);
      expect(answer.text).toBe(`the fork's upstream Esplora ${url} could not be read (GET /address/${holderAddress}/utxo): no answer within 300 ms`);
      expect(performance.now() - started).toBeLessThan(2_000);
      // nothing was kept: the next ask reads again (and fails again)
      expect((await get(stuck.esploraUrl, `/address/${holderAddress}/utxo`)).status).toBe(502);
    } finally {
      held.forEach((res) => res.destroy());
      sockets.forEach((socket) => socket.destroy());
      stalling.closeAllConnections();
      await new Promise<void>((resolve) => stalling.close(() => resolve()));
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
