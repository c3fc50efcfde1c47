import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { outputScriptOf, toHex } from './bvmCrypto';
import { BVM_PARAMS, decodeTransaction, feeAt, type BvmLedger, type BvmTransactionRecord } from './BvmLedger';
import { blockHeaderJson, btc, medianTimePast, REGTEST_DIFFICULTY, satsOf, scriptPubKeyJson, transactionJson } from './bvmRpcEncoding';
import { BVM_FEE_RATE_SAT_PER_KVB } from './bvmTransactions';
import { bvmNodeInfoMethods } from './bvmNodeInfoMethods';
import { bvmPsbtMethods, rawTransactionJson } from './bvmPsbtMethods';
import { bvmRawTransactionMethods } from './bvmRawTransactionMethods';
import { boolParam, hashParam, numberParam, scriptOfAddress, stringParam, typeError } from './bvmRpcParams';

type Method = (params: unknown[]) => unknown;

/** sendrawtransaction's default `maxfeerate`: 0.10 BTC/kvB. */
const DEFAULT_MAX_FEE_RATE_SATS_PER_KVB = 10_000_000n;
const MAX_GENERATE_BLOCKS = 1000;

/** `addr(<address>)` descriptors (with or without a `#checksum`), as strings or `{ desc }` objects. */
function descriptorAddress(entry: unknown): string {
  const text = typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as { desc?: unknown }).desc : undefined;
  const match = typeof text === 'string' ? text.match(/^addr\(([^)]+)\)(#[a-z0-9]{8})?$/) : null;
  if (!match) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, `scantxoutset: only addr(<address>) descriptors are simulated (got ${JSON.stringify(entry)})`);
  return match[1]!;
}

function mempoolEntryJson(ledger: BvmLedger, record: BvmTransactionRecord): Record<string, unknown> {
  const parents = record.tx.ins.map((input) => toHex(Uint8Array.from(input.hash).reverse())).filter((txid) => ledger.transaction(txid)?.height === undefined);
  return {
    vsize: record.vsize,
    weight: record.tx.weight(),
    time: record.time,
    height: ledger.height,
    descendantcount: 1,
    ancestorcount: 1 + parents.length,
    wtxid: toHex(Uint8Array.from(record.tx.getHash(true)).reverse()),
    fees: { base: btc(record.fee), modified: btc(record.fee), ancestor: btc(record.fee), descendant: btc(record.fee) },
    depends: [...new Set(parents)],
    spentby: [],
    'bip125-replaceable': false,
    unbroadcast: false,
  };
}

/**
 * `getrawtransaction` of a transaction a fork read from its upstream (not mined here): its hex, or
 * decoded with the upstream block it was in (`upstreamblockhash`; no local confirmations).
 */
function upstreamRawTransaction(ledger: BvmLedger, txid: string, verbose: boolean): unknown {
  const upstream = ledger.upstreamTransaction(txid);
  if (!upstream) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'No such mempool or blockchain transaction. Use gettransaction for wallet transactions.');
  if (!verbose) return upstream.hex;
  const status = (upstream.esplora.status ?? {}) as { block_hash?: unknown };
  return { ...rawTransactionJson(ledger, decodeTransaction(upstream.hex)), hex: upstream.hex, ...(typeof status.block_hash === 'string' ? { upstreamblockhash: status.block_hash } : {}) };
}

/**
 * The Bitcoin Core RPC methods the ledger answers, with bitcoind's parameters, result shapes
 * (amounts in BTC) and error codes. `generatetoaddress` mines; `getrawtransaction` works for
 * every transaction (as a node with `-txindex`). `listunspent` answers for the `addresses` given
 * (the ledger has no wallet of its own).
 */
