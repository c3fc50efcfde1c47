import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, parseEther, webSocket, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnvilInstance, type AnvilInstance } from '../../../src/chains/evm/AnvilInstance';
import { EvmCallJournal } from '../../../src/chains/evm/front/EvmCallJournal';
import type { JsonRpcCall } from '../../../src/chains/evm/front/evmCallKinds';
import { startEvmRpcFront, type EvmRpcFront } from '../../../src/chains/evm/front/EvmRpcFront';
import type { JournaledEvmCall } from '../../../src/chains/evm/front/planEvmCallReplay';
import { resolveAnvilBinary } from '../../../src/process/resolveAnvilBinary';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

const CHAIN_ID = 8453;
const dir = mkdtempSync(join(tmpdir(), 'intentsim-front-'));
const db = openDatabase(join(dir, 'front.db'));
const store = new LedgerJournalStore(db);
const journal = new EvmCallJournal({ chainId: CHAIN_ID, journal: store });
/** Anvil's first default account. */
const user = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
let anvil: AnvilInstance;
let front: EvmRpcFront;
const admitted: JsonRpcCall[][] = [];

beforeAll(async () => {
  const binaryPath = resolveAnvilBinary({ pathEnv: process.env.PATH ?? '', ...(process.env.INTENTSIM_ANVIL ? { explicitPath: process.env.INTENTSIM_ANVIL } : {}) });
  anvil = createAnvilInstance({ chainId: CHAIN_ID, binaryPath, logFile: join(dir, 'anvil.log') });
  front = await startEvmRpcFront({
    upstream: await anvil.start(),
    gate: { admit: (calls) => void admitted.push([...calls]) },
    journal: (calls, head) => journal.record(calls, head),
  });
});

afterAll(async () => {
  await front?.close();
  await anvil?.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const journaled = () => store.entries<JournaledEvmCall>(CHAIN_ID);

describe('EvmRpcFront: the simulator\'s RPC URL in front of Anvil', () => {
  it('forwards reads as they are and journals none of them; a JSON-RPC error comes back as Anvil gave it', async () => {
    const client = createPublicClient({ transport: http(front.rpcUrl) });
    expect(await client.getChainId()).toBe(CHAIN_ID);
    expect(await client.getBalance({ address: user.address })).toBeGreaterThan(0n);
    const bad = await fetch(front.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":7,"method":"eth_nope","params":[]}' });
    const direct = await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":7,"method":"eth_nope","params":[]}' });
    expect(await bad.json()).toEqual(await direct.json());
    expect(journaled()).toEqual([]);
  });

  it('journals a transaction and a cheat with the head they were made at, after the gate let them pass', async () => {
    const wallet = createWalletClient({ account: user, transport: http(front.rpcUrl) });
    const client = createPublicClient({ transport: http(front.rpcUrl) });
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    await client.request({ method: 'anvil_setBalance', params: ['0x00000000000000000000000000000000000000bb', '0x64'] } as never);
    const hash = await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000cc' as Address, value: parseEther('0.001'), chain: null });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 5 })).status).toBe('success');
    const calls = journaled();
    expect(calls.map((call) => [call.method, call.head])).toEqual([
      ['anvil_setBalance', head],
      ['eth_sendRawTransaction', head],
    ]);
    expect(admitted.map((calls) => calls.map((call) => call.method))).toEqual([['anvil_setBalance'], ['eth_sendRawTransaction']]);
    expect(await client.getBalance({ address: '0x00000000000000000000000000000000000000bb' })).toBe(100n);
  });

  it('journals the state-changing calls of a batch only, and answers the batch as Anvil does', async () => {
    const before = journaled().length;
    const answer = await fetch(front.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'evm_setNextBlockTimestamp', params: [4_000_000_000] },
      ]),
    });
    expect(((await answer.json()) as Array<{ id: number }>).map((item) => item.id).sort()).toEqual([1, 2]);
    expect(journaled().slice(before).map((call) => call.method)).toEqual(['evm_setNextBlockTimestamp']);
  });

  it('passes websocket subscriptions through (newHeads), and journals a transaction sent over the websocket', async () => {
    const client = createPublicClient({ transport: webSocket(front.wsUrl) });
    const heads: bigint[] = [];
    const unwatch = await new Promise<() => void>((resolve) => {
      const stop = client.watchBlockNumber({ emitOnBegin: false, onBlockNumber: (number) => heads.push(number) });
      setTimeout(() => resolve(stop), 200);
    });
    const wallet = createWalletClient({ account: user, transport: webSocket(front.wsUrl) });
    const hash: Hex = await wallet.sendTransaction({ to: '0x00000000000000000000000000000000000000dd' as Address, value: 1n, chain: null });
    await client.waitForTransactionReceipt({ hash });
    for (let i = 0; i < 100 && heads.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    unwatch();
    expect(heads.length).toBeGreaterThan(0);
    expect(journaled().at(-1)!.method).toBe('eth_sendRawTransaction');
    await client.transport.getRpcClient().then((rpc) => rpc.close());
    await wallet.transport.getRpcClient().then((rpc) => rpc.close());
  });
});

describe('EvmRpcFront and a browser page', () => {
  it('answers a CORS preflight and a cross-origin call as the node does (the explorer reads the chain from a page)', async () => {
    const preflight = (url: string) =>
      fetch(url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    const [fronted, direct] = await Promise.all([preflight(front.rpcUrl), preflight(anvil.rpcUrl)]);
    expect(fronted.status).toBe(direct.status);
    expect(fronted.headers.get('access-control-allow-origin')).toBe(direct.headers.get('access-control-allow-origin'));
    const call = await fetch(front.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
    expect(call.headers.get('access-control-allow-origin')).not.toBeNull();
  });
});
