import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { startBvmNode, type StartedBvmNode } from '../../../src/nodes/bvm/startBvmNode';

// a user's wallet as an integrator writes one: bitcoinjs-lib and ecpair with the WIF the node printed,
// talking to the node over plain JSON-RPC 1.0 (the bitcoin-core client is not a dependency)
const ECPair = ECPairFactory(ecc);
const REGTEST = bitcoin.networks.regtest;

let node: StartedBvmNode;

beforeAll(async () => {
  node = await startBvmNode({ accountCount: 2 });
});

afterAll(async () => {
  await node?.stop();
});

async function rpc(method: string, params: unknown[] = []): Promise<any> {
  const response = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '1.0', id: method, method, params }) });
  const body = (await response.json()) as { result: unknown; error: { code: number; message: string } | null };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
}

describe('startBvmNode: the regtest node alone, over Bitcoin Core JSON-RPC', () => {
  it('is a regtest chain whose printed accounts hold 10 confirmed BTC each', async () => {
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.chainId).toBe(8253038);
    expect(await rpc('getblockchaininfo')).toMatchObject({ chain: 'regtest' });
    expect(node.fundedAccounts).toHaveLength(2);
    const [first] = node.fundedAccounts;
    expect(first).toMatchObject({ address: expect.stringMatching(/^bcrt1q/), balance: '10.00000000 BTC' });
    const scan = await rpc('scantxoutset', ['start', [`addr(${first!.address})`]]);
    expect(scan).toMatchObject({ success: true, txouts: 10, total_amount: 10 });
    // the printed key is the address's own
    const key = ECPair.fromWIF(first!.privateKey, REGTEST);
    expect(bitcoin.payments.p2wpkh({ pubkey: key.publicKey, network: REGTEST }).address).toBe(first!.address);
  });

  it('takes a payment signed by a foreign wallet into its mempool, and confirms it when a block is mined', async () => {
    const [from, to] = node.fundedAccounts as [typeof node.fundedAccounts[0], typeof node.fundedAccounts[0]];
    const key = ECPair.fromWIF(from.privateKey, REGTEST);
    const [coin] = await rpc('listunspent', [1, 9_999_999, [from.address]]);
    const value = BigInt(Math.round(coin.amount * 1e8));
    const fee = 1_000n;
    const psbt = new bitcoin.Psbt({ network: REGTEST })
      .addInput({ hash: coin.txid, index: coin.vout, witnessUtxo: { script: Buffer.from(coin.scriptPubKey, 'hex'), value } })
      .addOutput({ address: to.address, value: 25_000_000n })
      .addOutput({ address: from.address, value: value - 25_000_000n - fee });
    psbt.signInput(0, { publicKey: Buffer.from(key.publicKey), sign: (hash) => Buffer.from(key.sign(hash)) });
    psbt.finalizeAllInputs();
    const tx = psbt.extractTransaction();
    expect(await rpc('sendrawtransaction', [tx.toHex()])).toBe(tx.getId());
    expect(await rpc('getrawmempool')).toContain(tx.getId());
    const height = await rpc('getblockcount');
    const [blockHash] = await rpc('generatetoaddress', [1, node.keys.miner.address]);
    expect(await rpc('getblockcount')).toBe(height + 1);
    const confirmed = await rpc('getrawtransaction', [tx.getId(), true]);
    expect(confirmed).toMatchObject({ txid: tx.getId(), blockhash: blockHash, confirmations: 1 });
    const received = await rpc('listunspent', [1, 9_999_999, [to.address]]);
    expect(received.map((output: { amount: number }) => output.amount)).toContain(0.25);
  });

  it('refuses a transaction it cannot decode with Core’s error code (-22)', async () => {
    await expect(rpc('sendrawtransaction', ['00'])).rejects.toThrow(/^sendrawtransaction: -22 /);
  });

  it('closes its port on stop()', async () => {
    const again = await startBvmNode({ accountCount: 1 });
    expect(await fetch(again.rpcUrl, { method: 'POST', body: JSON.stringify({ id: 1, method: 'getblockcount', params: [] }) }).then((r) => r.ok)).toBe(true);
    await again.stop();
    await expect(fetch(again.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
