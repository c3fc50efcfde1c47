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

// covers: endpoint:POST /quote/v2, status:success

const BVM = 8253038;
const EVM = 8453;
const BTC = 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8';
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
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
    user, recipient: sim.accounts[5]!.address, originChainId: BVM, destinationChainId: EVM, originCurrency: BTC, destinationCurrency: usdc, amount: String(amount), tradeType: 'EXACT_INPUT',
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
