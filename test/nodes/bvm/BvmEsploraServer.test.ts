import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Client from 'bitcoin-core';
import { startBvmNode, type StartedBvmNode } from '../../../src/nodes/bvm/startBvmNode';

// the Esplora REST API of the node alone, read as BDK / LDK's esplora clients read it (plain HTTP, Esplora's shapes)
let node: StartedBvmNode;
let rpc: Client;

beforeAll(async () => {
  node = await startBvmNode({ accountCount: 2 });
  rpc = new Client({ host: node.rpcUrl });
});

afterAll(async () => {
  await node?.stop();
});

async function get(path: string): Promise<{ status: number; text: string; json: () => any }> {
  const response = await fetch(`${node.esploraUrl}${path}`);
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) };
}

describe('the Esplora REST API', () => {
  it('serves on its own port: tip height and hash as text, blocks with Esplora fields', async () => {
    expect(node.esploraUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.esploraUrl).not.toBe(node.rpcUrl);
    const height = await get('/blocks/tip/height');
    expect(height.text).toBe(String(await rpc.command('getblockcount')));
    const hash = (await get('/blocks/tip/hash')).text;
    expect(hash).toBe(await rpc.command('getbestblockhash'));
    const block = (await get(`/block/${hash}`)).json();
    const header = (await rpc.command('getblockheader', hash)) as { merkleroot: string; previousblockhash: string; nTx: number; time: number };
    expect(block).toMatchObject({ id: hash, height: Number(height.text), merkle_root: header.merkleroot, previousblockhash: header.previousblockhash, tx_count: header.nTx, timestamp: header.time });
    expect(await get(`/block/${'0'.repeat(64)}`)).toMatchObject({ status: 404, text: 'Block not found' });
  });

  it('POST /tx broadcasts; /tx/:txid, /status and /hex follow it from the mempool to a block; the address routes list it', async () => {
    const alice = node.fundedAccounts[0]!;
    const bob = node.fundedAccounts[1]!;
    await rpc.command('createwallet', 'esplora');
    const wallet = new Client({ host: node.rpcUrl, wallet: 'esplora' });
    const mine = (await wallet.command('getnewaddress')) as string;
    await rpc.command('generatetoaddress', 101, mine);
    const funded = (await wallet.command('walletcreatefundedpsbt', [], [{ [bob.address]: 0.25 }])) as { psbt: string };
    const { hex } = (await wallet.command('walletprocesspsbt', funded.psbt)) as { hex: string };
    const posted = await fetch(`${node.esploraUrl}/tx`, { method: 'POST', body: hex });
    const txid = await posted.text();
    expect(posted.status).toBe(200);
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    expect((await get(`/tx/${txid}/status`)).json()).toEqual({ confirmed: false });
    expect((await get(`/tx/${txid}/hex`)).text).toBe(hex);
    const mempool = (await get('/mempool')).json();
    expect(mempool).toMatchObject({ count: 1, vsize: expect.any(Number), total_fee: expect.any(Number) });
    expect(mempool.fee_histogram[0][1]).toBe(mempool.vsize);
    expect((await get(`/address/${bob.address}/utxo`)).json()).toContainEqual({ txid, vout: 0, status: { confirmed: false }, value: 25_000_000 });

    const [blockHash] = (await rpc.command('generatetoaddress', 1, alice.address)) as string[];
    const tx = (await get(`/tx/${txid}`)).json();
    expect(tx).toMatchObject({ txid, status: { confirmed: true, block_hash: blockHash, block_height: Number((await get('/blocks/tip/height')).text) } });
    expect(tx.vout[0]).toMatchObject({ scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: bob.address, value: 25_000_000 });
    expect(tx.vin[0]).toMatchObject({ is_coinbase: false, prevout: { scriptpubkey_address: mine }, witness: [expect.any(String), expect.any(String)] });
    expect(tx.fee).toBeGreaterThan(0);
    const txs = (await get(`/address/${mine}/txs`)).json();
    expect(txs[0].txid).toBe(txid); // newest first
    expect(txs.slice(1).every((entry: { vin: Array<{ is_coinbase: boolean }> }) => entry.vin[0]!.is_coinbase)).toBe(true);
  });

  it('answers a refused broadcast with 400 and the RPC error, unknown things with 404, and fee estimates per target in sat/vB', async () => {
    const refused = await fetch(`${node.esploraUrl}/tx`, { method: 'POST', body: 'zz' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toBe('sendrawtransaction RPC error: {"code":-22,"message":"TX decode failed. Make sure the tx has at least one input."}');
    expect(await get(`/tx/${'1'.repeat(64)}`)).toMatchObject({ status: 404, text: 'Transaction not found' });
    expect(await get('/address/notanaddress/utxo')).toMatchObject({ status: 400 });
    expect(await get('/nothing/here')).toMatchObject({ status: 404 });
    const estimates = (await get('/fee-estimates')).json();
    expect(Object.keys(estimates)).toEqual(expect.arrayContaining(['1', '6', '144', '1008']));
    expect(estimates['6']).toBe(2);
  });
});
