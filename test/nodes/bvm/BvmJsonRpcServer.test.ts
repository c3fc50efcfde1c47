import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bitcoin from 'bitcoinjs-lib';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { BvmLedger } from '../../../src/nodes/bvm/BvmLedger';
import { BvmJsonRpcServer } from '../../../src/nodes/bvm/BvmJsonRpcServer';
import { BvmWallets } from '../../../src/nodes/bvm/BvmWallets';
import { deriveBvmAccounts } from '../../../src/nodes/bvm/bvmAccounts';
import { writeBvmGenesis } from '../../../src/nodes/bvm/writeBvmGenesis';
import { p2wpkhFee, signP2wpkhTransaction } from '../../../src/nodes/bvm/bvmTransactions';

// the BVM chain's Bitcoin Core JSON-RPC over real HTTP, in front of a funded ledger
const clock = new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) });
const ledger = new BvmLedger({ clock });
const accounts = deriveBvmAccounts('test test test test test test test test test test test junk', 2);
const [alice, bob] = accounts.testAccounts as [typeof accounts.solver, typeof accounts.solver];
let server: BvmJsonRpcServer;
let url: string;

beforeAll(async () => {
  writeBvmGenesis(ledger, accounts);
  server = new BvmJsonRpcServer(ledger, new BvmWallets(new Uint8Array(64)), { host: '127.0.0.1' });
  url = (await server.start()).rpcUrl;
});

afterAll(async () => {
  await server.stop();
});

async function post(body: unknown): Promise<{ status: number; text: string; json: any }> {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) };
}

const call = async (method: string, params: unknown[] = []) => (await post({ jsonrpc: '1.0', id: 1, method, params })).json;

describe('the BVM JSON-RPC (Bitcoin Core shapes)', () => {
  it('writes amounts as exact 8-decimal BTC numbers, and takes them back', async () => {
    const coin = ledger.coinsOf(alice.script, false)[0]!;
    const value = 12_345n;
    const tx = signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value }, { script: alice.script, value: coin.value - value - p2wpkhFee(1, 2) }]);
    const sent = await post({ id: 'a', method: 'sendrawtransaction', params: [tx.toHex(), 0.1] });
    expect(sent.json).toEqual({ result: tx.getId(), error: null, id: 'a' });
    const raw = await post({ id: 'b', method: 'gettxout', params: [tx.getId(), 0] });
    expect(raw.text).toContain('"value":0.00012345,');
    expect(raw.json.result).toMatchObject({ confirmations: 0, coinbase: false, scriptPubKey: { address: bob.address, type: 'witness_v0_keyhash' } });
    const entry = await call('getmempoolentry', [tx.getId()]);
    expect(entry.result.fees.base).toBe(Number(p2wpkhFee(1, 2)) / 1e8);
    expect((await call('getrawmempool', [true])).result[tx.getId()].vsize).toBe(tx.virtualSize());
  });

  it('serves blocks at verbosity 0, 1 and 2 that agree with each other and with the header hash', async () => {
    const [hash] = (await call('generatetoaddress', [1, alice.address])).result as string[];
    const hex = (await call('getblock', [hash, 0])).result as string;
    const block = bitcoin.Block.fromHex(hex);
    expect(block.getId()).toBe(hash);
    const verbose = (await call('getblock', [hash, 1])).result;
    expect(verbose).toMatchObject({ hash, height: ledger.height, confirmations: 1, nTx: block.transactions!.length, merkleroot: Buffer.from(block.merkleRoot!).reverse().toString('hex') });
    expect(verbose.tx).toEqual(block.transactions!.map((tx) => tx.getId()));
    const full = (await call('getblock', [hash, 2])).result;
    expect(full.tx[0].vin[0].coinbase).toBeDefined();
    expect(full.tx[1].fee).toBeGreaterThan(0);
    expect((await call('getblockheader', [hash])).result.previousblockhash).toBe((await call('getblockhash', [ledger.height - 1])).result);
    expect((await call('getblockhash', [ledger.height + 1])).error).toEqual({ code: -8, message: 'Block height out of range' });
  });

  it('answers gettxout null for a spent output, testmempoolaccept without keeping, estimatesmartfee, batches', async () => {
    const coin = ledger.coinsOf(alice.script, false)[0]!;
    const spend = signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value: coin.value - 10_000n }]);
    const [accepted] = (await call('testmempoolaccept', [[spend.toHex()]])).result;
    expect(accepted).toMatchObject({ txid: spend.getId(), allowed: true, fees: { base: 0.0001 } });
    expect((await call('getrawmempool')).result).not.toContain(spend.getId());
    await call('sendrawtransaction', [spend.toHex()]);
    expect((await call('gettxout', [coin.txid, coin.vout])).result).toBeNull();
    expect((await call('gettxout', [coin.txid, coin.vout, false])).result).not.toBeNull();
    const [tampered] = (await call('testmempoolaccept', [[spend.toHex().replace(/.{8}$/, '01000000')]])).result;
    expect(tampered.allowed).toBe(false);
    expect((await call('estimatesmartfee', [6])).result).toEqual({ feerate: 0.00002, blocks: 6 });
    const batch = await post([{ id: 1, method: 'getblockcount' }, { id: 2, method: 'nosuch' }]);
    expect(batch.status).toBe(200);
    expect(batch.json).toEqual([{ result: ledger.height, error: null, id: 1 }, { result: null, error: { code: -32601, message: 'Method not found' }, id: 2 }]);
  });
});
