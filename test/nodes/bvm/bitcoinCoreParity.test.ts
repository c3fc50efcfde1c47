import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Client from 'bitcoin-core';
import { startNodeWithCoreWallet, TEST_MNEMONIC } from '../../support/bvmNodeFixtures';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { BvmNode } from '../../../src/nodes/bvm/BvmNode';
import { withDescriptorChecksum } from '../../../src/nodes/bvm/bvmDescriptors';
import { startBvmNode, type StartedBvmNode } from '../../../src/nodes/bvm/startBvmNode';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

// the node alone, driven by the bitcoin-core client (unshimmed): each RPC added for Core parity answers in Core's shapes
let node: StartedBvmNode;
let rpc: Client;
let wallet: Client;

beforeAll(async () => {
  ({ node, rpc, wallet } = await startNodeWithCoreWallet());
});

afterAll(async () => {
  await node?.stop();
});

describe('Bitcoin Core parity of the node alone', () => {
  it('getnetworkinfo, getmempoolinfo and getblockstats in Core units (BTC/kvB numbers; satoshis in blockstats)', async () => {
    expect(await rpc.command('getnetworkinfo')).toMatchObject({ version: 280000, subversion: '/Satoshi:28.0.0/', connections: 0, relayfee: 0.00001, networkactive: true, warnings: [] });
    const txid = (await wallet.command('sendtoaddress', node.fundedAccounts[0]!.address, 0.5)) as string;
    const mempool = (await rpc.command('getmempoolinfo')) as Record<string, unknown>;
    const entry = (await rpc.command('getmempoolentry', txid)) as { vsize: number; fees: { base: number } };
    expect(mempool).toMatchObject({ loaded: true, size: 1, bytes: entry.vsize, total_fee: entry.fees.base, mempoolminfee: 0.00001, maxmempool: 300000000 });
    const [hash] = (await rpc.command('generatetoaddress', 1, node.fundedAccounts[1]!.address)) as string[];
    const stats = (await rpc.command('getblockstats', hash)) as Record<string, number | string>;
    expect(stats).toMatchObject({ blockhash: hash, txs: 2, ins: 1, totalfee: Math.round(entry.fees.base * 1e8), swtxs: 1, subsidy: expect.any(Number) });
    const sent = (await rpc.command('getrawtransaction', txid, true)) as { vout: Array<{ value: number }> };
    expect(stats.total_out).toBe(sent.vout.reduce((sum, output) => sum + Math.round(output.value * 1e8), 0));
    expect(await rpc.command('getblockstats', stats.height, ['txs', 'totalfee'])).toEqual({ txs: 2, totalfee: stats.totalfee });
    await expect(rpc.command('getblockstats', 1_000_000)).rejects.toMatchObject({ code: -8 });
    await expect(rpc.command('getblockstats', stats.height, ['nope'])).rejects.toMatchObject({ code: -8, message: "Invalid selected statistic 'nope'" });
  });

  it('createrawtransaction → signrawtransactionwithwallet → decoderawtransaction → sendrawtransaction', async () => {
    const [coin] = (await wallet.command('listunspent')) as Array<{ txid: string; vout: number; amount: number }>;
    const to = node.fundedAccounts[0]!.address;
    const change = (await wallet.command('getrawchangeaddress')) as string;
    const raw = (await rpc.command('createrawtransaction', [{ txid: coin!.txid, vout: coin!.vout }], [{ [to]: 1 }, { [change]: Number((coin!.amount - 1.0001).toFixed(8)) }])) as string;
    const unsigned = (await rpc.command('decoderawtransaction', raw)) as { vin: Array<{ txid: string; sequence: number }>; vout: Array<{ value: number; scriptPubKey: { address: string } }> };
    expect(unsigned.vin).toEqual([expect.objectContaining({ txid: coin!.txid, sequence: 0xffffffff })]);
    expect(unsigned.vout.map((output) => [output.value, output.scriptPubKey.address])).toEqual([[1, to], [Number((coin!.amount - 1.0001).toFixed(8)), change]]);
    const signed = (await wallet.command('signrawtransactionwithwallet', raw)) as { hex: string; complete: boolean };
    expect(signed.complete).toBe(true);
    expect(await rpc.command('sendrawtransaction', signed.hex)).toBe(((await rpc.command('decoderawtransaction', signed.hex)) as { txid: string }).txid);
    await expect(rpc.command('createrawtransaction', [], { nope: 1 })).rejects.toMatchObject({ code: -5, message: 'Invalid Bitcoin address: nope' });
    await expect(rpc.command('decoderawtransaction', 'zz')).rejects.toMatchObject({ code: -22 });
  });

  it('walletcreatefundedpsbt → decodepsbt / analyzepsbt → walletprocesspsbt (no finalize) → combinepsbt → finalizepsbt', async () => {
    await rpc.command('generatetoaddress', 1, node.fundedAccounts[1]!.address);
    const to = node.fundedAccounts[1]!.address;
    const funded = (await wallet.command('walletcreatefundedpsbt', [], [{ [to]: 0.3 }])) as { psbt: string; fee: number; changepos: number };
    expect(funded.changepos).toBe(1);
    const decoded = (await rpc.command('decodepsbt', funded.psbt)) as { fee: number; psbt_version: number; inputs: Array<{ witness_utxo: { amount: number } }>; tx: { vout: unknown[] } };
    expect(decoded).toMatchObject({ fee: funded.fee, psbt_version: 0 });
    expect(decoded.tx.vout).toHaveLength(2);
    const before = (await rpc.command('analyzepsbt', funded.psbt)) as { next: string; inputs: Array<{ next: string; missing: { signatures: string[] } }> };
    expect(before.next).toBe('signer');
    expect(before.inputs[0]!.missing.signatures[0]).toMatch(/^[0-9a-f]{40}$/);
    const signedOnly = (await wallet.command('walletprocesspsbt', funded.psbt, true, 'ALL', true, false)) as { psbt: string; complete: boolean; hex?: string };
    expect(signedOnly).toMatchObject({ complete: false });
    expect(signedOnly.hex).toBeUndefined();
    expect(((await rpc.command('analyzepsbt', signedOnly.psbt)) as { next: string }).next).toBe('finalizer');
    const combined = (await rpc.command('combinepsbt', [funded.psbt, signedOnly.psbt])) as string;
    const notExtracted = (await rpc.command('finalizepsbt', combined, false)) as { psbt: string; complete: boolean };
    expect(notExtracted.complete).toBe(true);
    expect(((await rpc.command('decodepsbt', notExtracted.psbt)) as { inputs: Array<{ final_scriptwitness: string[] }> }).inputs[0]!.final_scriptwitness).toHaveLength(2);
    const final = (await rpc.command('finalizepsbt', combined)) as { hex: string; complete: boolean };
    expect(await rpc.command('testmempoolaccept', [final.hex])).toEqual([expect.objectContaining({ allowed: true })]);
    await expect(rpc.command('combinepsbt', [funded.psbt, (await wallet.command('walletcreatefundedpsbt', [], [{ [to]: 0.1 }]) as { psbt: string }).psbt])).rejects.toMatchObject({ code: -8 });
    await expect(rpc.command('decodepsbt', 'not a psbt')).rejects.toMatchObject({ code: -22 });
  });

  it("invalidateblock returns the tip's transactions to the mempool; reconsiderblock connects the same block again", async () => {
    const txid = (await wallet.command('sendtoaddress', node.fundedAccounts[1]!.address, 0.2)) as string;
    const [hash] = (await rpc.command('generatetoaddress', 1, node.fundedAccounts[0]!.address)) as string[];
    const height = (await rpc.command('getblockcount')) as number;
    const coinbase = ((await rpc.command('getblock', hash, 1)) as { tx: string[] }).tx[0]!;
    expect(await rpc.command('invalidateblock', hash)).toBeNull();
    expect(await rpc.command('getblockcount')).toBe(height - 1);
    expect(await rpc.command('getrawmempool')).toEqual([txid]);
    expect(await rpc.command('gettxout', coinbase, 0)).toBeNull();
    expect(((await wallet.command('gettransaction', txid)) as { confirmations: number }).confirmations).toBe(0);
    expect(await rpc.command('reconsiderblock', hash)).toBeNull();
    expect(await rpc.command('getbestblockhash')).toBe(hash);
    expect(await rpc.command('getrawmempool')).toEqual([]);
    expect(((await rpc.command('getrawtransaction', txid, true)) as { blockhash: string }).blockhash).toBe(hash);
    await expect(rpc.command('reconsiderblock', '0'.repeat(64))).rejects.toMatchObject({ code: -5, message: 'Block not found' });
  });

  it('writes descriptor checksums as Core does (BIP380)', () => {
    expect(withDescriptorChecksum('raw(deadbeef)')).toBe('raw(deadbeef)#89f8spxm');
  });
});

