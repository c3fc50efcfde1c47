import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
// the Bitcoin Core RPC client an integrator already uses, unshimmed (JSON-RPC 1.0, /wallet/<name> paths)
import Client from 'bitcoin-core';
import type { RunningSimulator } from '../../../src/simulator';
import { startSimulator } from '../../../src/simulator';
import { postJson, usdcOf, waitForSettledStatus } from '../../support/bridgeClient';
import { pooledChains } from '../../support/pooledNodes';
import { BTC_ADDRESS, BVM_CHAIN_ID } from '../../support/bvmClient';

// covers: endpoint:POST /quote/v2, status:success

const BVM = BVM_CHAIN_ID;
const EVM = 8453;
const network = bitcoin.networks.regtest;
const ECPair = ECPairFactory(ecc);

let sim: RunningSimulator;
let node: Client;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: BVM }] });
  node = new Client({ host: sim.chains.find((chain) => chain.id === BVM)!.rpcUrl, username: 'user', password: 'pass' });
});

afterAll(async () => {
  await sim?.stop();
});

async function quoteBtcToBaseUsdc(user: string, amount: bigint): Promise<{ requestId: string; psbtHex: string; depositAddress: string }> {
  const usdc = await usdcOf(sim.baseUrl, EVM);
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
    user, recipient: sim.accounts[5]!.address, originChainId: BVM, destinationChainId: EVM, originCurrency: BTC_ADDRESS, destinationCurrency: usdc, amount: String(amount), tradeType: 'EXACT_INPUT',
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const step = quote.body.steps[0];
  return { requestId: step.requestId, psbtHex: step.items[0].data.psbt, depositAddress: step.depositAddress };
}

describe('a Bitcoin Core user on the simulator', () => {
  it('funds an address with generatetoaddress 101: the quote PSBT spends only the matured coinbase and broadcasts', async () => {
    const key = ECPair.fromPrivateKey(createHash('sha256').update('core-wallet-miner').digest(), { network });
    const address = bitcoin.payments.p2wpkh({ pubkey: key.publicKey, network }).address!;
    const hashes = (await node.command('generatetoaddress', 101, address)) as string[];
    expect(hashes).toHaveLength(101);
    const firstCoinbase = ((await node.command('getblock', hashes[0], 1)) as { tx: string[] }).tx[0]!;

    const { psbtHex, requestId } = await quoteBtcToBaseUsdc(address, 10_000_000n);
    const psbt = bitcoin.Psbt.fromHex(psbtHex, { network });
    // only the coinbase with 101 confirmations (Core's wallet rule); the one with 100 and younger are immature
    expect(psbt.txInputs.map((input) => Buffer.from(input.hash).reverse().toString('hex'))).toEqual([firstCoinbase]);
    psbt.signAllInputs(key).finalizeAllInputs();
    const tx = psbt.extractTransaction();
    expect(await node.command('sendrawtransaction', tx.toHex())).toBe(tx.getId());
    await node.command('generatetoaddress', 1, address);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
  });
});

