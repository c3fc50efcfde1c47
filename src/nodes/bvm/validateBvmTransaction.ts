import { BVM_RPC_ERRORS, BvmRpcError, rejected } from './bvmRpcError';
import { BVM_PARAMS, decodeTransaction, dustThreshold, feeAt, formatBtc, outpointKey, txidOf, verifyP2wpkhInput } from './bvmConsensus';
import type { BvmTransactionRecord } from './bvmLedgerTypes';
import { transactionIdOf } from './bvmCrypto';
import type { BvmLedgerState } from './BvmLedgerState';
import { replacementRefusal } from './bvmReplacement';

/**
 * Checks a raw transaction against `state` by the mempool's rules (`mempool`: a spend of an output
 * a mempool transaction already spends must pass the replacement rules) or a block's (`block`: a
 * conflicting spend simply wins). Returns it checked and the mempool transactions it conflicts
 * with; throws the `BvmRpcError` `sendrawtransaction` would answer.
 */
export function validateBvmTransaction(
  state: BvmLedgerState,
  hex: string,
  into: 'mempool' | 'block',
  signaturesTrusted: boolean,
): { checked: Omit<BvmTransactionRecord, 'time'>; conflicts: BvmTransactionRecord[] } {
  const tx = decodeTransaction(hex);
  const txid = transactionIdOf(tx);
  if (state.confirmed.has(txid)) throw new BvmRpcError(BVM_RPC_ERRORS.alreadyInChain, 'Transaction outputs already in utxo set');
  if (tx.isCoinbase()) throw rejected('coinbase');
  if (tx.ins.length === 0) throw rejected('bad-txns-vin-empty');
  if (tx.outs.length === 0) throw rejected('bad-txns-vout-empty');
  const totalOut = tx.outs.reduce((sum, output) => sum + output.value, 0n);
  if (totalOut > 21_000_000n * BVM_PARAMS.coin) throw rejected('bad-txns-txouttotal-toolarge');
  for (const output of tx.outs) if (output.value < dustThreshold(output.script)) throw rejected('dust');
  const seen = new Set<string>();
  const prevouts: BvmTransactionRecord['prevouts'] = [];
  const conflicting = new Set<string>();
  for (const input of tx.ins) {
    const key = outpointKey(txidOf(input.hash), input.index);
    if (seen.has(key)) throw rejected('bad-txns-inputs-duplicate');
    seen.add(key);
    const spender = state.mempoolSpends.get(key);
    if (spender) conflicting.add(spender);
    const coin = state.outputOf(txidOf(input.hash), input.index);
    if (!coin) throw new BvmRpcError(BVM_RPC_ERRORS.verify, 'bad-txns-inputs-missingorspent');
    if (coin.coinbase && coin.height !== null) {
      const depth = state.height + 1 - coin.height;
      if (depth < BVM_PARAMS.coinbaseMaturity) throw rejected(`bad-txns-premature-spend-of-coinbase, tried to spend coinbase at depth ${depth}`);
    }
    prevouts.push({ value: coin.value, script: coin.script });
  }
  const totalIn = prevouts.reduce((sum, prevout) => sum + prevout.value, 0n);
  if (totalIn < totalOut) throw rejected(`bad-txns-in-belowout, value in (${formatBtc(totalIn)}) < value out (${formatBtc(totalOut)})`);
  if (!signaturesTrusted) tx.ins.forEach((_, index) => verifyP2wpkhInput(tx, index, prevouts[index]!));
  const fee = totalIn - totalOut;
  const vsize = tx.virtualSize();
  const minimum = feeAt(BVM_PARAMS.minRelayFeeSatPerKvB, vsize);
  if (fee < minimum) throw rejected(`min relay fee not met, ${fee} < ${minimum}`);
  const conflicts = [...conflicting].map((spender) => state.mempool.get(spender)!);
  if (into === 'mempool' && conflicts.length > 0) {
    const parents = tx.ins.map((input) => txidOf(input.hash));
    const refusal = replacementRefusal({ txid, fee, vsize, parents }, conflicts, state.withMempoolDescendants([...conflicting]), (parent) => state.mempool.has(parent));
    if (refusal) throw refusal;
  }
  return { checked: { txid, tx, hex, fee, vsize, prevouts }, conflicts };
}
