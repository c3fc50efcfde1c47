import { BVM_NETWORK, bitcoin, ecc, isP2wpkhScript, toHex } from './bvmCrypto';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { btc, scriptPubKeyJson, transactionJson } from './bvmRpcEncoding';
import { boolParam, stringParam, typeError } from './bvmRpcParams';
import { decodeTransaction, type BvmLedger } from './BvmLedger';

type Method = (params: unknown[]) => unknown;
type Psbt = bitcoin.Psbt;

/**
 * A PSBT parameter: base64 as Core takes it (hex too, what the service's quote steps carry: a
 * lenience Core does not have); one that decodes as neither answers Core's -22.
 */
export function parsePsbt(text: unknown): Psbt {
  if (typeof text !== 'string') throw typeError(text, 'string');
  try {
    return /^([0-9a-fA-F]{2})+$/.test(text) ? bitcoin.Psbt.fromHex(text, { network: BVM_NETWORK }) : bitcoin.Psbt.fromBase64(text, { network: BVM_NETWORK });
  } catch (error) {
    throw new BvmRpcError(BVM_RPC_ERRORS.deserialization, `TX decode failed ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Inputs minus outputs when every input carries its previous output; undefined otherwise. */
export function psbtFee(psbt: Psbt): bigint | undefined {
  const prevouts = psbt.data.inputs.map((input) => input.witnessUtxo?.value);
  if (prevouts.some((value) => value === undefined)) return undefined;
  return (prevouts as bigint[]).reduce((sum, value) => sum + value, 0n) - psbt.txOutputs.reduce((sum, output) => sum + output.value, 0n);
}

function isFinal(input: Psbt['data']['inputs'][number]): boolean {
  return input.finalScriptWitness !== undefined || input.finalScriptSig !== undefined;
}

/** Finalizes every input it can (p2wpkh with a valid partial signature); whether all are final. */
export function finalizeWhatCan(psbt: Psbt): boolean {
  psbt.data.inputs.forEach((input, index) => {
    if (isFinal(input) || !input.partialSig?.length) return;
    try {
      if (psbt.validateSignaturesOfInput(index, (pubkey, hash, signature) => ecc.verify(hash, pubkey, signature))) psbt.finalizeInput(index);
    } catch {
      // not finalizable yet (a script this node does not finalize): stays as it is
    }
  });
  return psbt.data.inputs.every(isFinal);
}

/** The unsigned transaction of a PSBT as `decoderawtransaction` shows it. */
function unsignedTransactionJson(ledger: BvmLedger, psbt: Psbt): Record<string, unknown> {
  const tx = bitcoin.Transaction.fromBuffer(psbt.data.getTransaction());
  return rawTransactionJson(ledger, tx);
}

/** A transaction not (necessarily) in the ledger as `decoderawtransaction` shows it. */
export function rawTransactionJson(ledger: BvmLedger, tx: bitcoin.Transaction): Record<string, unknown> {
  const { hex: _hex, ...json } = transactionJson(ledger, { txid: tx.getId(), tx, hex: tx.toHex(), fee: 0n, vsize: tx.virtualSize(), time: 0, prevouts: [] }, { withBlock: false, withFee: false });
  return json;
}

/** The weight a p2wpkh input's witness adds once signed (a 72-byte signature, a 33-byte key, counts). */
const P2WPKH_WITNESS_WEIGHT = 1 + 1 + 72 + 1 + 33;

function estimatedVsize(psbt: Psbt): number {
  const tx = bitcoin.Transaction.fromBuffer(psbt.data.getTransaction());
  return Math.ceil((tx.weight() + 2 + psbt.inputCount * P2WPKH_WITNESS_WEIGHT) / 4);
}

/** `decodepsbt`, `analyzepsbt`, `finalizepsbt` and `combinepsbt`, with Core's field names (PSBT version 0). */
export function bvmPsbtMethods(ledger: BvmLedger): Record<string, Method> {
  return {
    decodepsbt: (params) => {
      const psbt = parsePsbt(params[0]);
      const fee = psbtFee(psbt);
      return {
        tx: unsignedTransactionJson(ledger, psbt),
        global_xpubs: [],
        psbt_version: 0,
        proprietary: [],
        unknown: {},
        inputs: psbt.data.inputs.map((input) => ({
          ...(input.witnessUtxo ? { witness_utxo: { amount: btc(input.witnessUtxo.value), scriptPubKey: scriptPubKeyJson(input.witnessUtxo.script) } } : {}),
          ...(input.partialSig?.length ? { partial_signatures: Object.fromEntries(input.partialSig.map((sig) => [toHex(sig.pubkey), toHex(sig.signature)])) } : {}),
          ...(input.sighashType !== undefined ? { sighash: input.sighashType === 1 ? 'ALL' : String(input.sighashType) } : {}),
          ...(input.finalScriptSig ? { final_scriptSig: { asm: bitcoin.script.toASM(input.finalScriptSig), hex: toHex(input.finalScriptSig) } } : {}),
          ...(input.finalScriptWitness ? { final_scriptwitness: witnessStack(input.finalScriptWitness) } : {}),
        })),
        outputs: psbt.data.outputs.map(() => ({})),
        ...(fee !== undefined ? { fee: btc(fee) } : {}),
      };
    },
    analyzepsbt: (params) => {
      const psbt = parsePsbt(params[0]);
      const inputs = psbt.data.inputs.map((input) => {
        const hasUtxo = input.witnessUtxo !== undefined || input.nonWitnessUtxo !== undefined;
        if (isFinal(input)) return { has_utxo: hasUtxo, is_final: true, next: 'extractor' };
        if (!hasUtxo) return { has_utxo: false, is_final: false, next: 'updater' };
        if (input.partialSig?.length) return { has_utxo: true, is_final: false, next: 'finalizer' };
        const script = input.witnessUtxo?.script;
        return { has_utxo: true, is_final: false, missing: { signatures: script && isP2wpkhScript(script) ? [toHex(script.subarray(2))] : [] }, next: 'signer' };
      });
      const order = ['creator', 'updater', 'signer', 'finalizer', 'extractor'];
      const next = inputs.length === 0 ? 'creator' : inputs.map((input) => input.next).reduce((a, b) => (order.indexOf(a) <= order.indexOf(b) ? a : b));
      const fee = psbtFee(psbt);
      const vsize = estimatedVsize(psbt);
      if (fee === undefined) return { inputs, next };
      // Core's feerate is BTC per kvB
      return { inputs, estimated_vsize: vsize, estimated_feerate: btc((fee * 1000n) / BigInt(vsize)), fee: btc(fee), next };
    },
    finalizepsbt: (params) => {
      const psbt = parsePsbt(params[0]);
      const extract = boolParam(params, 1, true);
      const complete = finalizeWhatCan(psbt);
      if (complete && extract) return { hex: psbt.extractTransaction(true).toHex(), complete: true };
      return { psbt: psbt.toBase64(), complete };
    },
    combinepsbt: (params) => {
      const texts = params[0];
      if (!Array.isArray(texts)) throw typeError(texts, 'array');
      if (texts.length === 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, "Parameter 'txs' cannot be empty");
      const [first, ...rest] = texts.map(parsePsbt);
      const unsigned = toHex(first!.data.getTransaction());
      if (rest.some((psbt) => toHex(psbt.data.getTransaction()) !== unsigned)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'PSBTs not compatible (different transactions)');
      return first!.combine(...rest).toBase64();
    },
    converttopsbt: (params) => {
      const tx = decodeTransaction(stringParam(params, 0));
      const psbt = new bitcoin.Psbt({ network: BVM_NETWORK });
      psbt.setVersion(tx.version);
      psbt.setLocktime(tx.locktime);
      for (const input of tx.ins) psbt.addInput({ hash: input.hash, index: input.index, sequence: input.sequence });
      for (const output of tx.outs) psbt.addOutput({ script: output.script, value: output.value });
      return psbt.toBase64();
    },
  };
}

/** A final witness (serialized stack) as the hex items Core lists. */
function witnessStack(serialized: Uint8Array): string[] {
  const items: string[] = [];
  let offset = 0;
  const readVarInt = () => {
    const first = serialized[offset++]!;
    if (first < 0xfd) return first;
    const bytes = first === 0xfd ? 2 : first === 0xfe ? 4 : 8;
    let value = 0;
    for (let i = 0; i < bytes; i++) value += serialized[offset++]! * 2 ** (8 * i);
    return value;
  };
  const count = readVarInt();
  for (let i = 0; i < count; i++) {
    const length = readVarInt();
    items.push(toHex(serialized.subarray(offset, offset + length)));
    offset += length;
  }
  return items;
}
