import { createHash, sign } from 'node:crypto';
import {
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  compileTransaction,
  createTransactionMessage,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type SignatureBytes,
} from '@solana/kit';
import { signingKeyOf, type SvmSigner } from './svmKeySigner';

/** The v0 message of `instructions` with `payer` as fee payer, on `lifetime`'s blockhash. */
export function svmTransactionMessage(payer: SvmSigner, instructions: readonly Instruction[], lifetime: { blockhash: string; lastValidBlockHeight: bigint }) {
  return pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: toBlockhash(lifetime.blockhash), lastValidBlockHeight: lifetime.lastValidBlockHeight }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
}

/**
 * Signs instructions into a v0 wire transaction with `payer` as fee payer and only signer, on
 * `lifetime`'s blockhash. The Ed25519 signature is made at once with node:crypto (the same bytes
 * WebCrypto gives, without waiting for its thread pool); a message with another signer, or a payer
 * whose key is not readable here, goes through each signer as @solana/kit does it.
 */
export async function signSvmWire(payer: SvmSigner, instructions: readonly Instruction[], lifetime: { blockhash: string; lastValidBlockHeight: bigint }): Promise<Uint8Array> {
  const message = svmTransactionMessage(payer, instructions, lifetime);
  const unsigned = compileTransaction(message);
  const signers = Object.keys(unsigned.signatures);
  const key = signers.length === 1 && signers[0] === payer.address ? signingKeyOf(payer) : undefined;
  if (!key) return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)));
  const signature = new Uint8Array(sign(null, unsigned.messageBytes as unknown as Uint8Array, key)) as SignatureBytes;
  return new Uint8Array(getTransactionEncoder().encode({ ...unsigned, signatures: { [payer.address]: signature } }));
}

/**
 * A wire transaction with `payer` as fee payer and only signer, but no key to sign with: its
 * signature is 64 bytes of a hash of the message (unique per message, valid for nothing). Only a
 * ledger that runs it without checking signatures takes it (`SvmLedger.submit` with `sigVerify:
 * false`: a replay's deposit made again as the record's user, docs/forking.md).
 */
export function impersonatedSvmWire(payer: Address, instructions: readonly Instruction[], lifetime: { blockhash: string; lastValidBlockHeight: bigint }): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: toBlockhash(lifetime.blockhash), lastValidBlockHeight: lifetime.lastValidBlockHeight }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const unsigned = compileTransaction(message);
  const stand = new Uint8Array(createHash('sha512').update(unsigned.messageBytes as unknown as Uint8Array).digest()) as SignatureBytes;
  return new Uint8Array(getTransactionEncoder().encode({ ...unsigned, signatures: { ...unsigned.signatures, [payer]: stand } }));
}
