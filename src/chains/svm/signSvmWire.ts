import {
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';

/** Signs instructions into a v0 wire transaction with `payer` as fee payer and only signer, on `lifetime`'s blockhash. */
export async function signSvmWire(payer: KeyPairSigner, instructions: readonly Instruction[], lifetime: { blockhash: string; lastValidBlockHeight: bigint }): Promise<Uint8Array> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: toBlockhash(lifetime.blockhash), lastValidBlockHeight: lifetime.lastValidBlockHeight }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)));
}