describe('the Core wallet workflow, with the bitcoin-core client', () => {
  it('createwallet, fund by mining, quote BTC → Base USDC, walletprocesspsbt + finalizepsbt + sendrawtransaction, one block: success', async () => {
    expect(await node.command('createwallet', 'alice')).toEqual({ name: 'alice' });
    expect(await node.command('listwallets')).toContain('alice');
    const alice = new Client({ host: sim.chains.find((chain) => chain.id === BVM)!.rpcUrl, username: 'user', password: 'pass', wallet: 'alice' });
    const address = (await alice.command('getnewaddress')) as string;
    expect(address).toMatch(/^bcrt1q/);
    await node.command('generatetoaddress', 101, address);
    const unspent = (await alice.command('listunspent')) as Array<{ amount: number; address: string; spendable: boolean; desc: string }>;
    expect(unspent).toHaveLength(1); // the one coinbase with 101 confirmations
    expect(unspent[0]).toMatchObject({ address, spendable: true, desc: expect.stringMatching(/^wpkh\(\[[0-9a-f]{8}\/84h\/1h\/0h\/0\/0\][0-9a-f]{66}\)#[a-z0-9]{8}$/) });
    expect(await alice.command('getbalance')).toBe(unspent[0]!.amount);
    const balances = (await alice.command('getbalances')) as { mine: { trusted: number; immature: number } };
    expect(balances.mine.trusted).toBe(unspent[0]!.amount);
    expect(balances.mine.immature).toBeGreaterThan(0);

    const { psbtHex, requestId, depositAddress } = await quoteBtcToBaseUsdc(address, 10_000_000n);
    const processed = (await alice.command('walletprocesspsbt', Buffer.from(psbtHex, 'hex').toString('base64'))) as { psbt: string; complete: boolean };
    expect(processed.complete).toBe(true);
    const analyzed = (await node.command('analyzepsbt', processed.psbt)) as { next: string; fee: number };
    expect(analyzed.next).toBe('extractor');
    const finalized = (await node.command('finalizepsbt', processed.psbt)) as { hex: string; complete: boolean };
    expect(finalized.complete).toBe(true);
    const decoded = (await node.command('decoderawtransaction', finalized.hex)) as { txid: string; vout: Array<{ value: number; scriptPubKey: { address: string } }> };
    expect(decoded.vout.find((output) => output.scriptPubKey.address === depositAddress)!.value).toBe(0.1);
    const txid = (await node.command('sendrawtransaction', finalized.hex)) as string;
    expect(txid).toBe(decoded.txid);
    expect(((await node.command('getmempoolinfo')) as { size: number }).size).toBeGreaterThanOrEqual(1);
    await node.command('generatetoaddress', 1, address);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');

    const sent = (await alice.command('gettransaction', txid)) as { amount: number; fee: number; confirmations: number; details: Array<{ category: string; address: string }> };
    expect(sent).toMatchObject({ amount: -0.1, confirmations: 1 });
    expect(sent.fee).toBeLessThan(0);
    // the quote's PSBT returns the change to the user's own (receive) address: Core lists it as sent and received
    expect(sent.details.map((entry) => [entry.category, entry.address])).toEqual([['send', depositAddress], ['send', address], ['receive', address]]);
    const listed = (await alice.command('listtransactions', '*', 100)) as Array<{ txid: string; category: string }>;
    expect(listed.filter((entry) => entry.txid === txid).map((entry) => entry.category)).toEqual(['send', 'send', 'receive']);
  });

  it('sendtoaddress and sendmany pay from the wallet with change to a new change address; wallet errors answer Core codes', async () => {
    const alice = new Client({ host: sim.chains.find((chain) => chain.id === BVM)!.rpcUrl, username: 'user', password: 'pass', wallet: 'alice' });
    const bob = (await node.command('createwallet', 'bob')) as { name: string };
    expect(bob.name).toBe('bob');
    const bobClient = new Client({ host: sim.chains.find((chain) => chain.id === BVM)!.rpcUrl, wallet: 'bob' });
    const bobAddress = (await bobClient.command('getnewaddress')) as string;
    const txid = (await alice.command('sendtoaddress', bobAddress, 1.25)) as string;
    expect((await bobClient.command('getbalances')) as { mine: { untrusted_pending: number } }).toMatchObject({ mine: { untrusted_pending: 1.25 } });
    const many = (await alice.command('sendmany', '', { [bobAddress]: 0.5, [(await bobClient.command('getnewaddress')) as string]: 0.25 })) as string;
    await node.command('generatetoaddress', 1, (await alice.command('getrawchangeaddress')) as string);
    expect(await bobClient.command('getbalance')).toBe(2);
    const received = (await bobClient.command('listtransactions')) as Array<{ txid: string; category: string; amount: number }>;
    expect(received.map((entry) => [entry.txid, entry.category, entry.amount])).toEqual([[txid, 'receive', 1.25], [many, 'receive', 0.5], [many, 'receive', 0.25]].sort((a, b) => (a[0] === b[0] ? 0 : a[0] === txid ? -1 : 1)));
    // two wallets loaded: a wallet call on / must name one (-19); an unknown wallet is -18; too much is -6
    await expect(node.command('getbalance')).rejects.toMatchObject({ code: -19 });
    await expect(new Client({ host: sim.chains.find((chain) => chain.id === BVM)!.rpcUrl, wallet: 'nobody' }).command('getbalance')).rejects.toMatchObject({ code: -18 });
    await expect(bobClient.command('sendtoaddress', bobAddress, 500)).rejects.toMatchObject({ code: -6, message: 'Insufficient funds' });
    await expect(node.command('createwallet', 'bob')).rejects.toMatchObject({ code: -4 });
    await expect(node.command('loadwallet', 'bob')).rejects.toMatchObject({ code: -35 });
  });

  it('a method the node does not serve answers -32601 Method not found', async () => {
    await expect(node.command('getzmqnotifications')).rejects.toMatchObject({ code: -32601, message: 'Method not found' });
  });
});
