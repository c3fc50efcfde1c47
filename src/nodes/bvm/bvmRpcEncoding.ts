import { bitcoin, addressOfScript, toHex } from './bvmCrypto';
import { formatBtc, type BvmBlock, type BvmLedger, type BvmTransactionRecord } from './BvmLedger';

/**
 * An amount in BTC as Bitcoin Core writes it: a JSON number with 8 decimals. Kept as a decimal
 * string until `stringifyBvmJson` writes it into the JSON text, so no satoshi passes through a float.
 */
export class BtcAmount {
  constructor(readonly sats: bigint) {}
  toJSON(): string {
    return `${AMOUNT_MARK}${formatBtc(this.sats)}`;
  }
}

const AMOUNT_MARK = '\u0000btc:';
const AMOUNT_PATTERN = /"\\u0000btc:(-?[0-9]+\.[0-9]{8})"/g;

export function btc(sats: bigint): BtcAmount {
  return new BtcAmount(sats);
}

/** JSON text with every `BtcAmount` as a bare number (`0.00010000`). */
export function stringifyBvmJson(value: unknown): string {
  return JSON.stringify(value).replace(AMOUNT_PATTERN, '$1');
}

/** Satoshis of a BTC amount given as a JSON number or decimal string (at most 8 decimals). */
export function satsOf(value: unknown): bigint | undefined {
  const text = typeof value === 'number' ? value.toFixed(8) : typeof value === 'string' ? value : undefined;
  const match = text?.match(/^([0-9]+)(?:\.([0-9]{1,8})0*)?$/);
  if (!match) return undefined;
  return BigInt(match[1]!) * 100_000_000n + BigInt((match[2] ?? '').padEnd(8, '0'));
}

/** Bitcoin Core's name for the kind of an output script. */
export function scriptType(script: Uint8Array): string {
  if (script[0] === bitcoin.opcodes.OP_RETURN) return 'nulldata';
  if (script.length === 22 && script[0] === 0x00 && script[1] === 0x14) return 'witness_v0_keyhash';
  if (script.length === 34 && script[0] === 0x00 && script[1] === 0x20) return 'witness_v0_scripthash';
  if (script.length === 34 && script[0] === 0x51 && script[1] === 0x20) return 'witness_v1_taproot';
  if (script.length === 25 && script[0] === 0x76 && script[1] === 0xa9) return 'pubkeyhash';
  if (script.length === 23 && script[0] === 0xa9) return 'scripthash';
  return 'nonstandard';
}

export function scriptPubKeyJson(script: Uint8Array): Record<string, unknown> {
  const address = addressOfScript(script);
  return {
    asm: bitcoin.script.toASM(script),
    ...(address ? { desc: `addr(${address})` } : {}),
    hex: toHex(script),
    ...(address ? { address } : {}),
    type: scriptType(script),
  };
}

/** A transaction as `getrawtransaction` (verbose) and `getblock` (verbosity 2) show it. */
export function transactionJson(ledger: BvmLedger, record: BvmTransactionRecord, options: { withBlock: boolean; withFee: boolean }): Record<string, unknown> {
  const { tx } = record;
  const coinbase = tx.isCoinbase();
  const json: Record<string, unknown> = {
    txid: record.txid,
    hash: toHex(Uint8Array.from(tx.getHash(true)).reverse()),
    version: tx.version,
    size: tx.byteLength(),
    vsize: tx.virtualSize(),
    weight: tx.weight(),
    locktime: tx.locktime,
    vin: tx.ins.map((input) => {
      const witness = input.witness.length > 0 ? { txinwitness: input.witness.map(toHex) } : {};
      if (coinbase) return { coinbase: toHex(input.script), ...witness, sequence: input.sequence };
      return {
        txid: toHex(Uint8Array.from(input.hash).reverse()),
        vout: input.index,
        scriptSig: { asm: bitcoin.script.toASM(input.script), hex: toHex(input.script) },
        ...witness,
        sequence: input.sequence,
      };
    }),
    vout: tx.outs.map((output, n) => ({ value: btc(output.value), n, scriptPubKey: scriptPubKeyJson(output.script) })),
  };
  if (options.withFee && !coinbase) json.fee = btc(record.fee);
  json.hex = record.hex;
  if (options.withBlock && record.blockHash !== undefined && record.height !== undefined) {
    const block = ledger.block(record.height)!;
    Object.assign(json, { blockhash: record.blockHash, confirmations: ledger.height - record.height + 1, time: block.time, blocktime: block.time });
  }
  return json;
}

/** The header fields `getblock` and `getblockheader` share. */
export function blockHeaderJson(ledger: BvmLedger, block: BvmBlock): Record<string, unknown> {
  const next = ledger.block(block.height + 1);
  return {
    hash: block.hash,
    confirmations: ledger.height - block.height + 1,
    height: block.height,
    version: block.block.version,
    versionHex: (block.block.version >>> 0).toString(16).padStart(8, '0'),
    merkleroot: toHex(Uint8Array.from(block.block.merkleRoot!).reverse()),
    time: block.time,
    mediantime: medianTimePast(ledger, block.height),
    nonce: block.block.nonce,
    bits: block.block.bits.toString(16).padStart(8, '0'),
    difficulty: REGTEST_DIFFICULTY,
    chainwork: (BigInt(block.height + 1) * 2n).toString(16).padStart(64, '0'),
    nTx: block.txids.length,
    ...(block.previousHash ? { previousblockhash: block.previousHash } : {}),
    ...(next ? { nextblockhash: next.hash } : {}),
  };
}

/** The difficulty regtest's proof-of-work limit stands for (what bitcoind reports on regtest). */
export const REGTEST_DIFFICULTY = 4.656542373906925e-10;

/** The median time of the last 11 blocks up to `height` (BIP113). */
export function medianTimePast(ledger: BvmLedger, height: number): number {
  const times: number[] = [];
  for (let h = height; h >= 0 && times.length < 11; h -= 1) times.push(ledger.block(h)!.time);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}
