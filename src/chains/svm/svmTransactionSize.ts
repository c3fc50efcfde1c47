import {
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Instruction,
} from '@solana/kit';

/** SPEC §4.6, §8: bytes of a transaction kept for the compute-budget instructions a wallet prepends at send time. */
export const SVM_COMPUTE_BUDGET_RESERVED_BYTES = 60;
/** SPEC §4.6, §8: the quote-time limit, 1232 − 60. */
export const SVM_QUOTE_TIME_MAX_TRANSACTION_BYTES = 1232 - SVM_COMPUTE_BUDGET_RESERVED_BYTES;

/** Any 32-byte blockhash: the size does not depend on which. */
const SIZE_BLOCKHASH = blockhash('11111111111111111111111111111111');

/** The serialized size in bytes of a v0 transaction of `instructions` paid by `feePayer`, with its signatures. */
export function svmTransactionSize(feePayer: Address, instructions: readonly Instruction[]): number {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: SIZE_BLOCKHASH, lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return getTransactionEncoder().encode(compileTransaction(message)).length;
}
