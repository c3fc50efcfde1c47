import { createHash } from 'node:crypto';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { decodeBase58check, encodeBase58check } from '../../keys/base58check';
import { compressedPublicKey } from '../../keys/secp256k1PublicKeys';

/**
 * bitcoinjs-lib wired to a secp256k1 implementation once (address decoding of taproot outputs,
 * PSBT signing), the regtest network every BVM address and key uses, and the key pair.
 */
// bitcoinjs-lib's self-test of the library (~0.1 s of curve arithmetic at every start) is run by
// test/nodes/bvm/bvmCrypto.test.ts instead
bitcoin.initEccLib(ecc, { DANGER_DO_NOT_VERIFY_ECCLIB: true });

export const BVM_NETWORK = bitcoin.networks.regtest;

/**
 * A secp256k1 key pair as bitcoinjs-lib signs with (its `Signer`), and as `ecpair` gives it, without
 * `ecpair`'s factory: that runs a self-test of the curve library (~75 ms) on the start path. The
 * public key comes from Node's native secp256k1 (pure JavaScript costs milliseconds a key at a
 * cold start; `knownPublicKey` spares it when the caller has it); signatures are `ecc`'s (RFC 6979,
 * low S, as `ecpair` signs without `lowR`).
 * test/nodes/bvm/bvmCrypto.test.ts checks keys, WIFs and signatures against `ecpair`'s.
 */
export class BvmKeyPair {
  /** The compressed public key (33 bytes). */
  readonly publicKey: Uint8Array;
  readonly network = BVM_NETWORK;

  constructor(
    readonly privateKey: Uint8Array,
    /** The compressed public key of `privateKey`, when the caller has it already (the start's derivation cache). */
    knownPublicKey?: Uint8Array,
  ) {
    if (!ecc.isPrivate(privateKey)) throw new Error('not a secp256k1 private key');
    this.publicKey = knownPublicKey ?? new Uint8Array(compressedPublicKey(Buffer.from(privateKey)));
  }

  /** The key from its WIF on the regtest network (compressed or not; the key pair is compressed). */
  static fromWIF(wif: string): BvmKeyPair {
    const payload = decodeBase58check(wif);
    if (payload[0] !== BVM_NETWORK.wif) throw new Error('Invalid network version');
    if (payload.length !== 33 && !(payload.length === 34 && payload[33] === 0x01)) throw new Error('Invalid WIF length');
    return new BvmKeyPair(new Uint8Array(payload.subarray(1, 33)));
  }

  /** An ECDSA signature (64 bytes, r ‖ s) over a 32-byte hash. */
  sign(hash: Uint8Array): Uint8Array {
    return ecc.sign(hash, this.privateKey);
  }

  /** The key as a wallet exports it: WIF, compressed, regtest. */
  toWIF(): string {
    return encodeBase58check(Buffer.concat([Buffer.of(BVM_NETWORK.wif), this.privateKey, Buffer.of(0x01)]));
  }
}
export { bitcoin, ecc };

/**
 * The p2wpkh output script (`0 <hash160(pubkey)>`) and `bcrt1q` address of a compressed public key,
 * as `bitcoin.payments.p2wpkh` gives them (test/nodes/bvm/bvmCrypto.test.ts compares): hash160 with
 * Node's native SHA-256 and RIPEMD-160, where the payment hashes in JavaScript and checks more than a
 * key the simulator derived needs (a start derives a dozen keys).
 */
export function p2wpkhOf(publicKey: Uint8Array): { script: Uint8Array; address: string } {
  if (publicKey.length !== 33 || (publicKey[0] !== 0x02 && publicKey[0] !== 0x03)) throw new TypeError('p2wpkh needs a compressed public key (33 bytes, 02 or 03 first)');
  const hash = createHash('ripemd160').update(createHash('sha256').update(publicKey).digest()).digest();
  return { script: Uint8Array.from([0x00, 0x14, ...hash]), address: bitcoin.address.toBech32(hash, 0, BVM_NETWORK.bech32) };
}

/** The output script an address pays to, or undefined when it is no regtest address. */
export function outputScriptOf(address: string): Uint8Array | undefined {
  try {
    return bitcoin.address.toOutputScript(address, BVM_NETWORK);
  } catch {
    return undefined;
  }
}

/**
 * The regtest address of an output script (undefined for scripts with none: OP_RETURN, bare scripts).
 * A segwit v0 output (p2wpkh, p2wsh) is encoded at once (bitcoinjs checks a taproot output's key is
 * on the curve first, so those still go through it); bitcoinjs's
 * `fromOutputScript` tries each payment type in turn, throwing, ~1 ms an output: the watcher's first
 * read of the Bitcoin genesis (~130 outputs) took ~0.14 s of every start with it alone.
 */
export function addressOfScript(script: Uint8Array): string | undefined {
  const version = witnessVersionOf(script);
  if (version !== undefined) return bitcoin.address.toBech32(Buffer.from(script.subarray(2)), version, BVM_NETWORK.bech32);
  try {
    return bitcoin.address.fromOutputScript(script, BVM_NETWORK);
  } catch {
    return undefined;
  }
}

/** 0 for a segwit v0 output script (`OP_0 <20 or 32 bytes>`), else undefined. */
function witnessVersionOf(script: Uint8Array): 0 | undefined {
  return script[0] === 0x00 && script[1] === script.length - 2 && (script.length === 22 || script.length === 34) ? 0 : undefined;
}

/** Whether `script` is a p2wpkh output (`OP_0 <20 bytes>`). */
export function isP2wpkhScript(script: Uint8Array): boolean {
  return script.length === 22 && script[0] === 0x00 && script[1] === 0x14;
}

/** Double SHA-256 with Node's native SHA-256 (bitcoinjs-lib's `hash256` is pure JavaScript). */
export function sha256d(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

/**
 * A transaction's id as `tx.getId()` gives it — the double SHA-256 of its serialization without
 * witnesses, reversed — hashed natively: bitcoinjs hashes in JavaScript at every `getId()` (the
 * genesis admits and mines ~130 transactions at every start).
 */
export function transactionIdOf(tx: bitcoin.Transaction): string {
  let bare = tx;
  if (tx.hasWitnesses()) {
    bare = tx.clone();
    for (const input of bare.ins) input.witness = [];
  }
  return sha256d(bare.toBuffer()).reverse().toString('hex');
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
