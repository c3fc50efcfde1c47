import { describe, expect, it } from 'vitest';
import { createKeyPairSignerFromPrivateKeyBytes, generateKeyPairSigner, getTransactionEncoder, signTransactionMessageWithSigners, type Instruction } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { signSvmWire, svmTransactionMessage } from '../../../src/nodes/svm/signSvmWire';
import { ed25519PublicKey, svmSignerOfSeed, type SvmSigner } from '../../../src/nodes/svm/svmKeySigner';
import { slip10Ed25519 } from '../../../src/nodes/svm/deriveSvmKeypair';

const LIFETIME = { blockhash: '4sGjMW1sUnHzSxGspuhpqLDx6wiyjNtZAMdL4VZHirAn', lastValidBlockHeight: 150n };
const SEED = slip10Ed25519(Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex'), [44, 501, 7, 0]);

/** The transaction signed the way @solana/kit signs it: each signer in turn (for a svmKeySigner, its signTransactions). */
async function signedByEachSigner(payer: SvmSigner, instructions: Instruction[]): Promise<Uint8Array> {
  return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(svmTransactionMessage(payer, instructions, LIFETIME))));
}

describe('svmKeySigner', () => {
  it('has the address, and signs transactions and messages with the bytes, of the KeyPairSigner @solana/kit makes of the same seed', async () => {
    const ours = svmSignerOfSeed(SEED);
    const kits = await createKeyPairSignerFromPrivateKeyBytes(SEED);
    expect(ours.address).toBe(kits.address);
    const to = (await generateKeyPairSigner()).address;
    const transfer = (signer: SvmSigner) => [getTransferSolInstruction({ source: signer, destination: to, amount: 1_000n })];
    // the one-signer path of signSvmWire and kit's path through the signer's signTransactions
    const wire = await signSvmWire(ours, transfer(ours), LIFETIME);
    expect(Buffer.from(wire).equals(Buffer.from(await signedByEachSigner(kits, transfer(kits))))).toBe(true);
    expect(Buffer.from(await signedByEachSigner(ours, transfer(ours))).equals(Buffer.from(wire))).toBe(true);
    const message = { content: new TextEncoder().encode('intentsim'), signatures: {} };
    const [ourSignature] = await ours.signMessages([message]);
    const [kitSignature] = await kits.signMessages([message]);
    expect(Buffer.from(ourSignature![ours.address]!).equals(Buffer.from(kitSignature![kits.address]!))).toBe(true);
  });

  it('signs as a second signer beside a kit KeyPairSigner paying', async () => {
    const payer = await generateKeyPairSigner();
    const source = svmSignerOfSeed(SEED);
    const instructions = [getTransferSolInstruction({ source, destination: payer.address, amount: 1_000n })];
    const kitSource = await createKeyPairSignerFromPrivateKeyBytes(SEED);
    const wire = await signSvmWire(payer, instructions, LIFETIME);
    const byKit = await signedByEachSigner(payer, [getTransferSolInstruction({ source: kitSource, destination: payer.address, amount: 1_000n })]);
    expect(Buffer.from(wire).equals(Buffer.from(byKit))).toBe(true);
  });

  it('derives the public key RFC 8032 gives (test vector 1)', () => {
    const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    expect(Buffer.from(ed25519PublicKey(seed)).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  });
});
