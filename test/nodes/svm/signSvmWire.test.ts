import { describe, expect, it } from 'vitest';
import { generateKeyPairSigner, getTransactionEncoder, signTransactionMessageWithSigners, type Instruction, type KeyPairSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { decodeSvmTransaction, signatureOfWire } from '../../../src/nodes/svm/decodeSvmTransaction';
import { signSvmWire, svmTransactionMessage } from '../../../src/nodes/svm/signSvmWire';

const LIFETIME = { blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', lastValidBlockHeight: 150n };

/** The same transaction signed the way @solana/kit signs it (WebCrypto, each signer in turn). */
async function signedByKit(payer: KeyPairSigner, instructions: Instruction[]): Promise<Uint8Array> {
  return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(svmTransactionMessage(payer, instructions, LIFETIME))));
}

describe('signSvmWire', () => {
  it('gives the bytes @solana/kit gives (Ed25519 is deterministic), and its id is the first signature', async () => {
    const payer = await generateKeyPairSigner();
    const to = (await generateKeyPairSigner()).address;
    const instructions = [getTransferSolInstruction({ source: payer, destination: to, amount: 1_000n })];
    const wire = await signSvmWire(payer, instructions, LIFETIME);
    expect(Buffer.from(wire).equals(Buffer.from(await signedByKit(payer, instructions)))).toBe(true);
    expect(signatureOfWire(wire)).toBe(decodeSvmTransaction(wire).signature);
  });

  it('a message with a second signer is signed by both', async () => {
    const payer = await generateKeyPairSigner();
    const source = await generateKeyPairSigner();
    const instructions = [getTransferSolInstruction({ source, destination: payer.address, amount: 1_000n })];
    const wire = await signSvmWire(payer, instructions, LIFETIME);
    const decoded = decodeSvmTransaction(wire);
    expect(decoded.signatures).toHaveLength(2);
    expect(decoded.signatures.every((signature) => signature !== '1'.repeat(64))).toBe(true);
    expect(Buffer.from(wire).equals(Buffer.from(await signedByKit(payer, instructions)))).toBe(true);
  });
});
