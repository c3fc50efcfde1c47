import { solanaConnection } from '../../support/solanaConnections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, PublicKey, SystemProgram, Transaction, TransactionInstruction, sendAndConfirmTransaction, type Logs, type ParsedAccountData } from '@solana/web3.js';
import { getBase58Decoder, getBase58Encoder } from '@solana/kit';
import { startSvmNode, type StartedSvmNode } from '../../../src/nodes/svm/startSvmNode';

// Solana RPC parity, proven with @solana/web3.js (a client this project did not write), unshimmed,
// against the SVM node alone (startSvmNode)
const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let node: StartedSvmNode;
let connection: Connection;
let payer: Keypair;
let mint: PublicKey;

const ataOf = (owner: PublicKey) => PublicKey.findProgramAddressSync([owner.toBuffer(), TOKEN_PROGRAM.toBuffer(), mint.toBuffer()], ATA_PROGRAM)[0];

/** An SPL transfer as a wallet builds it by hand: create the recipient's ATA (idempotent), TransferChecked, a Memo. */
function splTransferWithMemo(to: PublicKey, amount: bigint, memo: string): Transaction {
  const data = Buffer.alloc(10);
  data.writeUInt8(12, 0);
  data.writeBigUInt64LE(amount, 1);
  data.writeUInt8(6, 9);
  return new Transaction().add(
    new TransactionInstruction({
      programId: ATA_PROGRAM,
      data: Buffer.from([1]),
      keys: [
        { pubkey: payer.publicKey, isSigner: true, isWritable: true },
        { pubkey: ataOf(to), isSigner: false, isWritable: true },
        { pubkey: to, isSigner: false, isWritable: false },
        { pubkey: mint, isSigner: false, isWritable: false },
        { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
        { pubkey: TOKEN_PROGRAM, isSigner: false, isWritable: false },
      ],
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM,
      data,
      keys: [
        { pubkey: ataOf(payer.publicKey), isSigner: false, isWritable: true },
        { pubkey: mint, isSigner: false, isWritable: false },
        { pubkey: ataOf(to), isSigner: false, isWritable: true },
        { pubkey: payer.publicKey, isSigner: true, isWritable: false },
      ],
    }),
    new TransactionInstruction({ programId: MEMO_PROGRAM, data: Buffer.from(memo, 'utf8'), keys: [] }),
  );
}

async function rawRpc(method: string, params: unknown[]) {
  const response = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) });
  return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { code: number; message: string } } };
}

beforeAll(async () => {
  node = await startSvmNode({ accountCount: 2 });
  connection = solanaConnection(node.rpcUrl);
  payer = Keypair.fromSecretKey(Uint8Array.from(getBase58Encoder().encode(node.fundedAccounts[0]!.privateKey)));
  mint = new PublicKey(node.stablecoinMint);
});

afterAll(async () => {
  await node?.stop();
});