describe('wallets across a restart on a journal', () => {
  it('come back loaded, with their keys: the next address is a new one, the balance the same', async () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    const options = { chainId: 8253038, clock: new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) }), mnemonic: TEST_MNEMONIC, accountCount: 1, host: '127.0.0.1', blockTimeSeconds: 0 };
    const first = new BvmNode(options);
    await first.start(store);
    const client = (url: string) => new Client({ host: url, wallet: 'saver' });
    await new Client({ host: first.rpcUrl }).command('createwallet', 'saver');
    const addresses = [await client(first.rpcUrl).command('getnewaddress'), await client(first.rpcUrl).command('getnewaddress')];
    await new Client({ host: first.rpcUrl }).command('generatetoaddress', 101, addresses[0]);
    const balance = await client(first.rpcUrl).command('getbalances');
    await first.stop();

    const second = new BvmNode(options);
    await second.start(store);
    try {
      expect(await new Client({ host: second.rpcUrl }).command('listwallets')).toEqual(['saver']);
      expect(await client(second.rpcUrl).command('getbalances')).toEqual(balance);
      const next = await client(second.rpcUrl).command('getnewaddress');
      expect(addresses).not.toContain(next);
      // the same node and wallet name derive the same keys: a fresh node's third address is this one
      const fresh = await startBvmNode({ accountCount: 1, mnemonic: TEST_MNEMONIC });
      try {
        await new Client({ host: fresh.rpcUrl }).command('createwallet', 'saver');
        const again = [0, 1, 2].map(() => client(fresh.rpcUrl).command('getnewaddress'));
        expect(await Promise.all(again).then((list) => list.sort())).toEqual([...addresses, next].sort());
      } finally {
        await fresh.stop();
      }
    } finally {
      await second.stop();
    }
  });
});
