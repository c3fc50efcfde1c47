import { bitcoin, toHex } from './bvmCrypto';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { amountParam, boolParam, numberParam, scriptOfAddress, stringParam, typeError } from './bvmRpcParams';
import { decodeTransaction, type BvmLedger } from './BvmLedger';
import { rawTransactionJson } from './bvmPsbtMethods';

type Method = (params: unknown[]) => unknown;

/** `{ address: amount, data: hex }` or an array of one-key objects, as `createrawtransaction` and `walletcreatefundedpsbt` take outputs. */
export function parseOutputs(value: unknown): Array<{ script: Uint8Array; value: bigint }> {
  if (typeof value !== 'object' || value === null) throw typeError(value, 'array');
  const pairs = Array.isArray(value) ? value.flatMap((entry) => Object.entries((entry ?? {}) as Record<string, unknown>)) : Object.entries(value as Record<string, unknown>);
  const seen = new Set<string>();
  return pairs.map(([key, amount]) => {
    if (key === 'data') {
      if (typeof amount !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(amount)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Data must be hexadecimal string');
      if (seen.has('data')) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid parameter, duplicate key: data');
      seen.add('data');
      return { script: bitcoin.script.compile([bitcoin.opcodes.OP_RETURN, Buffer.from(amount, 'hex')]), value: 0n };
    }
    const script = scriptOfAddress(key);
    if (seen.has(key)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `Invalid parameter, duplicated address: ${key}`);
    seen.add(key);
    return { script, value: amountParam(amount) };
  });
}

/** `[{ txid, vout, sequence? }]` as `createrawtransaction` takes inputs. */
export function parseInputs(value: unknown): Array<{ txid: string; vout: number; sequence?: number }> {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw typeError(value, 'array');
  return value.map((entry) => {
    const input = (entry ?? {}) as { txid?: unknown; vout?: unknown; sequence?: unknown };
    if (typeof input.txid !== 'string' || !/^[0-9a-fA-F]{64}$/.test(input.txid)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `txid must be of length 64 (not ${String(input.txid ?? '').length}, for '${String(input.txid ?? '')}')`);
    if (typeof input.vout !== 'number') throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid parameter, missing vout key');
    if (!Number.isInteger(input.vout) || input.vout < 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid parameter, vout cannot be negative');
    return { txid: input.txid.toLowerCase(), vout: input.vout, ...(typeof input.sequence === 'number' ? { sequence: input.sequence } : {}) };
  });
}

/** An unsigned version-2 transaction of these inputs and outputs (Core's default sequence: RBF-signalling when `replaceable`). */
export function unsignedTransaction(inputs: ReturnType<typeof parseInputs>, outputs: ReturnType<typeof parseOutputs>, locktime: number, replaceable: boolean): bitcoin.Transaction {
  const tx = new bitcoin.Transaction();
  tx.version = 2;
  tx.locktime = locktime;
  const defaultSequence = replaceable ? 0xfffffffd : locktime ? 0xfffffffe : 0xffffffff;
  for (const input of inputs) tx.addInput(Buffer.from(input.txid, 'hex').reverse(), input.vout, input.sequence ?? defaultSequence);
  for (const output of outputs) tx.addOutput(output.script, output.value);
  return tx;
}

/** `createrawtransaction` and `decoderawtransaction`. */
export function bvmRawTransactionMethods(ledger: BvmLedger): Record<string, Method> {
  return {
    createrawtransaction: (params) => {
      const tx = unsignedTransaction(parseInputs(params[0]), parseOutputs(params[1]), numberParam(params, 2, 0), boolParam(params, 3, false));
      return toHex(tx.toBuffer());
    },
    decoderawtransaction: (params) => rawTransactionJson(ledger, decodeTransaction(stringParam(params, 0))),
  };
}
