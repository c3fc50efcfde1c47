import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createPublicClient, createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { postJson, usdcOf } from './bridgeClient';

/** The SVM chain's id (the one the official SDK gives Solana). */
export const SVM_CHAIN_ID = 792703809;
/** Native SOL's address on the SVM chain. */
export const SOL = '11111111111111111111111111111111';

export interface SvmStepItemData {
  instructions: Array<{ keys: Array<{ pubkey: string; isSigner: boolean; isWritable: boolean }>; programId: string; data: string }>;
  addressLookupTableAddresses: string[];
}


/** A fresh keypair funded by `requestAirdrop`, confirmed. */
export async function airdroppedKeypair(connection: Connection, sol: number): Promise<Keypair> {
  const user = Keypair.generate();
  const signature = await connection.requestAirdrop(user.publicKey, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature, ...(await connection.getLatestBlockhash()) });
  return user;
}

/**
 * What the official SDK's SVM adapter does with a step item: a v0 transaction of its
 * instructions, the user paying and signing, on the latest blockhash (or `blockhash`, one the
 * client fetched earlier). Resolves with the signature once it is confirmed.
 */
export async function sendSvmStepItem(connection: Connection, user: Keypair, data: SvmStepItemData, blockhash?: string): Promise<string> {
  const instructions = data.instructions.map(
    (instruction) =>
      new TransactionInstruction({
        programId: new PublicKey(instruction.programId),
        keys: instruction.keys.map((key) => ({ pubkey: new PublicKey(key.pubkey), isSigner: key.isSigner, isWritable: key.isWritable })),
        data: Buffer.from(instruction.data, 'hex'),
      }),
  );
  const latest = await connection.getLatestBlockhash();
  const recentBlockhash = blockhash ?? latest.blockhash;
  const transaction = new VersionedTransaction(new TransactionMessage({ payerKey: user.publicKey, recentBlockhash, instructions }).compileToV0Message());
  transaction.sign([user]);
  const signature = await connection.sendRawTransaction(transaction.serialize());
  await connection.confirmTransaction({ signature, blockhash: recentBlockhash, lastValidBlockHeight: latest.lastValidBlockHeight });
  return signature;
}

/** Quotes `lamports` of SOL on the SVM chain → ETH on `evmChainId` and sends the deposit; resolves with the request id and the deposit's signature. */
export async function depositSolForEth(params: { baseUrl: string; connection: Connection; user: Keypair; evmChainId: number; recipient: Address; lamports: bigint; blockhash?: string }): Promise<{ requestId: Hex; signature: string }> {
  const quote = await postJson(`${params.baseUrl}/quote/v2`, {
    user: params.user.publicKey.toBase58(),
    recipient: params.recipient,
    originChainId: SVM_CHAIN_ID,
    destinationChainId: params.evmChainId,
    originCurrency: SOL,
    destinationCurrency: zeroAddress,
    amount: String(params.lamports),
    tradeType: 'EXACT_INPUT',
  });
  if (quote.status !== 200) throw new Error(`SVM → EVM quote failed (${quote.status}): ${JSON.stringify(quote.body)}`);
  const step = quote.body.steps[0];
  return { requestId: step.requestId as Hex, signature: await sendSvmStepItem(params.connection, params.user, step.items[0].data as SvmStepItemData, params.blockhash) };
}

/** Quotes USDC on `evmChainId` → USDC on the SVM chain for `recipient` and sends every step item from `privateKey` (each receipt waited for); resolves with the request id. */
export async function depositUsdcForSvm(params: { baseUrl: string; evmChainId: number; evmRpcUrl: string; privateKey: Hex; recipient: string; amount: bigint }): Promise<{ requestId: Hex; currencyOut: bigint }> {
  const account = privateKeyToAccount(params.privateKey);
  const quote = await postJson(`${params.baseUrl}/quote/v2`, {
    user: account.address,
    recipient: params.recipient,
    originChainId: params.evmChainId,
    destinationChainId: SVM_CHAIN_ID,
    originCurrency: await usdcOf(params.baseUrl, params.evmChainId),
    destinationCurrency: await usdcOf(params.baseUrl, SVM_CHAIN_ID),
    amount: String(params.amount),
    tradeType: 'EXACT_INPUT',
  });
  if (quote.status !== 200) throw new Error(`EVM → SVM quote failed (${quote.status}): ${JSON.stringify(quote.body)}`);
  const wallet = createWalletClient({ account, transport: http(params.evmRpcUrl) });
  const client = createPublicClient({ transport: http(params.evmRpcUrl) });
  for (const step of quote.body.steps as Array<{ items: Array<{ data: { to: Address; data: Hex; value: string } }> }>) {
    for (const { data: item } of step.items) {
      const hash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value), chain: null });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
      if (receipt.status !== 'success') throw new Error(`an EVM → SVM step item reverted (${hash})`);
    }
  }
  return { requestId: quote.body.steps.at(-1).requestId as Hex, currencyOut: BigInt(quote.body.details.currencyOut.amount) };
}

/** `owner`'s balance of `mint` (its associated token account, or 0 without one), in base units. */
export async function svmTokenBalance(connection: Connection, owner: PublicKey, mint: string): Promise<bigint> {
  const accounts = await connection.getTokenAccountsByOwner(owner, { mint: new PublicKey(mint) });
  if (accounts.value.length === 0) return 0n;
  return BigInt((await connection.getTokenAccountBalance(accounts.value[0]!.pubkey)).value.amount);
}
