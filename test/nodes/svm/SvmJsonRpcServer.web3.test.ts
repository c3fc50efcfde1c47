import { solanaConnection } from '../../support/solanaConnections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, TransactionMessage, VersionedTransaction, sendAndConfirmTransaction } from '@solana/web3.js';
import {
  address,
  appendTransactionMessageInstructions,
  blockhash as kitBlockhash,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { SvmLedger } from '../../../src/nodes/svm/SvmLedger';
import { SvmJsonRpcServer } from '../../../src/nodes/svm/SvmJsonRpcServer';

// the SVM chain's own JSON-RPC (HTTP + signatureSubscribe on port + 1), driven by @solana/web3.js Connection
let server: SvmJsonRpcServer;
let connection: Connection;
const clock = new VirtualClock({ mode: 'manual', startMs: Date.UTC(2026, 0, 1) });

beforeAll(async () => {
  const ledger = new SvmLedger({ clock, seed: 'web3-test', faucet: await generateKeyPairSigner() });
  server = new SvmJsonRpcServer(ledger, { host: '127.0.0.1' });
  const endpoints = await server.start();
  expect(endpoints.wsUrl).toBe(endpoints.rpcUrl.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`).replace('http:', 'ws:'));
  connection = solanaConnection(endpoints.rpcUrl);
});

afterAll(async () => {
  await server.stop();
});

describe('the SVM JSON-RPC with @solana/web3.js', () => {
  it('airdrops to a fresh keypair, and a signed transfer is sent, confirmed over the websocket, and read back', async () => {
    const user = Keypair.generate();
    const recipient = Keypair.generate().publicKey;
    const airdrop = await connection.requestAirdrop(user.publicKey, 2 * LAMPORTS_PER_SOL);
    const latest = await connection.getLatestBlockhash();
    const confirmed = await connection.confirmTransaction({ signature: airdrop, ...latest });
    expect(confirmed.value.err).toBeNull();
    expect(await connection.getBalance(user.publicKey)).toBe(2 * LAMPORTS_PER_SOL);

    const transfer = new Transaction().add(SystemProgram.transfer({ fromPubkey: user.publicKey, toPubkey: recipient, lamports: 123_456_789 }));
    const signature = await sendAndConfirmTransaction(connection, transfer, [user]);
    expect(await connection.getBalance(recipient)).toBe(123_456_789);
    expect(await connection.getBalance(user.publicKey)).toBe(2 * LAMPORTS_PER_SOL - 123_456_789 - 5000);

    const status = (await connection.getSignatureStatuses([signature])).value[0];
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    const mined = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    expect(mined?.meta?.fee).toBe(5000);
    expect(mined?.meta?.err).toBeNull();
    expect(mined?.blockTime).toBe(clock.nowSeconds());
    expect(mined?.transaction.message.staticAccountKeys.map((key) => key.toBase58())).toContain(recipient.toBase58());
    const recipientIndex = mined!.transaction.message.staticAccountKeys.findIndex((key) => key.equals(recipient));
    expect(mined!.meta!.postBalances[recipientIndex]! - mined!.meta!.preBalances[recipientIndex]!).toBe(123_456_789);
  });

  it('answers the reads a wallet makes: slot, block height, rent, fee for a message, account info, a missing account', async () => {
    const payer = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    const slot = await connection.getSlot();
    expect(await connection.getBlockHeight()).toBe(slot);
    expect(await connection.getMinimumBalanceForRentExemption(165)).toBe(2_039_280);
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 })] }).compileToV0Message();
    expect((await connection.getFeeForMessage(message)).value).toBe(5000);
    const info = await connection.getAccountInfo(payer.publicKey);
    expect(info?.owner.toBase58()).toBe(SystemProgram.programId.toBase58());
    expect(info?.lamports).toBe(LAMPORTS_PER_SOL);
    expect(await connection.getAccountInfo(Keypair.generate().publicKey)).toBeNull();
    const many = await connection.getMultipleAccountsInfo([payer.publicKey, new PublicKey('11111111111111111111111111111111')]);
    expect(many[0]?.lamports).toBe(LAMPORTS_PER_SOL);
    expect(many[1]?.executable).toBe(true);
  });

  it('refuses a transaction over 1232 bytes, a failing one at preflight, and simulates without keeping anything', async () => {
    const payer = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    const { blockhash } = await connection.getLatestBlockhash();
    const recipients = Array.from({ length: 40 }, () => Keypair.generate().publicKey);
    // web3.js will not serialize past 1232 bytes, so the oversized transaction is built with @solana/kit
    const signer = await createKeyPairSignerFromPrivateKeyBytes(payer.secretKey.subarray(0, 32));
    const big = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(signer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: kitBlockhash(blockhash), lastValidBlockHeight: 0n }, m),
        (m) => appendTransactionMessageInstructions(recipients.map((to) => getTransferSolInstruction({ source: signer, destination: address(to.toBase58()), amount: 1_000_000n })), m),
      ),
    );
    const wire = getBase64EncodedWireTransaction(big);
    expect(Buffer.from(wire, 'base64').length).toBeGreaterThan(1232);
    await expect(connection.sendEncodedTransaction(wire, { skipPreflight: true })).rejects.toThrow(/too large: \d+ bytes \(max: 1232 bytes\)/);

    const tooMuch = new VersionedTransaction(
      new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipients[0]!, lamports: 5 * LAMPORTS_PER_SOL })] }).compileToV0Message(),
    );
    tooMuch.sign([payer]);
    const simulated = await connection.simulateTransaction(tooMuch);
    expect(simulated.value.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    await expect(connection.sendRawTransaction(tooMuch.serialize())).rejects.toThrow(/Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1/);
    expect(await connection.getBalance(payer.publicKey)).toBe(LAMPORTS_PER_SOL);
  });

  it('answers a browser page (CORS) and the reads an explorer makes: a block\'s signatures, an address\'s transactions', async () => {
    const preflight = await fetch(connection.rpcEndpoint, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:1234', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('content-type');

    const user = Keypair.generate();
    const airdrop = await connection.requestAirdrop(user.publicKey, LAMPORTS_PER_SOL);
    const call = async (method: string, params: unknown[]) => {
      const response = await fetch(connection.rpcEndpoint, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:1234' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      return ((await response.json()) as { result: any }).result;
    };
    const signatures = await call('getSignaturesForAddress', [user.publicKey.toBase58(), { limit: 10 }]);
    expect(signatures).toEqual([expect.objectContaining({ signature: airdrop, err: null, confirmationStatus: 'finalized' })]);
    const block = await call('getBlock', [signatures[0].slot, { transactionDetails: 'signatures' }]);
    expect(block.signatures).toContain(airdrop);
    expect(block.parentSlot).toBe(signatures[0].slot - 1);
  });
});