export function bvmRpcMethods(ledger: BvmLedger): Record<string, Method> {
  const blockByHash = (hash: string) => {
    const block = ledger.block(hash);
    if (!block) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'Block not found');
    return block;
  };
  return {
    ...bvmNodeInfoMethods(ledger),
    ...bvmRawTransactionMethods(ledger),
    ...bvmPsbtMethods(ledger),
    getblockchaininfo: () => {
      const tip = ledger.tip!;
      return {
        chain: 'regtest',
        blocks: ledger.height,
        headers: ledger.height,
        bestblockhash: tip.hash,
        bits: BVM_PARAMS.bits.toString(16),
        difficulty: REGTEST_DIFFICULTY,
        time: tip.time,
        mediantime: medianTimePast(ledger, tip.height),
        verificationprogress: 1,
        initialblockdownload: false,
        chainwork: (BigInt(ledger.height + 1) * 2n).toString(16).padStart(64, '0'),
        size_on_disk: 0,
        pruned: false,
        warnings: [],
      };
    },
    getblockcount: () => ledger.height,
    getbestblockhash: () => ledger.tip!.hash,
    getblockhash: (params) => {
      const height = numberParam(params, 0);
      const block = ledger.block(height);
      if (!block) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Block height out of range');
      return block.hash;
    },
    getblockheader: (params) => {
      const block = blockByHash(hashParam(params, 0, 'blockhash'));
      return boolParam(params, 1, true) ? blockHeaderJson(ledger, block) : toHex(block.block.toBuffer(true));
    },
    getblock: (params) => {
      const block = blockByHash(hashParam(params, 0, 'blockhash'));
      const verbosity = params[1] === undefined || params[1] === null ? 1 : typeof params[1] === 'boolean' ? (params[1] ? 1 : 0) : numberParam(params, 1);
      if (verbosity === 0) return block.block.toHex();
      const records = block.txids.map((txid) => ledger.transaction(txid)!);
      return {
        ...blockHeaderJson(ledger, block),
        strippedsize: block.block.byteLength(false, false),
        size: block.size,
        weight: block.weight,
        tx: verbosity === 1 ? block.txids : records.map((record) => transactionJson(ledger, record, { withBlock: false, withFee: true })),
      };
    },
    getrawmempool: (params) => {
      const records = ledger.mempoolTransactions();
      if (!boolParam(params, 0, false)) return records.map((record) => record.txid);
      return Object.fromEntries(records.map((record) => [record.txid, mempoolEntryJson(ledger, record)]));
    },
    getmempoolentry: (params) => {
      const record = ledger.transaction(hashParam(params, 0, 'txid'));
      if (!record || record.height !== undefined) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'Transaction not in mempool');
      return mempoolEntryJson(ledger, record);
    },
    getrawtransaction: (params) => {
      const record = ledger.transaction(hashParam(params, 0, 'parameter 1'));
      if (!record) return upstreamRawTransaction(ledger, hashParam(params, 0, 'parameter 1'), boolParam(params, 1, false));
      if (!boolParam(params, 1, false)) return record.hex;
      return transactionJson(ledger, record, { withBlock: true, withFee: params[1] === 2 });
    },
    sendrawtransaction: (params) => {
      const hex = stringParam(params, 0);
      const maxFeeRate = params[1] === undefined || params[1] === null ? DEFAULT_MAX_FEE_RATE_SATS_PER_KVB : satsOf(params[1]);
      if (maxFeeRate === undefined) throw new BvmRpcError(BVM_RPC_ERRORS.type, 'Amount is not a number or string');
      const checked = ledger.check(hex);
      if (maxFeeRate > 0n && checked.fee > feeAt(maxFeeRate, checked.vsize)) {
        throw new BvmRpcError(BVM_RPC_ERRORS.verify, 'Fee exceeds maximum configured by user (e.g. -maxtxfee, maxfeerate)');
      }
      return ledger.submit(hex).txid;
    },
    testmempoolaccept: (params) => {
      const raw = params[0];
      if (!Array.isArray(raw)) throw typeError(raw, 'array');
      return raw.map((hex) => {
        try {
          const checked = ledger.check(String(hex));
          return { txid: checked.txid, wtxid: toHex(Uint8Array.from(checked.tx.getHash(true)).reverse()), allowed: true, vsize: checked.vsize, fees: { base: btc(checked.fee) } };
        } catch (error) {
          if (!(error instanceof BvmRpcError)) throw error;
          return { txid: '', wtxid: '', allowed: false, 'reject-reason': error.message };
        }
      });
    },
    gettxout: (params) => {
      const txid = hashParam(params, 0, 'txid');
      const coin = ledger.coin(txid, numberParam(params, 1), boolParam(params, 2, true));
      if (!coin) return null;
      return {
        bestblock: ledger.tip!.hash,
        confirmations: coin.height === null ? 0 : ledger.height - coin.height + 1,
        value: btc(coin.value),
        scriptPubKey: scriptPubKeyJson(coin.script),
        coinbase: coin.coinbase,
      };
    },
    scantxoutset: (params) => {
      const action = stringParam(params, 0);
      if (action === 'status' || action === 'abort') return action === 'status' ? null : false;
      if (action !== 'start') throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid action argument');
      const descriptors = params[1];
      if (!Array.isArray(descriptors)) throw new BvmRpcError(BVM_RPC_ERRORS.misc, 'scanobjects argument is required for the start action');
      const unspents = descriptors.flatMap((entry) => {
        const address = descriptorAddress(entry);
        return ledger.coinsOf(scriptOfAddress(address), false).map((coin) => ({
          txid: coin.txid,
          vout: coin.vout,
          scriptPubKey: toHex(coin.script),
          desc: `addr(${address})`,
          amount: btc(coin.value),
          coinbase: coin.coinbase,
          height: coin.height,
          blockhash: ledger.block(coin.height!)!.hash,
          confirmations: ledger.height - coin.height! + 1,
        }));
      });
      return {
        success: true,
        txouts: unspents.length,
        height: ledger.height,
        bestblock: ledger.tip!.hash,
        unspents,
        total_amount: btc(unspents.reduce((sum, coin) => sum + coin.amount.sats, 0n)),
      };
    },
    listunspent: (params) => {
      const minconf = numberParam(params, 0, 1);
      const maxconf = numberParam(params, 1, 9_999_999);
      const addresses = params[2] ?? [];
      if (!Array.isArray(addresses)) throw typeError(addresses, 'array');
      return addresses.flatMap((address) =>
        ledger
          .coinsOf(scriptOfAddress(String(address)), minconf === 0)
          .map((coin) => ({ coin, confirmations: coin.height === null ? 0 : ledger.height - coin.height + 1 }))
          .filter(({ confirmations }) => confirmations >= minconf && confirmations <= maxconf)
          .map(({ coin, confirmations }) => ({
            txid: coin.txid,
            vout: coin.vout,
            address: String(address),
            scriptPubKey: toHex(coin.script),
            amount: btc(coin.value),
            confirmations,
            spendable: false,
            solvable: true,
            desc: `addr(${String(address)})`,
            safe: confirmations > 0,
          })),
      );
    },
    estimatesmartfee: (params) => {
      const blocks = numberParam(params, 0);
      if (blocks < 1 || blocks > 1008) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid conf_target, must be between 1 and 1008');
      return { feerate: btc(BVM_FEE_RATE_SAT_PER_KVB), blocks };
    },
    invalidateblock: (params) => {
      const block = blockByHash(hashParam(params, 0, 'blockhash'));
      while (ledger.height >= block.height) ledger.invalidateTip();
      return null;
    },
    reconsiderblock: (params) => {
      const hash = hashParam(params, 0, 'blockhash');
      if (!ledger.block(hash) && ledger.reconsider(hash).length === 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'Block not found');
      return null;
    },
    generatetoaddress: (params) => {
      const count = numberParam(params, 0);
      if (count < 0 || count > MAX_GENERATE_BLOCKS) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `nblocks must be between 0 and ${MAX_GENERATE_BLOCKS}`);
      const address = stringParam(params, 1);
      const script = outputScriptOf(address);
      if (!script) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'Error: Invalid address');
      return ledger.mine(count, script).map((block) => block.hash);
    },
  };
}
