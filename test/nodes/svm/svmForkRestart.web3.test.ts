import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';
import { closeSolanaConnections, solanaConnection } from '../../support/solanaConnections';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { DEFAULT_MNEMONIC } from '../../../src/keys/defaultMnemonic';
import { openDatabase } from '../../../src/store/openDatabase';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { deriveSvmAccounts } from '../../../src/nodes/svm/svmAccounts';
import { runSvmNode, type RunningSvmNode } from '../../../src/nodes/svm/SvmNode';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';

// A fork's journal (--db) keeps what it read from its upstream: a restart with the upstream stopped
// shows the same accounts; an upstream that refuses or does not answer fails a read fast, naming it.
const CHAIN_ID = 792703809;

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  closeSolanaConnections();
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function forkingNode(url: string, journal: LedgerJournalStore, clock: VirtualClock): Promise<RunningSvmNode> {
  const accounts = await deriveSvmAccounts(DEFAULT_MNEMONIC, 1);
  const node = await runSvmNode({ chainId: CHAIN_ID, clock, mnemonic: DEFAULT_MNEMONIC, accounts, host: '127.0.0.1', journal, fork: { url } });
  stops.push(() => node.stop());
  return node;
}

async function upstreamNode(): Promise<StartedSvmNode> {
  const node = await startSvmNode({ accountCount: 1 });
  stops.push(() => node.stop());
  return node;
}

/** A port nothing listens on (one was given, then closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** How long `read` takes to reject, and with what message. */
async function failure(read: () => Promise<unknown>): Promise<{ message: string; ms: number }> {
  const started = performance.now();
  const error = await read().then(
    () => new Error('the read succeeded'),
    (rejected: unknown) => rejected,
  );
  return { message: error instanceof Error ? error.message : String(error), ms: performance.now() - started };
}

describe("a forked Solana node's journal and its upstream's failures", () => {
  it('a restart on the same journal, with the upstream stopped, shows the accounts read from it and what the fork did with them', async () => {
    const db = openDatabase(':memory:');
    stops.push(async () => db.close());
    const journal = new LedgerJournalStore(db);
    const clock = new VirtualClock({ mode: 'real' });
    stops.push(async () => clock.cancelAll());
    const upstream = await upstreamNode();
    const holder = Keypair.generate();
    const nobody = Keypair.generate().publicKey;
    await solanaConnection(upstream.rpcUrl).requestAirdrop(holder.publicKey, 3 * LAMPORTS_PER_SOL);

    const first = await forkingNode(upstream.rpcUrl, journal, clock);
    const connection = solanaConnection(first.endpoints.rpcUrl);
    expect(await connection.getBalance(holder.publicKey)).toBe(3 * LAMPORTS_PER_SOL);
    expect(await connection.getAccountInfo(nobody)).toBeNull();
    const recipient = Keypair.generate().publicKey;
    await sendAndConfirmTransaction(connection, new Transaction().add(SystemProgram.transfer({ fromPubkey: holder.publicKey, toPubkey: recipient, lamports: LAMPORTS_PER_SOL })), [holder]);
    const holderAfter = await connection.getBalance(holder.publicKey);
    // its websocket would try the stopped node again and again
    closeSolanaConnections();
    await first.stop();
    await upstream.stop();

    const again = await forkingNode(upstream.rpcUrl, journal, clock);
    const restarted = solanaConnection(again.endpoints.rpcUrl);
    expect(await restarted.getBalance(holder.publicKey)).toBe(holderAfter);
    expect(await restarted.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
    // known to be empty upstream: answered without it
    expect(await restarted.getAccountInfo(nobody)).toBeNull();
    // an address never read before needs the upstream, which is gone: a clear error, at once
    const unread = await failure(() => restarted.getBalance(Keypair.generate().publicKey));
    expect(unread.message).toContain(`the fork's upstream ${upstream.rpcUrl} failed getMultipleAccounts`);
    expect(unread.ms).toBeLessThan(2_000);
  });

  it('an upstream that refuses connections or does not answer fails the read with a JSON-RPC error naming it, within its timeout', async () => {
    const closed = await freePort();
    const refused = await startSvmNode({ accountCount: 1, fork: { url: `http://127.0.0.1:${closed}` } });
    stops.push(() => refused.stop());
    const refusal = await failure(() => solanaConnection(refused.rpcUrl).getBalance(Keypair.generate().publicKey));
    expect(refusal.message).toContain(`the fork's upstream http://127.0.0.1:${closed} failed getMultipleAccounts: fetch failed: connect ECONNREFUSED`);
    expect(refusal.ms).toBeLessThan(2_000);

    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => (silent.closeAllConnections(), silent.close(resolve))));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const waiting = await startSvmNode({ accountCount: 1, fork: { url, timeoutMs: 300 } });
    stops.push(() => waiting.stop());
    const response = await fetch(waiting.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'getAccountInfo', params: [new PublicKey(Keypair.generate().publicKey).toBase58()] }),
    });
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: `the fork's upstream ${url} failed getMultipleAccounts: no answer within 300 ms` } });
    // a transaction using an account the upstream must be asked for fails the same way, and nothing is mined
    const payer = waiting.keys.testAccounts[0]!;
    const connection = solanaConnection(waiting.rpcUrl);
    const slot = await connection.getSlot();
    const send = await failure(() =>
      sendAndConfirmTransaction(connection, new Transaction().add(SystemProgram.transfer({ fromPubkey: new PublicKey(payer.address), toPubkey: Keypair.generate().publicKey, lamports: 1 })), [Keypair.fromSecretKey(payer.secretKey)]),
    );
    expect(send.message).toContain(`the fork's upstream ${url} failed getMultipleAccounts: no answer within 300 ms`);
    expect(await connection.getSlot()).toBe(slot);
  });
  it("an upstream account LiteSVM cannot load (a program that is not an ELF) is answered as an error naming it, and not kept", async () => {
    const program = Keypair.generate().publicKey.toBase58();
    // an upstream whose one account is an executable of the BPF loader holding three bytes
    const upstream: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const { id, params } = JSON.parse(body) as { id: number; params: [string[]] };
        const value = params[0].map((key) => (key === program ? { lamports: 1_000_000, owner: 'BPFLoader2111111111111111111111111111111111', data: [Buffer.from([1, 2, 3]).toString('base64'), 'base64'], executable: true, space: 3 } : null));
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: { context: { slot: 1 }, value } }));
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => (upstream.closeAllConnections(), upstream.close(resolve))));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const fork = await startSvmNode({ accountCount: 1, fork: { url } });
    stops.push(() => fork.stop());
    const read = await failure(() => solanaConnection(fork.rpcUrl).getAccountInfo(new PublicKey(program)));
    expect(read.message).toContain(`account ${program} of the fork's upstream ${url} cannot be loaded here: Failed to set account`);
    expect(fork.ledger.answersFor(program as never)).toBe(false);
  });
});
