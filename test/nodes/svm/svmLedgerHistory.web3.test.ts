import { solanaConnection } from '../../support/solanaConnections';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { getBase58Encoder } from '@solana/kit';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';
import { openDatabase } from '../../../src/store/openDatabase';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { deriveSvmAccounts } from '../../../src/nodes/svm/svmAccounts';
import { runSvmNode } from '../../../src/nodes/svm/SvmNode';

// rollbacks, snapshots, reorgs and dropped transactions of the embedded SVM node, seen by @solana/web3.js
const MNEMONIC = 'test test test test test test test test test test test junk';
const CHAIN_ID = 792703809;
const nodes: StartedSvmNode[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.stop()));
});

async function started(): Promise<{ node: StartedSvmNode; connection: Connection; payer: Keypair }> {
  const node = await startSvmNode({ clock: new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) }) });
  nodes.push(node);
  const payer = Keypair.fromSecretKey(new Uint8Array(getBase58Encoder().encode(node.fundedAccounts[0]!.privateKey)));
  return { node, connection: solanaConnection(node.rpcUrl), payer };
}

/** A SOL transfer signed with web3.js on `blockhash` (default: the latest), sent raw; resolves with its signature. */
async function sendTransfer(connection: Connection, payer: Keypair, to: PublicKey, lamports: number, blockhash?: string): Promise<string> {
  const recentBlockhash = blockhash ?? (await connection.getLatestBlockhash()).blockhash;
  const transaction = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })] }).compileToV0Message());
  transaction.sign([payer]);
  return connection.sendRawTransaction(transaction.serialize(), { skipPreflight: true });
}

