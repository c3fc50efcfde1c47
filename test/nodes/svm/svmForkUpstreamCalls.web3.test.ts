import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';
import { closeSolanaConnections, solanaConnection } from '../../support/solanaConnections';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';

// What a fork sends its upstream, seen by a recording proxy in front of a second embedded node:
// reads only, each account asked for once however many clients ask at the same time.

let upstream: StartedSvmNode;
let fork: StartedSvmNode;
let proxy: Server;
/** Every JSON-RPC call the fork made upstream: its method and params. */
const calls: Array<{ method: string; params: unknown[] }> = [];

beforeAll(async () => {
  upstream = await startSvmNode({ accountCount: 1 });
  proxy = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { method: string; params: unknown[] };
      calls.push({ method: parsed.method, params: parsed.params });
      void fetch(upstream.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  fork = await startSvmNode({ accountCount: 1, fork: { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } });
});

afterAll(async () => {
  closeSolanaConnections();
  await fork?.stop();
  await new Promise((resolve) => (proxy ? (proxy.closeAllConnections(), proxy.close(resolve)) : resolve(undefined)));
  await upstream?.stop();
});

describe("a Solana fork's calls to its upstream", () => {
  it('are reads only, and ten clients asking for one account at once fetch it once', async () => {
    const holder = Keypair.generate();
    await solanaConnection(upstream.rpcUrl).requestAirdrop(holder.publicKey, 2 * LAMPORTS_PER_SOL);
    const connection = solanaConnection(fork.rpcUrl);
    const balances = await Promise.all(Array.from({ length: 10 }, () => connection.getBalance(holder.publicKey)));
    expect(balances).toEqual(Array(10).fill(2 * LAMPORTS_PER_SOL));
    const asked = (key: string) => calls.filter((call) => call.method === 'getMultipleAccounts' && (call.params[0] as string[]).includes(key)).length;
    expect(asked(holder.publicKey.toBase58())).toBe(1);

    const recipient = Keypair.generate().publicKey;
    await sendAndConfirmTransaction(connection, new Transaction().add(SystemProgram.transfer({ fromPubkey: holder.publicKey, toPubkey: recipient, lamports: LAMPORTS_PER_SOL })), [holder]);
    await connection.getTokenAccountsByOwner(holder.publicKey, { programId: new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA') });
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
    expect(asked(recipient.toBase58())).toBe(1);
    expect(asked(holder.publicKey.toBase58())).toBe(1);
    expect(new Set(calls.map((call) => call.method))).toEqual(new Set(['getMultipleAccounts', 'getTokenAccountsByOwner']));
  });
});
