// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success
import { closeSolanaConnections, solanaConnection } from '../../support/solanaConnections';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../../src/simulator';
import { getJson, postJson, usdcOf } from '../../support/bridgeClient';
import { cliProcessGroups, waitUntilGone, waitUntilSettled, type CliReady } from '../../support/cliProcess';
import { pooledChains } from '../../support/pooledNodes';
import { airdroppedKeypair, depositSolForEth, depositUsdcForSvm, SVM_CHAIN_ID as SVM, svmTokenBalance } from '../../support/svmClient';

const EVM = 8453;
const dir = mkdtempSync(join(tmpdir(), 'intentsim-svm-restart-'));
const running: RunningSimulator[] = [];
const groups = cliProcessGroups();

// each test kills or stops the simulators it started: their Connections go with them
afterEach(() => closeSolanaConnections());

afterAll(async () => {
  for (const sim of running) await sim.stop().catch(() => undefined);
  groups.killAll();
  rmSync(dir, { recursive: true, force: true });
});

function svmRpcOf(chains: ReadonlyArray<{ id: number; rpcUrl: string }>): Connection {
  return solanaConnection(chains.find((chain) => chain.id === SVM)!.rpcUrl);
}

function evmRpcOf(chains: ReadonlyArray<{ id: number; rpcUrl: string }>): string {
  return chains.find((chain) => chain.id === EVM)!.rpcUrl;
}