describe('Solana RPC parity with @solana/web3.js', () => {
  it('getParsedTransaction parses an SPL transfer with a Memo as a validator does, and onLogs (all, mentions) and onProgramAccountChange hear it', async () => {
    const recipient = Keypair.generate().publicKey;
    const heardAll: Logs[] = [];
    const heardMentions: Logs[] = [];
    const heardAccounts: Array<{ pubkey: string; amount: string }> = [];
    const subscriptions = [
      connection.onLogs('all', (logs) => heardAll.push(logs)),
      connection.onLogs(recipient, (logs) => heardMentions.push(logs)),
      connection.onProgramAccountChange(
        TOKEN_PROGRAM,
        (changed) => heardAccounts.push({ pubkey: changed.accountId.toBase58(), amount: changed.accountInfo.data.readBigUInt64LE(64).toString() }),
        { commitment: 'confirmed', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: recipient.toBase58() } }] },
      ),
    ];
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the subscriptions reach the node
    const signature = await sendAndConfirmTransaction(connection, splTransferWithMemo(recipient, 2_500_000n, 'order 42'), [payer]);

    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
    expect(parsed?.meta?.err).toBeNull();
    const keys = parsed!.transaction.message.accountKeys;
    expect(keys[0]).toMatchObject({ signer: true, writable: true, source: 'transaction' });
    expect(keys[0]!.pubkey.toBase58()).toBe(payer.publicKey.toBase58());
    expect(keys.find((key) => key.pubkey.equals(TOKEN_PROGRAM))).toMatchObject({ signer: false, writable: false });
    const [create, transfer, memo] = parsed!.transaction.message.instructions as Array<{ program: string; programId: PublicKey; parsed: unknown }>;
    expect(create).toMatchObject({ program: 'spl-associated-token-account', parsed: { type: 'createIdempotent' } });
    expect((create!.parsed as { info: Record<string, string> }).info).toEqual({
      source: payer.publicKey.toBase58(),
      account: ataOf(recipient).toBase58(),
      wallet: recipient.toBase58(),
      mint: mint.toBase58(),
      systemProgram: SystemProgram.programId.toBase58(),
      tokenProgram: TOKEN_PROGRAM.toBase58(),
    });
    expect(transfer!.program).toBe('spl-token');
    expect(transfer!.programId.toBase58()).toBe(TOKEN_PROGRAM.toBase58());
    expect(transfer!.parsed).toEqual({
      type: 'transferChecked',
      info: {
        source: ataOf(payer.publicKey).toBase58(),
        mint: mint.toBase58(),
        destination: ataOf(recipient).toBase58(),
        authority: payer.publicKey.toBase58(),
        tokenAmount: { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' },
      },
    });
    expect(memo).toMatchObject({ program: 'spl-memo', parsed: 'order 42' });
    expect(parsed!.meta!.postTokenBalances!.find((balance) => balance.owner === recipient.toBase58())?.uiTokenAmount.amount).toBe('2500000');

    await expect.poll(() => heardAll.map((logs) => logs.signature)).toContain(signature);
    await expect.poll(() => heardMentions.map((logs) => logs.signature)).toEqual([signature]);
    expect(heardMentions[0]!.err).toBeNull();
    expect(heardMentions[0]!.logs.some((line) => line.includes(MEMO_PROGRAM.toBase58()))).toBe(true);
    await expect.poll(() => heardAccounts).toEqual([{ pubkey: ataOf(recipient).toBase58(), amount: '2500000' }]);
    for (const id of subscriptions.slice(0, 2)) await connection.removeOnLogsListener(id);
    await connection.removeProgramAccountChangeListener(subscriptions[2]!);
  });

  it('parses a System transfer, and shows a program it does not parse partially decoded', async () => {
    const other = Keypair.generate().publicKey;
    const unknownProgram = new PublicKey('ComputeBudget111111111111111111111111111111');
    const signature = await sendAndConfirmTransaction(
      connection,
      new Transaction().add(
        new TransactionInstruction({ programId: unknownProgram, data: Buffer.from([3, 1, 0, 0, 0, 0, 0, 0, 0]), keys: [] }),
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: other, lamports: 1_234_567 }),
      ),
      [payer],
    );
    const parsed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const [budget, transfer] = parsed!.transaction.message.instructions;
    // data in base58, as a validator shows a program it does not parse
    expect(budget).toMatchObject({ data: getBase58Decoder().decode(Uint8Array.from([3, 1, 0, 0, 0, 0, 0, 0, 0])), accounts: [] });
    expect((budget as { programId: PublicKey }).programId.toBase58()).toBe(unknownProgram.toBase58());
    expect(transfer).toMatchObject({ program: 'system', parsed: { type: 'transfer', info: { source: payer.publicKey.toBase58(), destination: other.toBase58(), lamports: 1_234_567 } } });
  });

  it('getProgramAccounts with dataSize and memcmp filters, jsonParsed; getTokenSupply, getTokenLargestAccounts, getParsedAccountInfo', async () => {
    const owned = await connection.getProgramAccounts(TOKEN_PROGRAM, { filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: payer.publicKey.toBase58() } }] });
    expect(owned.map((entry) => entry.pubkey.toBase58())).toContain(ataOf(payer.publicKey).toBase58());
    expect(owned.every((entry) => entry.account.data.length === 165 && new PublicKey(entry.account.data.subarray(32, 64)).equals(payer.publicKey))).toBe(true);
    const ofMint = await connection.getParsedProgramAccounts(TOKEN_PROGRAM, { filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint.toBase58() } }] });
    expect(ofMint.length).toBeGreaterThanOrEqual(4);
    expect(ofMint.every((entry) => (entry.account.data as ParsedAccountData).parsed.info.mint === mint.toBase58())).toBe(true);

    const supply = await connection.getTokenSupply(mint);
    const holders = await connection.getTokenLargestAccounts(mint);
    expect(supply.value.decimals).toBe(6);
    expect(BigInt(supply.value.amount)).toBe(holders.value.reduce((sum, holder) => sum + BigInt(holder.amount), 0n));
    expect(holders.value[0]!.uiAmount).toBe(100_000_000); // the solver's float, the largest
    expect(BigInt(holders.value[0]!.amount)).toBeGreaterThanOrEqual(BigInt(holders.value[1]!.amount));

    const mintInfo = await connection.getParsedAccountInfo(mint);
    expect((mintInfo.value?.data as ParsedAccountData)).toMatchObject({ program: 'spl-token', space: 82, parsed: { type: 'mint', info: { decimals: 6, isInitialized: true, supply: supply.value.amount } } });
    const tokenInfo = await connection.getParsedAccountInfo(ataOf(payer.publicKey));
    expect((tokenInfo.value?.data as ParsedAccountData).parsed).toMatchObject({ type: 'account', info: { owner: payer.publicKey.toBase58(), mint: mint.toBase58(), state: 'initialized', isNative: false } });
    // a wallet's empty data is not parsed: it comes back as bytes, as from a validator
    const wallet = await connection.getParsedAccountInfo(payer.publicKey);
    expect(Buffer.isBuffer(wallet.value?.data)).toBe(true);
  });

  it('answers the block listing and the constants a wallet asks for', async () => {
    const slot = await connection.getSlot();
    expect(await connection.getBlocks(0, slot)).toEqual(Array.from({ length: slot + 1 }, (_, index) => index));
    expect(await connection.getBlocks(Math.max(slot - 1, 0))).toEqual(slot > 0 ? [slot - 1, slot] : [0]);
    expect(await connection.getFirstAvailableBlock()).toBe(0);
    expect(await connection.getMinimumLedgerSlot()).toBe(0);
    expect(await connection.getInflationGovernor()).toEqual({ foundation: 0.05, foundationTerm: 7, initial: 0.08, taper: 0.15, terminal: 0.015 });
    expect((await connection.getInflationRate()).total).toBe(0.08);
    expect(await connection.getEpochSchedule()).toMatchObject({ slotsPerEpoch: 432000, warmup: false, firstNormalEpoch: 0, firstNormalSlot: 0 });
    expect(await connection.getEpochInfo()).toMatchObject({ epoch: 0, absoluteSlot: slot, slotIndex: slot, slotsInEpoch: 432000 });
    const supply = await connection.getSupply();
    expect(supply.value.total).toBeGreaterThan(1_000_000 * 1e9);
    expect(supply.value.circulating).toBe(supply.value.total);
    expect(await connection.getVoteAccounts()).toEqual({ current: [], delinquent: [] });
    const [clusterNode] = await connection.getClusterNodes();
    expect(clusterNode!.rpc).toBe(node.rpcUrl.replace('http://', ''));
    expect(clusterNode!.pubkey).toBe(((await rawRpc('getIdentity', [])).body.result as { identity: string }).identity);
    expect(await connection.getTransactionCount()).toBeGreaterThan(0);
  });

  it('answers a method it does not serve with the validator\'s own "Method not found", and base58 only where a validator allows it', async () => {
    expect(await rawRpc('getStakeActivation', [payer.publicKey.toBase58()])).toEqual({ status: 200, body: { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 7 } });
    const tooBig = await rawRpc('getAccountInfo', [ataOf(payer.publicKey).toBase58(), { encoding: 'base58' }]);
    expect(tooBig.body.error).toEqual({ code: -32600, message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.' });
    const sliced = await rawRpc('getAccountInfo', [ataOf(payer.publicKey).toBase58(), { encoding: 'base58', dataSlice: { offset: 32, length: 32 } }]);
    expect((sliced.body.result as { value: { data: [string, string] } }).value.data).toEqual([payer.publicKey.toBase58(), 'base58']);
  });
});