describe('the SVM ledger goes back in its history', () => {
  it('rolls back a transfer: getSignatureStatuses and getTransaction no longer find it, balances are back, its blockhash is gone', async () => {
    const { node, connection, payer } = await started();
    const recipient = Keypair.generate().publicKey;
    const before = await connection.getBalance(payer.publicKey);
    const slotBefore = await connection.getSlot();
    const signature = await sendTransfer(connection, payer, recipient, LAMPORTS_PER_SOL);
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL);
    const blockhashAfter = (await connection.getLatestBlockhash()).blockhash;

    expect(await node.history.rollBack(1)).toBe(BigInt(slotBefore));
    expect(await connection.getSlot()).toBe(slotBefore);
    expect((await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0]).toBeNull();
    expect(await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 })).toBeNull();
    expect(await connection.getBalance(recipient)).toBe(0);
    expect(await connection.getBalance(payer.publicKey)).toBe(before);
    expect((await connection.isBlockhashValid(blockhashAfter)).value).toBe(false);

    // the next slot is a new fork: same number, another blockhash
    await sendTransfer(connection, payer, recipient, 2 * LAMPORTS_PER_SOL);
    expect(await connection.getSlot()).toBe(slotBefore + 1);
    expect((await connection.getLatestBlockhash()).blockhash).not.toBe(blockhashAfter);
    expect(await connection.getBalance(recipient)).toBe(2 * LAMPORTS_PER_SOL);
  });

  it('reverts to a snapshot (hex ids like Anvil, used once) and reorgs: the last N slots replaced by N empty ones', async () => {
    const { node, connection, payer } = await started();
    const recipient = Keypair.generate().publicKey;
    const first = node.history.snapshot();
    expect(first).toBe('0x0');
    await sendTransfer(connection, payer, recipient, 1_000_000);
    const second = node.history.snapshot();
    expect(second).toBe('0x1');
    await sendTransfer(connection, payer, recipient, 2_000_000);
    node.ledger.mine(3);
    expect(await connection.getBalance(recipient)).toBe(3_000_000);

    await node.history.revert(second);
    expect(await connection.getBalance(recipient)).toBe(1_000_000);
    await expect(node.history.revert(second)).rejects.toThrow(/no snapshot 0x1/);
    await node.history.revert(first);
    expect(await connection.getBalance(recipient)).toBe(0);
    expect(await connection.getSlot()).toBe(0);

    const signature = await sendTransfer(connection, payer, recipient, 5_000_000);
    const slot = await connection.getSlot();
    const replaced = (await connection.getLatestBlockhash()).blockhash;
    await node.history.reorg(1);
    expect(await connection.getSlot()).toBe(slot);
    expect((await connection.getLatestBlockhash()).blockhash).not.toBe(replaced);
    expect((await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0]).toBeNull();
    expect(await connection.getBalance(recipient)).toBe(0);
  });

  it('refuses a transaction whose blockhash is older than 150 blocks with "Blockhash not found": none lands past lastValidBlockHeight', async () => {
    const { node, connection, payer } = await started();
    const latest = await connection.getLatestBlockhash();
    node.ledger.mine(149);
    const recipient = Keypair.generate().publicKey;
    const last = await sendTransfer(connection, payer, recipient, 1_000_000, latest.blockhash);
    expect((await connection.getSignatureStatuses([last])).value[0]?.slot).toBe(latest.lastValidBlockHeight);
    expect(await connection.getBlockHeight()).toBe(latest.lastValidBlockHeight);
    const expired = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: latest.blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 7 })] }).compileToV0Message());
    expired.sign([payer]);
    await expect(connection.sendRawTransaction(expired.serialize())).rejects.toThrow(/Blockhash not found/);
    await expect(connection.sendRawTransaction(expired.serialize(), { skipPreflight: true })).rejects.toThrow(/Blockhash not found/);
    expect(await connection.getBlockHeight()).toBe(latest.lastValidBlockHeight);
  });

  it('drops what the fault picks: sendTransaction answers a signature that never lands', async () => {
    const { node, connection, payer } = await started();
    const recipient = Keypair.generate().publicKey;
    node.ledger.setDropFilter(() => true);
    const slot = await connection.getSlot();
    const signature = await sendTransfer(connection, payer, recipient, 1_000_000);
    expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(await connection.getSlot()).toBe(slot);
    expect((await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0]).toBeNull();
    node.ledger.setDropFilter(undefined);
    await sendTransfer(connection, payer, recipient, 1_000_000);
    expect(await connection.getBalance(recipient)).toBe(1_000_000);
  });

  it('comes back the same after a restart on the same database after a rollback and a reorg', async () => {
    const db = openDatabase(':memory:');
    try {
      const journal = new LedgerJournalStore(db);
      const accounts = await deriveSvmAccounts(MNEMONIC, 2);
      const clock = new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) });
      const run = () => runSvmNode({ chainId: CHAIN_ID, clock, mnemonic: MNEMONIC, accounts, host: '127.0.0.1', journal });
      const first = await run();
      const connection = solanaConnection(first.endpoints.rpcUrl);
      const payer = Keypair.fromSecretKey(new Uint8Array(getBase58Encoder().encode(accounts.testAccounts[0]!.secretKeyBase58)));
      const recipient = Keypair.generate().publicKey;
      const kept = await sendTransfer(connection, payer, recipient, 1_000_000);
      first.ledger.mine(4);
      const gone = await sendTransfer(connection, payer, recipient, 2_000_000);
      await first.history.rollBack(3); // the transfer and the last two of the four empty slots
      await first.history.reorg(2);
      clock.advance(5000);
      await sendTransfer(connection, payer, recipient, 4_000_000);
      const view = async (rpcUrl: string) => {
        const c = solanaConnection(rpcUrl);
        const slot = await c.getSlot();
        return { slot, blockhash: (await c.getLatestBlockhash()).blockhash, balance: await c.getBalance(recipient), statuses: (await c.getSignatureStatuses([kept, gone], { searchTransactionHistory: true })).value.map((status) => status?.slot ?? null) };
      };
      const beforeRestart = await view(first.endpoints.rpcUrl);
      await first.stop();
      const second = await run();
      try {
        expect(await view(second.endpoints.rpcUrl)).toEqual(beforeRestart);
        expect(beforeRestart.balance).toBe(5_000_000);
        expect(beforeRestart.statuses[1]).toBeNull();
      } finally {
        await second.stop();
      }
    } finally {
      db.close();
    }
  });
});
