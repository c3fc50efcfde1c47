import { solanaConnection } from '../../support/solanaConnections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';
import { getBase58Encoder } from '@solana/kit';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';

// the SVM node alone, driven by @solana/web3.js (a client this project did not write) with the keys it printed
const base58Bytes = (text: string) => Uint8Array.from(getBase58Encoder().encode(text));

let node: StartedSvmNode;
let connection: Connection;

beforeAll(async () => {
  node = await startSvmNode({ accountCount: 2 });
  connection = solanaConnection(node.rpcUrl);
});

afterAll(async () => {
  await node?.stop();
});

describe('startSvmNode: the embedded SVM node alone, over its Solana JSON-RPC', () => {
  it('serves the RPC and its websocket on the next port, with the printed accounts funded in SOL and USDC', async () => {
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.wsUrl).toBe(node.rpcUrl.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`).replace('http:', 'ws:'));
    expect(node.chainId).toBe(792703809);
    expect(await connection.getVersion()).toHaveProperty('solana-core');
    expect(node.fundedAccounts).toHaveLength(2);
    const [first] = node.fundedAccounts;
    expect(first!.balance).toBe('1000 SOL, 1000000 USDC');
    // the printed key is the address's own, as Keypair.fromSecretKey takes a wallet's base58 export
    const keypair = Keypair.fromSecretKey(base58Bytes(first!.privateKey));
    expect(keypair.publicKey.toBase58()).toBe(first!.address);
    expect(await connection.getBalance(keypair.publicKey)).toBe(1000 * LAMPORTS_PER_SOL);
    const tokens = await connection.getParsedTokenAccountsByOwner(keypair.publicKey, { mint: new PublicKey(node.stablecoinMint) });
    expect(tokens.value.map((account) => account.account.data.parsed.info.tokenAmount.uiAmount)).toEqual([1_000_000]);
  });

  it('takes a transfer signed by a printed key, confirmed over the websocket', async () => {
    const [first, second] = node.fundedAccounts as [typeof node.fundedAccounts[0], typeof node.fundedAccounts[0]];
    const from = Keypair.fromSecretKey(base58Bytes(first.privateKey));
    const to = new PublicKey(second.address);
    const before = await connection.getBalance(to);
    const signature = await sendAndConfirmTransaction(connection, new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 42_000_000 })), [from]);
    expect(await connection.getBalance(to)).toBe(before + 42_000_000);
    const mined = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    expect(mined?.meta?.err).toBeNull();
  });

  it('makes the same keys for the same mnemonic, and closes both ports on stop()', async () => {
    const again = await startSvmNode({ accountCount: 2 });
    expect(again.rpcUrl).not.toBe(node.rpcUrl);
    expect(again.fundedAccounts.map((account) => account.address)).toEqual(node.fundedAccounts.map((account) => account.address));
    await again.stop();
    await expect(fetch(again.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow();
    await expect(fetch(again.wsUrl.replace('ws:', 'http:'))).rejects.toThrow();
  });
});
