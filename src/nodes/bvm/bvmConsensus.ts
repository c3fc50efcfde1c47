import { BVM_RPC_ERRORS, BvmRpcError, rejected } from './bvmRpcError';
import { bitcoin, ecc, isP2wpkhScript, toHex } from './bvmCrypto';

/** Regtest's consensus and policy rules the ledger applies, as functions of a transaction or script. */

type Transaction = bitcoin.Transaction;

/** Regtest consensus and policy numbers (Bitcoin Core's chainparams and policy.h). */
export const BVM_PARAMS = {
  /** Satoshis per BTC. */
  coin: 100_000_000n,
  /** A coinbase output can be spent once its block has this many confirmations. */
  coinbaseMaturity: 100,
  /** Regtest halves the block subsidy every 150 blocks. */
  halvingInterval: 150,
  /** minrelaytxfee: 1000 sat per kvB (1 sat/vB). */
  minRelayFeeSatPerKvB: 1000n,
  /** dustrelayfee: 3000 sat per kvB. */
  dustRelayFeeSatPerKvB: 3000n,
  /** Regtest's proof-of-work limit, compact form: almost every nonce meets it. */
  bits: 0x207fffff,
  /** Block header version with BIP9 version bits set. */
  blockVersion: 0x20000000,
} as const;

const SIGNATURE_FAILED = 'mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation)';

export function blockSubsidy(height: number): bigint {
  const halvings = Math.floor(height / BVM_PARAMS.halvingInterval);
  return halvings >= 64 ? 0n : (50n * BVM_PARAMS.coin) >> BigInt(halvings);
}

/** The fee a transaction of `vsize` virtual bytes pays at `satPerKvB` (rounded up, as Core's CFeeRate). */
export function feeAt(satPerKvB: bigint, vsize: number): bigint {
  return (satPerKvB * BigInt(vsize) + 999n) / 1000n;
}

/** An output below this value costs more to spend than it is worth (Core's GetDustThreshold). */
export function dustThreshold(script: Uint8Array): bigint {
  if (script[0] === bitcoin.opcodes.OP_RETURN) return 0n;
  const outputSize = 8 + 1 + script.length;
  const isWitnessProgram = script.length >= 4 && script.length <= 42 && (script[0] === 0x00 || (script[0]! >= 0x51 && script[0]! <= 0x60)) && script[1] === script.length - 2;
  const spendSize = isWitnessProgram ? 32 + 4 + 1 + 26 + 4 : 32 + 4 + 1 + 107 + 4; // witness bytes count a quarter
  return feeAt(BVM_PARAMS.dustRelayFeeSatPerKvB, outputSize + spendSize);
}

export function outpointKey(txid: string, vout: number): string {
  return `${txid}:${vout}`;
}

export function txidOf(hash: Uint8Array): string {
  return toHex(Uint8Array.from(hash).reverse());
}

export function decodeTransaction(hex: string): Transaction {
  try {
    if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new Error('not hex');
    return bitcoin.Transaction.fromHex(hex);
  } catch {
    throw new BvmRpcError(BVM_RPC_ERRORS.deserialization, 'TX decode failed. Make sure the tx has at least one input.');
  }
}

/** BIP143: a p2wpkh input's witness is `<signature> <pubkey>`, the key hashes to the program and the signature checks. */
export function verifyP2wpkhInput(tx: Transaction, index: number, prevout: { value: bigint; script: Uint8Array }): void {
  if (!isP2wpkhScript(prevout.script)) throw rejected(`non-mandatory-script-verify-flag (input ${index} spends a script this ledger does not verify; only p2wpkh)`);
  const input = tx.ins[index]!;
  if (input.script.length > 0) throw rejected('mandatory-script-verify-flag-failed (Witness requires empty scriptSig)');
  const [signature, publicKey] = input.witness;
  if (input.witness.length !== 2 || !signature || !publicKey) throw rejected('mandatory-script-verify-flag-failed (Witness program hash mismatch)');
  if (toHex(bitcoin.crypto.hash160(publicKey)) !== toHex(prevout.script.subarray(2))) throw rejected('mandatory-script-verify-flag-failed (Witness program hash mismatch)');
  let decoded: { signature: Uint8Array; hashType: number };
  try {
    decoded = bitcoin.script.signature.decode(signature);
  } catch {
    throw rejected('mandatory-script-verify-flag-failed (Non-canonical DER signature)');
  }
  const scriptCode = bitcoin.payments.p2pkh({ pubkey: publicKey }).output!;
  const hash = tx.hashForWitnessV0(index, scriptCode, prevout.value, decoded.hashType);
  if (!ecc.isPoint(publicKey) || !ecc.verify(hash, publicKey, decoded.signature, true)) throw rejected(SIGNATURE_FAILED);
}

/** Satoshis as BTC with 8 decimals (a decimal string: no floating point). */
export function formatBtc(sats: bigint): string {
  const negative = sats < 0n;
  const abs = negative ? -sats : sats;
  return `${negative ? '-' : ''}${abs / BVM_PARAMS.coin}.${(abs % BVM_PARAMS.coin).toString().padStart(8, '0')}`;
}
