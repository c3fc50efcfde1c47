import type { StartDerivationCache } from '../../keys/startDerivationCache';
import { bitcoin } from './bvmCrypto';
import type { BvmCoin } from './BvmLedger';
import { feeAt } from './BvmLedger';
import type { BvmKey } from './bvmAccounts';

/** The fee rate the simulator's wallets pay and `estimatesmartfee` answers: 2 sat/vB. */
export const BVM_FEE_RATE_SAT_PER_KVB = 2000n;

/** Virtual size of a transaction spending `inputs` p2wpkh outputs into `outputs` p2wpkh outputs (Core's estimate, signatures at 72 bytes). */
export function p2wpkhVsize(inputs: number, outputs: number): number {
  // 10.5 vB overhead, 68 vB per input, 31 vB per output (rounded up)
  return Math.ceil((42 + inputs * 272 + outputs * 124) / 4);
}

/** The fee of such a transaction at the wallets' rate. */
export function p2wpkhFee(inputs: number, outputs: number): bigint {
  return feeAt(BVM_FEE_RATE_SAT_PER_KVB, p2wpkhVsize(inputs, outputs));
}

/**
 * Picks coins, largest first, to pay `amount` plus the fee of the transaction they make
 * (`outputCount` outputs, payments and change: two by default), `preset` coins always spent first;
 * undefined when the coins do not reach it.
 */
export function selectCoins<C extends BvmCoin>(coins: readonly C[], amount: bigint, outputCount = 2, preset: readonly C[] = []): { coins: C[]; fee: bigint; change: bigint } | undefined {
  const sorted = [...coins].sort((a, b) => (a.value === b.value ? a.txid.localeCompare(b.txid) || a.vout - b.vout : a.value > b.value ? -1 : 1));
  const chosen: C[] = [...preset];
  let total = preset.reduce((sum, coin) => sum + coin.value, 0n);
  for (let next = 0; ; next++) {
    const fee = p2wpkhFee(chosen.length, outputCount);
    if (chosen.length > 0 && total >= amount + fee) return { coins: chosen, fee, change: total - amount - fee };
    const coin = sorted[next];
    if (!coin) return undefined;
    chosen.push(coin);
    total += coin.value;
  }
}

/** A transaction spending `inputs` (each p2wpkh coin with the key that owns it) into `outputs`, signed (SIGHASH_ALL, BIP143). */
export function signP2wpkhTransaction(inputs: ReadonlyArray<{ coin: BvmCoin; key: BvmKey }>, outputs: ReadonlyArray<{ script: Uint8Array; value: bigint }>, signatures?: StartDerivationCache): bitcoin.Transaction {
  const tx = new bitcoin.Transaction();
  tx.version = 2;
  for (const { coin } of inputs) tx.addInput(Buffer.from(coin.txid, 'hex').reverse(), coin.vout, 0xfffffffd);
  for (const output of outputs) tx.addOutput(output.script, output.value);
  inputs.forEach(({ coin, key }, index) => signP2wpkhInput(tx, index, key, coin.value, signatures));
  return tx;
}

/**
 * `OP_DUP OP_HASH160 <keyHash> OP_EQUALVERIFY OP_CHECKSIG`, as `bitcoin.payments.p2pkh` gives it for
 * the key (which hashes the key again, in JavaScript, at every input signed).
 */
function p2pkhScriptOf(keyHash: Uint8Array): Uint8Array {
  return Uint8Array.from([0x76, 0xa9, 0x14, ...keyHash, 0x88, 0xac]);
}

/**
 * Sets input `index`'s witness: `key`'s SIGHASH_ALL signature over the p2wpkh output of `value` it
 * spends (BIP143). With `signatures` (the genesis), a signature made at an earlier start is reused.
 */
export function signP2wpkhInput(tx: bitcoin.Transaction, index: number, key: BvmKey, value: bigint, signatures?: StartDerivationCache): void {
  // BIP143's scriptCode of a p2wpkh output: the p2pkh script of its key hash (the output script's last 20 bytes)
  const scriptCode = p2pkhScriptOf(key.script.subarray(2));
  const hash = tx.hashForWitnessV0(index, scriptCode, value, bitcoin.Transaction.SIGHASH_ALL);
  const signature = signatures ? signatures.value('bitcoin-ecdsa-rfc6979', [key.keyPair.privateKey, hash], () => key.keyPair.sign(hash)) : key.keyPair.sign(hash);
  tx.setWitness(index, [bitcoin.script.signature.encode(signature, bitcoin.Transaction.SIGHASH_ALL), key.keyPair.publicKey]);
}