async function svmRpc(connection: Connection, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(connection.rpcEndpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

/** What a client reads of the SVM chain about the transactions it sent: slot, each one's slot, time, block and balances. */
async function chainView(connection: Connection, signatures: string[], owners: { sol: PublicKey[]; usdc: PublicKey[] }, mint: string) {
  const transactions = await Promise.all(
    signatures.map(async (signature) => {
      const mined = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
      if (!mined) return { signature, missing: true };
      // the simulator's getBlock answers with signatures only (web3.js's getBlock wants full transactions)
      const block = await svmRpc(connection, 'getBlock', [mined.slot]);
      return { signature, slot: mined.slot, blockTime: mined.blockTime, err: mined.meta?.err, preBalances: mined.meta?.preBalances, postBalances: mined.meta?.postBalances, block };
    }),
  );
  return {
    slot: await connection.getSlot(),
    transactions,
    sol: await Promise.all(owners.sol.map((owner) => connection.getBalance(owner))),
    usdc: await Promise.all(owners.usdc.map((owner) => svmTokenBalance(connection, owner, mint))),
  };
}

/** The status a client reads (`updatedAt` aside: the EVM side may refresh a deposit's block facts at start). */
async function statusOf(baseUrl: string, requestId: string) {
  const { status, inTxHashes, txHashes, originChainId, destinationChainId } = (await getJson(`${baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
  return { status, inTxHashes, txHashes, originChainId, destinationChainId };
}

/** A SOL transfer signed on `blockhash` (fetched before the restart), sent and confirmed. */
async function transferOnBlockhash(connection: Connection, from: Keypair, to: PublicKey, blockhash: string): Promise<string> {
  const message = new TransactionMessage({ payerKey: from.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL / 10 })] });
  const transaction = new VersionedTransaction(message.compileToV0Message());
  transaction.sign([from]);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  const latest = await connection.getLatestBlockhash();
  await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight: latest.lastValidBlockHeight });
  return signature;
}

describe('the SVM chain across a graceful restart on the same --db', () => {
  const options: StartSimulatorOptions = { port: 0, dbPath: join(dir, 'graceful.db'), env: {}, log: () => undefined, chains: [{ id: EVM, resetOnStart: false }, { id: SVM }] };

  it('keeps slots, blockhashes, signatures, balances and the bridges done before it; a pre-restart blockhash still pays a deposit after it', async () => {
    const first = await startSimulator(options);
    running.push(first);
    let connection = svmRpcOf(first.chains);
    const mint = await usdcOf(first.baseUrl, SVM);

    // SVM → EVM: a fresh keypair's SOL deposit, filled on the EVM chain
    const user = await airdroppedKeypair(connection, 5);
    const evmRecipient = first.accounts[3]!.address as Address;
    const outbound = await depositSolForEth({ baseUrl: first.baseUrl, connection, user, evmChainId: EVM, recipient: evmRecipient, lamports: BigInt(LAMPORTS_PER_SOL) });
    expect((await waitUntilSettled(first.baseUrl, outbound.requestId)).status).toBe('success');
    // EVM → SVM: USDC paid to a fresh SVM recipient by the solver's SPL transfer
    const svmRecipient = Keypair.generate().publicKey;
    const inbound = await depositUsdcForSvm({ baseUrl: first.baseUrl, evmChainId: EVM, evmRpcUrl: evmRpcOf(first.chains), privateKey: first.accounts[4]!.privateKey as Hex, recipient: svmRecipient.toBase58(), amount: 25_000_000n });
    const inboundStatus = await waitUntilSettled(first.baseUrl, inbound.requestId);
    expect(inboundStatus.status).toBe('success');
    const fill = inboundStatus.txHashes[0]!;
    // empty slots, and a blockhash a client holds across the restart
    expect((await postJson(`${first.baseUrl}/admin/chains/${SVM}/mine`, { blocks: 20 })).status).toBe(200);
    const heldBlockhash = (await connection.getLatestBlockhash()).blockhash;

    const owners = { sol: [user.publicKey, svmRecipient], usdc: [svmRecipient] };
    const signatures = [outbound.signature, fill];
    const before = await chainView(connection, signatures, owners, mint);
    expect(before.usdc[0]).toBe(inbound.currencyOut);
    const statusesBefore = await Promise.all([outbound.requestId, inbound.requestId].map((id) => statusOf(first.baseUrl, id)));
    const eventsBefore = [outbound.requestId, inbound.requestId].map((id) => first.control.requests.eventsFor(id).length);
    const evmBalanceBefore = await createPublicClient({ transport: http(evmRpcOf(first.chains)) }).getBalance({ address: evmRecipient });
    await first.stop();

    const second = await startSimulator(options);
    running.push(second);
    connection = svmRpcOf(second.chains);
    await second.control.solver.idle();
    const after = await chainView(connection, signatures, owners, mint);
    expect(after).toEqual(before);
    expect(after.transactions.every((transaction) => !('missing' in transaction))).toBe(true);
    // the records are what they were, and nothing was done twice (no second fill, no extra transition)
    expect(await Promise.all([outbound.requestId, inbound.requestId].map((id) => statusOf(second.baseUrl, id)))).toEqual(statusesBefore);
    expect([outbound.requestId, inbound.requestId].map((id) => second.control.requests.eventsFor(id).length)).toEqual(eventsBefore);
    expect(await createPublicClient({ transport: http(evmRpcOf(second.chains)) }).getBalance({ address: evmRecipient })).toBe(evmBalanceBefore);

    // the blockhash fetched before the restart is still valid, and pays a new deposit the watcher sees
    expect((await connection.isBlockhashValid(heldBlockhash)).value).toBe(true);
    const again = await depositSolForEth({ baseUrl: second.baseUrl, connection, user, evmChainId: EVM, recipient: evmRecipient, lamports: BigInt(LAMPORTS_PER_SOL), blockhash: heldBlockhash });
    const againStatus = await waitUntilSettled(second.baseUrl, again.requestId);
    expect(againStatus).toMatchObject({ status: 'success', inTxHashes: [again.signature] });
    expect((await connection.getTransaction(again.signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' }))?.slot).toBe(before.slot + 1);
    // and the solver's SVM wallet pays again after the restart
    const inboundAgain = await depositUsdcForSvm({ baseUrl: second.baseUrl, evmChainId: EVM, evmRpcUrl: evmRpcOf(second.chains), privateKey: second.accounts[4]!.privateKey as Hex, recipient: svmRecipient.toBase58(), amount: 10_000_000n });
    expect((await waitUntilSettled(second.baseUrl, inboundAgain.requestId)).status).toBe('success');
    expect(await svmTokenBalance(connection, svmRecipient, mint)).toBe(inbound.currencyOut + inboundAgain.currencyOut);
    await second.stop();
  }, 120_000);

  it('without --db every start is genesis again', async () => {
    const start = () => startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: SVM }] });
    const first = await start();
    running.push(first);
    const connection = svmRpcOf(first.chains);
    const user = await airdroppedKeypair(connection, 2);
    const signature = await transferOnBlockhash(connection, user, Keypair.generate().publicKey, (await connection.getLatestBlockhash()).blockhash);
    expect(await connection.getSlot()).toBe(2);
    await first.stop();

    const second = await start();
    running.push(second);
    const fresh = svmRpcOf(second.chains);
    expect(await fresh.getSlot()).toBe(0);
    expect(await fresh.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' })).toBeNull();
    expect(await fresh.getBalance(user.publicKey)).toBe(0);
    await second.stop();
  }, 60_000);
});

describe('the SVM chain after a SIGKILL of the whole process group', () => {
  const startInOwnGroup = () => groups.start(['--chains', `${EVM},${SVM}`, '--db', join(dir, 'killed.db')]);

  it('loses nothing a client was told: transactions, slots, balances and statuses come back, and a held blockhash still pays', async () => {
    const first = await startInOwnGroup();
    const ready: CliReady = first.ready;
    const connection = svmRpcOf(ready.chains);
    const mint = await usdcOf(ready.baseUrl, SVM);
    const user = await airdroppedKeypair(connection, 5);
    const outbound = await depositSolForEth({ baseUrl: ready.baseUrl, connection, user, evmChainId: EVM, recipient: ready.accounts[3]!.address, lamports: BigInt(LAMPORTS_PER_SOL) });
    expect((await waitUntilSettled(ready.baseUrl, outbound.requestId)).status).toBe('success');
    const svmRecipient = Keypair.generate().publicKey;
    const inbound = await depositUsdcForSvm({ baseUrl: ready.baseUrl, evmChainId: EVM, evmRpcUrl: evmRpcOf(ready.chains), privateKey: ready.accounts[4]!.privateKey, recipient: svmRecipient.toBase58(), amount: 25_000_000n });
    const inboundStatus = await waitUntilSettled(ready.baseUrl, inbound.requestId);
    expect(inboundStatus.status).toBe('success');
    const heldBlockhash = (await connection.getLatestBlockhash()).blockhash;
    const owners = { sol: [user.publicKey, svmRecipient], usdc: [svmRecipient] };
    const signatures = [outbound.signature, inboundStatus.txHashes[0]!];
    const before = await chainView(connection, signatures, owners, mint);

    process.kill(-first.top.pid!, 'SIGKILL');
    expect(await waitUntilGone([first.top.pid!], 10_000)).toEqual([]);

    const second = await startInOwnGroup();
    const again = svmRpcOf(second.ready.chains);
    expect(await chainView(again, signatures, owners, mint)).toEqual(before);
    for (const requestId of [outbound.requestId, inbound.requestId]) expect((await waitUntilSettled(second.ready.baseUrl, requestId)).status).toBe('success');
    expect((await statusOf(second.ready.baseUrl, inbound.requestId)).txHashes).toEqual(inboundStatus.txHashes);
    expect(await svmTokenBalance(again, svmRecipient, mint)).toBe(inbound.currencyOut); // paid once

    const next = await depositSolForEth({ baseUrl: second.ready.baseUrl, connection: again, user, evmChainId: EVM, recipient: second.ready.accounts[3]!.address, lamports: BigInt(LAMPORTS_PER_SOL), blockhash: heldBlockhash });
    expect(await waitUntilSettled(second.ready.baseUrl, next.requestId)).toMatchObject({ status: 'success' });
    process.kill(-second.top.pid!, 'SIGTERM');
    await waitUntilGone([second.top.pid!], 20_000);
  }, 180_000);
});
