import { solanaConnection } from '../../support/solanaConnections';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { getJson, postJson, requestJson } from '../../support/bridgeClient';
import { pooledChains } from '../../support/pooledNodes';
import { airdroppedKeypair, SVM_CHAIN_ID as SVM } from '../../support/svmClient';

// the control plane on the Solana chain, over HTTP, seen with @solana/web3.js
const EVM = 8453;
let sim: RunningSimulator;
let connection: Connection;
let payer: Keypair;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, clockMode: 'manual', chains: [...pooledChains([EVM]), { id: SVM }] });
  connection = solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl);
  payer = await airdroppedKeypair(connection, 100);
});

afterAll(async () => {
  await sim?.stop();
});

const admin = (path: string, body: unknown = {}) => postJson(`${sim.baseUrl}/admin${path}`, body);

/** A SOL transfer signed with web3.js on the latest blockhash, sent raw; resolves with its signature. */
async function transfer(to: PublicKey, lamports: number): Promise<string> {
  const { blockhash } = await connection.getLatestBlockhash();
  const transaction = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })] }).compileToV0Message());
  transaction.sign([payer]);
  return connection.sendRawTransaction(transaction.serialize());
}

const found = async (signature: string) => (await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0] !== null;

describe('the control plane on the Solana chain (792703809)', () => {
  it('mines slots, and moves the slots\' time with the clock', async () => {
    const slot = await connection.getSlot();
    expect(await admin(`/chains/${SVM}/mine`, { blocks: 3 })).toMatchObject({ status: 200, body: { chainId: SVM, mined: 3 } });
    expect(await connection.getSlot()).toBe(slot + 3);
    const before = (await getJson(`${sim.baseUrl}/admin/clock`)).body.now as number;
    expect((await admin('/clock/advance', { seconds: 60 })).body.now).toBe(before + 60_000);
    await admin(`/chains/${SVM}/mine`, { blocks: 1 });
    expect(await connection.getBlockTime(slot + 4)).toBe(Math.floor((before + 60_000) / 1000));
  });

  it('snapshots and reverts: what came after the snapshot is gone; a snapshot is used once', async () => {
    const recipient = Keypair.generate().publicKey;
    const snapshot = await admin(`/chains/${SVM}/snapshot`);
    expect(snapshot.status).toBe(201);
    expect(snapshot.body.id).toMatch(/^0x[0-9a-f]+$/);
    const slot = await connection.getSlot();
    const signature = await transfer(recipient, LAMPORTS_PER_SOL);
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);

    expect(await admin(`/chains/${SVM}/revert`, { id: snapshot.body.id })).toMatchObject({ status: 200, body: { revertedTo: snapshot.body.id } });
    expect(await connection.getBalance(recipient)).toBe(0);
    expect(await found(signature)).toBe(false);
    expect(await connection.getSlot()).toBe(slot);
    const again = await admin(`/chains/${SVM}/revert`, { id: snapshot.body.id });
    expect(again).toMatchObject({ status: 400, body: { errorCode: 'CHEAT_CALL_REFUSED' } });
    expect(again.body.message).toContain(`no snapshot ${snapshot.body.id}`);
  });

  it('reorgs: the last slots are replaced by as many empty ones, on new blockhashes', async () => {
    const recipient = Keypair.generate().publicKey;
    const signature = await transfer(recipient, LAMPORTS_PER_SOL);
    const slot = await connection.getSlot();
    const { blockhash } = await connection.getLatestBlockhash();
    expect(await admin(`/chains/${SVM}/reorg`, { depth: 2 })).toMatchObject({ status: 200, body: { chainId: SVM, depth: 2 } });
    expect(await connection.getSlot()).toBe(slot);
    expect((await connection.getLatestBlockhash()).blockhash).not.toBe(blockhash);
    expect((await connection.isBlockhashValid(blockhash)).value).toBe(false);
    expect(await found(signature)).toBe(false);
    expect(await connection.getBalance(recipient)).toBe(0);
  });

  it('drops transactions on the admin fault route: listed, answered with a signature, never mined, cleared', async () => {
    const recipient = Keypair.generate().publicKey;
    const set = await admin('/faults', { chainId: SVM, kind: 'drop-transactions', target: 'all' });
    expect(set.status).toBe(201);
    expect(set.body.faults).toEqual([{ chainId: SVM, kind: 'drop-transactions', target: 'all' }]);
    expect((await getJson(`${sim.baseUrl}/admin/faults`)).body.faults).toEqual([{ chainId: SVM, kind: 'drop-transactions', target: 'all' }]);
    const slot = await connection.getSlot();
    const dropped = await transfer(recipient, LAMPORTS_PER_SOL);
    expect(await found(dropped)).toBe(false);
    expect(await connection.getSlot()).toBe(slot);

    // the quote-time RPC faults list beside it, and DELETE clears both
    await admin('/faults', { chainId: EVM, kind: 'rpc-error' });
    expect((await getJson(`${sim.baseUrl}/admin/faults`)).body.faults).toHaveLength(2);
    expect((await requestJson(`${sim.baseUrl}/admin/faults`, { method: 'DELETE' })).body.faults).toEqual([]);
    await transfer(recipient, LAMPORTS_PER_SOL);
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
  });

  it('refuses drop-transactions where it is not simulated, and a target it does not know', async () => {
    const onEvm = await admin('/faults', { chainId: EVM, kind: 'drop-transactions', target: 'fill' });
    expect(onEvm).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_ON_CHAIN' } });
    const badTarget = await admin('/faults', { chainId: SVM, kind: 'drop-transactions', target: 'refund' });
    expect(badTarget.status).toBe(400);
    expect(badTarget.body.errorCode).toBe('INVALID_INPUT_PARAMS');
    expect((await getJson(`${sim.baseUrl}/admin/faults`)).body.faults).toEqual([]);
  });
});
