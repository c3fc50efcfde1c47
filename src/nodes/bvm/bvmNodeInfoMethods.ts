import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { btc, medianTimePast } from './bvmRpcEncoding';
import { isAbsent } from './bvmRpcParams';
import { BVM_PARAMS, blockSubsidy, type BvmBlock, type BvmLedger } from './BvmLedger';

type Method = (params: unknown[]) => unknown;

/** The Bitcoin Core version the node answers as (`getnetworkinfo`). */
export const BVM_CORE_VERSION = { version: 280000, subversion: '/Satoshi:28.0.0/', protocolversion: 70016 } as const;

/** Core's PER_UTXO_OVERHEAD: an outpoint, its height and coinbase flag. */
const PER_UTXO_OVERHEAD = 36 + 4 + 1;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.floor((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** `getblockstats`: satoshi amounts and sat/vB rates as Core computes them (the coinbase counted only in txs, outs and utxo growth). */
function blockStats(ledger: BvmLedger, block: BvmBlock): Record<string, unknown> {
  const records = block.txids.map((txid) => ledger.transaction(txid)!);
  const spends = records.slice(1);
  const fees = spends.map((record) => Number(record.fee));
  const sizes = spends.map((record) => record.tx.byteLength());
  const weights = spends.map((record) => record.tx.weight());
  const rates = spends.map((record, i) => Math.floor((fees[i]! * 4) / weights[i]!));
  const outs = records.flatMap((record) => record.tx.outs);
  const unspendable = outs.filter((output) => output.script[0] === 0x6a);
  const ins = spends.reduce((sum, record) => sum + record.tx.ins.length, 0);
  const outputSize = (output: { script: Uint8Array }) => PER_UTXO_OVERHEAD + 8 + 1 + output.script.length;
  const spentSize = spends.flatMap((record) => record.prevouts).reduce((sum, prevout) => sum + PER_UTXO_OVERHEAD + 8 + 1 + prevout.script.length, 0);
  const totalFee = fees.reduce((sum, fee) => sum + fee, 0);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const segwit = spends.filter((record) => record.tx.hasWitnesses());
  const sorted = spends.map((_, i) => ({ rate: rates[i]!, weight: weights[i]! })).sort((a, b) => a.rate - b.rate);
  const percentiles = [10, 25, 50, 75, 90].map((p) => {
    const threshold = (totalWeight * p) / 100;
    let cumulative = 0;
    for (const entry of sorted) {
      cumulative += entry.weight;
      if (cumulative >= threshold) return entry.rate;
    }
    return 0;
  });
  return {
    avgfee: spends.length ? Math.floor(totalFee / spends.length) : 0,
    avgfeerate: totalWeight ? Math.floor((totalFee * 4) / totalWeight) : 0,
    avgtxsize: spends.length ? Math.floor(sizes.reduce((a, b) => a + b, 0) / spends.length) : 0,
    blockhash: block.hash,
    feerate_percentiles: percentiles,
    height: block.height,
    ins,
    maxfee: Math.max(0, ...fees),
    maxfeerate: Math.max(0, ...rates),
    maxtxsize: Math.max(0, ...sizes),
    medianfee: median(fees),
    mediantime: medianTimePast(ledger, block.height),
    mediantxsize: median(sizes),
    minfee: fees.length ? Math.min(...fees) : 0,
    minfeerate: rates.length ? Math.min(...rates) : 0,
    mintxsize: sizes.length ? Math.min(...sizes) : 0,
    outs: outs.length,
    subsidy: Number(blockSubsidy(block.height)),
    swtotal_size: segwit.reduce((sum, record) => sum + record.tx.byteLength(), 0),
    swtotal_weight: segwit.reduce((sum, record) => sum + record.tx.weight(), 0),
    swtxs: segwit.length,
    time: block.time,
    total_out: Number(spends.reduce((sum, record) => sum + record.tx.outs.reduce((s, output) => s + output.value, 0n), 0n)),
    total_size: sizes.reduce((a, b) => a + b, 0),
    total_weight: totalWeight,
    totalfee: totalFee,
    txs: records.length,
    utxo_increase: outs.length - ins,
    utxo_size_inc: outs.reduce((sum, output) => sum + outputSize(output), 0) - spentSize,
    utxo_increase_actual: outs.length - unspendable.length - ins,
    utxo_size_inc_actual: outs.filter((output) => output.script[0] !== 0x6a).reduce((sum, output) => sum + outputSize(output), 0) - spentSize,
  };
}

/** `getnetworkinfo` (a regtest node with no peers), `getmempoolinfo` and `getblockstats`. */
export function bvmNodeInfoMethods(ledger: BvmLedger): Record<string, Method> {
  const minRelayFee = btc(BVM_PARAMS.minRelayFeeSatPerKvB);
  return {
    getnetworkinfo: () => ({
      ...BVM_CORE_VERSION,
      localservices: '0000000000000c09',
      localservicesnames: ['NETWORK', 'WITNESS', 'NETWORK_LIMITED', 'P2P_V2'],
      localrelay: true,
      timeoffset: 0,
      networkactive: true,
      connections: 0,
      connections_in: 0,
      connections_out: 0,
      networks: ['ipv4', 'ipv6', 'onion', 'i2p', 'cjdns'].map((name) => ({ name, limited: name !== 'ipv4' && name !== 'ipv6', reachable: name === 'ipv4' || name === 'ipv6', proxy: '', proxy_randomize_credentials: false })),
      relayfee: minRelayFee,
      incrementalfee: minRelayFee,
      localaddresses: [],
      warnings: [],
    }),
    getmempoolinfo: () => {
      const records = ledger.mempoolTransactions();
      const bytes = records.reduce((sum, record) => sum + record.vsize, 0);
      return {
        loaded: true,
        size: records.length,
        bytes,
        usage: records.reduce((sum, record) => sum + record.tx.byteLength() * 4, 0),
        total_fee: btc(records.reduce((sum, record) => sum + record.fee, 0n)),
        maxmempool: 300_000_000,
        mempoolminfee: minRelayFee,
        minrelaytxfee: minRelayFee,
        incrementalrelayfee: minRelayFee,
        unbroadcastcount: 0,
        fullrbf: true,
      };
    },
    getblockstats: (params) => {
      const target = params[0];
      let block: BvmBlock | undefined;
      if (typeof target === 'number' && Number.isInteger(target)) {
        if (target < 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `Target block height ${target} is negative`);
        if (target > ledger.height) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `Target block height ${target} after current tip ${ledger.height}`);
        block = ledger.block(target);
      } else if (typeof target === 'string') {
        block = ledger.block(target.toLowerCase());
        if (!block) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'Block not found');
      } else {
        throw new BvmRpcError(BVM_RPC_ERRORS.type, 'JSON value is not an integer or string as expected');
      }
      const stats = blockStats(ledger, block!);
      const selected = params[1];
      if (isAbsent(selected)) return stats;
      if (!Array.isArray(selected)) throw new BvmRpcError(BVM_RPC_ERRORS.type, 'JSON value is not an array as expected');
      for (const name of selected) if (typeof name !== 'string' || !Object.hasOwn(stats, name)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `Invalid selected statistic '${String(name)}'`);
      return Object.fromEntries(selected.map((name: string) => [name, stats[name]]));
    },
  };
}
