import { createECDH } from 'node:crypto';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory, type ECPairInterface } from 'ecpair';

/**
 * bitcoinjs-lib wired to a secp256k1 implementation once (address decoding of taproot outputs,
 * PSBT signing), the regtest network every BVM address and key uses, and the key-pair factory.
 */
// bitcoinjs-lib's self-test of the library (~0.1 s of curve arithmetic at every start) is run by
// test/nodes/bitcoin/bvmCrypto.test.ts instead
bitcoin.initEccLib(ecc, { DANGER_DO_NOT_VERIFY_ECCLIB: true });

export const BVM_NETWORK = bitcoin.networks.regtest;
/**
 * Key pairs: a private key's public key comes from Node's native secp256k1 (a key's first use in
 * pure JavaScript costs milliseconds, and the chain derives a dozen at every start); signing and
 * every other operation stay with `ecc`.
 */
export const ECPair = ECPairFactory({
  ...ecc,
  pointFromScalar: (scalar: Uint8Array, compressed?: boolean) => {
    if (!ecc.isPrivate(scalar)) return null;
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(scalar);
    return new Uint8Array(ecdh.getPublicKey(undefined, compressed === false ? 'uncompressed' : 'compressed'));
  },
});
export type BvmKeyPair = ECPairInterface;
export { bitcoin, ecc };

/** The p2wpkh output script (`0 <hash160(pubkey)>`) and `bcrt1q` address of a public key. */
export function p2wpkhOf(publicKey: Uint8Array): { script: Uint8Array; address: string } {
  const payment = bitcoin.payments.p2wpkh({ pubkey: publicKey, network: BVM_NETWORK });
  return { script: payment.output!, address: payment.address! };
}

/** The output script an address pays to, or undefined when it is no regtest address. */
export function outputScriptOf(address: string): Uint8Array | undefined {
  try {
    return bitcoin.address.toOutputScript(address, BVM_NETWORK);
  } catch {
    return undefined;
  }
}

/** The regtest address of an output script (undefined for scripts with none: OP_RETURN, bare scripts). */
export function addressOfScript(script: Uint8Array): string | undefined {
  try {
    return bitcoin.address.fromOutputScript(script, BVM_NETWORK);
  } catch {
    return undefined;
  }
}

/** Whether `script` is a p2wpkh output (`OP_0 <20 bytes>`). */
export function isP2wpkhScript(script: Uint8Array): boolean {
  return script.length === 22 && script[0] === 0x00 && script[1] === 0x14;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}
