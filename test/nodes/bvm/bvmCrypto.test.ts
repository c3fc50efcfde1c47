import { createHash } from 'node:crypto';
import * as bitcoin from 'bitcoinjs-lib';
import { ECPairFactory } from 'ecpair';
import { describe, expect, it } from 'vitest';
import { BvmKeyPair, BVM_NETWORK, ecc, p2wpkhOf, transactionIdOf } from '../../../src/nodes/bvm/bvmCrypto';
import { decodeBase58check, encodeBase58check } from '../../../src/keys/base58check';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
// the reference the simulator's own key pair must agree with (its factory self-tests the curve library)
const ECPair = ECPairFactory(ecc);

describe('the BVM chain\'s secp256k1 wiring', () => {
  it('passes bitcoinjs-lib\'s own self-test of the ecc library (the simulator skips it at start)', () => {
    // a new object is a new instance to bitcoinjs-lib, so this runs its verifyEcc on the same functions
    expect(() => bitcoin.initEccLib({ ...ecc })).not.toThrow();
    bitcoin.initEccLib(ecc, { DANGER_DO_NOT_VERIFY_ECCLIB: true });
  });

  it('gives the public key, WIF and signatures ecpair gives, for keys across the range', () => {
    const keys = [new Uint8Array(32).fill(7), Uint8Array.from(Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140', 'hex')), new Uint8Array(32).fill(0).map((_, i) => (i === 31 ? 1 : 0))];
    for (let i = 0; i < 20; i++) keys.push(new Uint8Array(createHash('sha256').update(`key ${i}`).digest()));
    for (const privateKey of keys) {
      const pair = new BvmKeyPair(privateKey);
      const reference = ECPair.fromPrivateKey(privateKey, { network: BVM_NETWORK });
      expect(hex(pair.publicKey)).toBe(hex(reference.publicKey));
      expect(pair.toWIF()).toBe(reference.toWIF());
      const hash = new Uint8Array(createHash('sha256').update(privateKey).digest());
      expect(hex(pair.sign(hash))).toBe(hex(reference.sign(hash)));
      expect(ecc.verify(hash, pair.publicKey, pair.sign(hash))).toBe(true);
      // back from its WIF, and from ecpair's uncompressed WIF of the same key
      expect(hex(BvmKeyPair.fromWIF(pair.toWIF()).privateKey)).toBe(hex(privateKey));
      expect(hex(BvmKeyPair.fromWIF(ECPair.fromPrivateKey(privateKey, { network: BVM_NETWORK, compressed: false }).toWIF()).privateKey)).toBe(hex(privateKey));
    }
    expect(p2wpkhOf(new BvmKeyPair(keys[0]!).publicKey).address).toMatch(/^bcrt1q/);
  });

  it("gives the p2wpkh script and address bitcoinjs-lib's payment gives, for keys across the range, and refuses an uncompressed key", () => {
    for (let i = 0; i < 40; i++) {
      const pair = new BvmKeyPair(new Uint8Array(createHash('sha256').update(`p2wpkh ${i}`).digest()));
      const payment = bitcoin.payments.p2wpkh({ pubkey: pair.publicKey, network: BVM_NETWORK });
      const ours = p2wpkhOf(pair.publicKey);
      expect(ours.address).toBe(payment.address);
      expect(hex(ours.script)).toBe(hex(payment.output!));
    }
    const uncompressed = ECPair.fromPrivateKey(new Uint8Array(32).fill(7), { compressed: false }).publicKey;
    expect(() => p2wpkhOf(uncompressed)).toThrow(/compressed public key/);
  });

  it('refuses a key off the curve, a WIF of another network and a WIF with a wrong checksum', () => {
    expect(() => new BvmKeyPair(new Uint8Array(32))).toThrow();
    const mainnetWif = ECPair.fromPrivateKey(new Uint8Array(32).fill(7), { network: bitcoin.networks.bitcoin }).toWIF();
    expect(() => BvmKeyPair.fromWIF(mainnetWif)).toThrow(/network/);
    const wif = new BvmKeyPair(new Uint8Array(32).fill(7)).toWIF();
    const tampered = `${wif.slice(0, -1)}${wif.endsWith('a') ? 'b' : 'a'}`;
    expect(() => BvmKeyPair.fromWIF(tampered)).toThrow(/checksum/);
    expect(() => BvmKeyPair.fromWIF('0OIl')).toThrow(/base58/);
  });

  it('signs a PSBT input bitcoinjs-lib then validates', () => {
    const pair = new BvmKeyPair(new Uint8Array(32).fill(9));
    const { script } = p2wpkhOf(pair.publicKey);
    const psbt = new bitcoin.Psbt({ network: BVM_NETWORK });
    psbt.addInput({ hash: Buffer.alloc(32, 1), index: 0, witnessUtxo: { script, value: 100_000n } });
    psbt.addOutput({ script, value: 90_000n });
    psbt.signAllInputs(pair);
    expect(psbt.validateSignaturesOfInput(0, (pubkey, hash, signature) => ecc.verify(hash, pubkey, signature))).toBe(true);
  });

  it("gives a transaction's id as bitcoinjs-lib's getId, with and without witnesses, and leaves the witnesses in place", () => {
    const tx = new bitcoin.Transaction();
    tx.version = 2;
    tx.addInput(new Uint8Array(32).fill(1), 3, 0xfffffffd);
    tx.addInput(new Uint8Array(32).fill(2), 0, 0xfffffffd);
    tx.addOutput(p2wpkhOf(new BvmKeyPair(new Uint8Array(32).fill(9)).publicKey).script, 12_345n);
    expect(transactionIdOf(tx)).toBe(tx.getId());
    tx.setWitness(1, [new Uint8Array(71).fill(4), new Uint8Array(33).fill(5)]);
    expect(transactionIdOf(tx)).toBe(tx.getId());
    expect(tx.hasWitnesses()).toBe(true);
    expect(tx.ins[1]!.witness).toHaveLength(2);
  });
});

describe('Base58Check', () => {
  it('keeps leading zero bytes as leading 1s and round-trips', () => {
    for (const payload of [Buffer.alloc(0), Buffer.from([0, 0, 1, 2, 3]), Buffer.from('ef' + '07'.repeat(32) + '01', 'hex')]) {
      const text = encodeBase58check(payload);
      expect(decodeBase58check(text).equals(payload)).toBe(true);
    }
    expect(encodeBase58check(Buffer.from([0, 0, 1]))).toMatch(/^11/);
  });
});
