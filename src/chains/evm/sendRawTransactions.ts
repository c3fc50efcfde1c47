import { bytesToHex, hexToBytes, keccak256, serializeTransaction, type Address, type Hex, type PublicClient, type TransactionSerializableEIP1559 } from 'viem';
import { sign } from 'viem/accounts';
import type { KeyedPrivateKeyAccount } from '../../keys/nativeKeyAccount';
import { startDerivationCache, type StartDerivationCache } from '../../keys/startDerivationCache';
import { waitForReceipt } from './waitForReceipt';

export interface PlainTransaction {
  to?: Address;
  data?: Hex;
  value?: bigint;
  gas: bigint;
}

/**
 * Signs a batch of transactions locally with consecutive nonces and sends them one at a time,
 * each after the previous one's receipt, so each is mined in a block of its own. Sent all at
 * once, a loaded Anvil sometimes packs two into one block: the chain then has fewer blocks and
 * another base fee, and every quote priced on it differs. Used at start-up to deploy and fund.
 */
export async function sendRawTransactions(params: {
  client: PublicClient;
  account: KeyedPrivateKeyAccount;
  chainId: number;
  startNonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  transactions: readonly PlainTransaction[];
}): Promise<void> {
  const signatures = startDerivationCache();
  for (const [i, tx] of params.transactions.entries()) {
    const serialized = await signSetUpTransaction(params.account, signatures, {
      type: 'eip1559',
      chainId: params.chainId,
      nonce: params.startNonce + i,
      to: tx.to ?? null,
      data: tx.data,
      value: tx.value ?? 0n,
      gas: tx.gas,
      maxFeePerGas: params.maxFeePerGas,
      maxPriorityFeePerGas: params.maxPriorityFeePerGas,
    });
    const hash: Hex = await params.client.sendRawTransaction({ serializedTransaction: serialized });
    const receipt = await waitForReceipt(params.client, hash);
    if (receipt.status !== 'success') throw new Error(`set-up transaction ${hash} on chain ${params.chainId} reverted`);
  }
  signatures.save();
}

/**
 * The signed transaction, as `account.signTransaction` gives it: the same set-up transactions are
 * signed at every start (RFC 6979), so a signature of an earlier start is reused from the cache.
 */
export async function signSetUpTransaction(account: KeyedPrivateKeyAccount, signatures: StartDerivationCache, transaction: TransactionSerializableEIP1559): Promise<Hex> {
  const hash = keccak256(serializeTransaction(transaction));
  const bytes = await signatures.valueAsync('evm-ecdsa-rfc6979', [hexToBytes(account.privateKey), hexToBytes(hash)], async () => {
    const { r, s, yParity } = await sign({ hash, privateKey: account.privateKey });
    return hexToBytes(`${r}${s.slice(2)}${yParity === 1 ? '01' : '00'}` as Hex);
  });
  if (bytes.length !== 65) throw new Error('a cached set-up signature is not 65 bytes');
  return serializeTransaction(transaction, { r: bytesToHex(bytes.subarray(0, 32)), s: bytesToHex(bytes.subarray(32, 64)), yParity: bytes[64]! });
}
