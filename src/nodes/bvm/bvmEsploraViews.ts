import { addressOfScript, bitcoin, toHex } from './bvmCrypto';
import { medianTimePast, REGTEST_DIFFICULTY, scriptType } from './bvmRpcEncoding';
import type { BvmBlock, BvmLedger, BvmTransactionRecord } from './BvmLedger';

/** Esplora's names for Core's kinds of output script (`scriptType`). */
const ESPLORA_SCRIPT_TYPES: Record<string, string> = {
  nulldata: 'op_return',
  witness_v0_keyhash: 'v0_p2wpkh',
  witness_v0_scripthash: 'v0_p2wsh',
  witness_v1_taproot: 'v1_p2tr',
  pubkeyhash: 'p2pkh',
  scripthash: 'p2sh',
};

function esploraScriptType(script: Uint8Array): string {
  return ESPLORA_SCRIPT_TYPES[scriptType(script)] ?? 'unknown';
}

function outputJson(output: { script: Uint8Array; value: bigint }): Record<string, unknown> {
  const address = addressOfScript(output.script);
  return {
    scriptpubkey: toHex(output.script),
    scriptpubkey_asm: bitcoin.script.toASM(output.script),
    scriptpubkey_type: esploraScriptType(output.script),
    ...(address ? { scriptpubkey_address: address } : {}),
    value: Number(output.value),
  };
}

/** `{ confirmed, block_height, block_hash, block_time }` as Esplora's `/tx/:txid/status`. */
export function esploraStatus(ledger: BvmLedger, height: number | null | undefined): Record<string, unknown> {
  if (height === null || height === undefined) return { confirmed: false };
  const block = ledger.block(height)!;
  return { confirmed: true, block_height: height, block_hash: block.hash, block_time: block.time };
}

/** A transaction as Esplora's `/tx/:txid` (satoshi values, prevouts inlined). */
export function esploraTransaction(ledger: BvmLedger, record: BvmTransactionRecord): Record<string, unknown> {
  const coinbase = record.tx.isCoinbase();
  return {
    txid: record.txid,
    version: record.tx.version,
    locktime: record.tx.locktime,
    vin: record.tx.ins.map((input, index) => ({
      txid: coinbase ? '0'.repeat(64) : toHex(Uint8Array.from(input.hash).reverse()),
      vout: coinbase ? 0xffffffff : input.index,
      prevout: coinbase ? null : outputJson(record.prevouts[index]!),
      scriptsig: toHex(input.script),
      scriptsig_asm: bitcoin.script.toASM(input.script),
      ...(input.witness.length > 0 ? { witness: input.witness.map(toHex) } : {}),
      is_coinbase: coinbase,
      sequence: input.sequence,
    })),
    vout: record.tx.outs.map(outputJson),
    size: record.tx.byteLength(),
    weight: record.tx.weight(),
    fee: Number(record.fee),
    status: esploraStatus(ledger, record.height),
  };
}

/** A block as Esplora's `/block/:hash`. */
export function esploraBlock(ledger: BvmLedger, block: BvmBlock): Record<string, unknown> {
  return {
    id: block.hash,
    height: block.height,
    version: block.block.version,
    timestamp: block.time,
    tx_count: block.txids.length,
    size: block.size,
    weight: block.weight,
    merkle_root: toHex(Uint8Array.from(block.block.merkleRoot!).reverse()),
    previousblockhash: block.previousHash,
    mediantime: medianTimePast(ledger, block.height),
    nonce: block.block.nonce,
    bits: block.block.bits,
    difficulty: REGTEST_DIFFICULTY,
  };
}

/**
 * An address's balance stats as Esplora's `/address/:a`: `chain_stats` over mined transactions
 * (and, on a fork, the outputs read from its upstream, funded before the local chain), and
 * `mempool_stats` over mempool ones: outputs funded and spent, their sums, transactions.
 */
export function esploraAddressStats(ledger: BvmLedger, address: string, script: Uint8Array): Record<string, unknown> {
  const wanted = toHex(script);
  const stats = (records: readonly BvmTransactionRecord[], extraFunded: ReadonlyArray<{ txid: string; value: bigint }>) => {
    const txids = new Set(extraFunded.map((coin) => coin.txid));
    let funded = extraFunded.length;
    let fundedSum = extraFunded.reduce((sum, coin) => sum + coin.value, 0n);
    let spent = 0;
    let spentSum = 0n;
    for (const record of records) {
      for (const output of record.tx.outs) {
        if (toHex(output.script) !== wanted) continue;
        funded += 1;
        fundedSum += output.value;
        txids.add(record.txid);
      }
      for (const prevout of record.prevouts) {
        if (toHex(prevout.script) !== wanted) continue;
        spent += 1;
        spentSum += prevout.value;
        txids.add(record.txid);
      }
    }
    return { funded_txo_count: funded, funded_txo_sum: Number(fundedSum), spent_txo_count: spent, spent_txo_sum: Number(spentSum), tx_count: txids.size };
  };
  const all = ledger.allTransactions();
  return {
    address,
    chain_stats: stats(
      all.filter((record) => record.height !== undefined),
      ledger.upstreamOutputsOf(script),
    ),
    mempool_stats: stats(
      all.filter((record) => record.height === undefined),
      [],
    ),
  };
}
