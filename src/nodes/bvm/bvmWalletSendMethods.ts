import { BVM_NETWORK, bitcoin, toHex } from './bvmCrypto';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { btc } from './bvmRpcEncoding';
import { amountParam, boolParam, isAbsent, numberParam, objectParam, scriptOfAddress, stringParam, typeError } from './bvmRpcParams';
import { decodeTransaction, dustThreshold, type BvmCoin, type BvmLedger } from './BvmLedger';
import { finalizeWhatCan, parsePsbt } from './bvmPsbtMethods';
import { parseInputs, parseOutputs, unsignedTransaction } from './bvmRawTransactionMethods';
import { selectCoins, signP2wpkhInput } from './bvmTransactions';
import type { BvmWallet } from './BvmWallet';
import { BVM_WALLET_ERRORS, type BvmWallets } from './BvmWallets';
import type { WalletMethod } from './bvmWalletReadMethods';

type Output = { script: Uint8Array; value: bigint };

/**
 * Funds `outputs` from the wallet: `preset` inputs first, then (with `addInputs`) its spendable
 * coins, largest first; change to a new change address unless below dust. Core's -6 "Insufficient funds".
 */
function fund(ledger: BvmLedger, wallets: BvmWallets, wallet: BvmWallet, outputs: Output[], preset: BvmCoin[] = [], addInputs = true) {
  const amount = outputs.reduce((sum, output) => sum + output.value, 0n);
  for (const output of outputs) if (output.value < dustThreshold(output.script)) throw new BvmRpcError(BVM_WALLET_ERRORS.wallet, 'Transaction amount too small');
  const presetKeys = new Set(preset.map((coin) => `${coin.txid}:${coin.vout}`));
  const candidates = addInputs ? wallet.spendable(ledger).map((entry) => entry.coin).filter((coin) => !presetKeys.has(`${coin.txid}:${coin.vout}`)) : [];
  const selected = selectCoins(candidates, amount, outputs.length + 1, preset);
  if (!selected) throw new BvmRpcError(BVM_WALLET_ERRORS.insufficientFunds, 'Insufficient funds');
  const changeKey = selected.change > 0n ? wallets.deriveKey(wallet, true) : undefined;
  // change below the dust threshold goes to the fee, as Core's wallet does
  const changeOutput = changeKey && selected.change >= dustThreshold(changeKey.script) ? { script: changeKey.script, value: selected.change } : undefined;
  return { coins: selected.coins, outputs: changeOutput ? [...outputs, changeOutput] : outputs, changepos: changeOutput ? outputs.length : -1, fee: selected.fee + (changeOutput ? 0n : selected.change) };
}

/** Signs every input of `tx` whose previous output the wallet owns; the inputs it could not sign. */
function signWithWallet(ledger: BvmLedger, wallet: BvmWallet, tx: bitcoin.Transaction, prevouts: Map<string, Output>): Array<Record<string, unknown>> {
  const errors: Array<Record<string, unknown>> = [];
  tx.ins.forEach((input, index) => {
    const txid = toHex(Uint8Array.from(input.hash).reverse());
    const prevout = prevouts.get(`${txid}:${input.index}`) ?? ledger.coin(txid, input.index, true) ?? ledger.transaction(txid)?.tx.outs[input.index];
    const key = prevout ? wallet.keyOf(prevout.script) : undefined;
    if (prevout && key) return signP2wpkhInput(tx, index, key, prevout.value);
    if (input.witness.length > 0) return;
    errors.push({ txid, vout: input.index, witness: [], scriptSig: '', sequence: input.sequence, error: prevout ? 'Unable to sign input, invalid stack size (possibly missing key)' : 'Input not found or already spent' });
  });
  return errors;
}

function signAndSend(ledger: BvmLedger, wallet: BvmWallet, funded: ReturnType<typeof fund>): string {
  const tx = unsignedTransaction(funded.coins.map((coin) => ({ txid: coin.txid, vout: coin.vout })), funded.outputs, 0, true);
  signWithWallet(ledger, wallet, tx, new Map());
  return ledger.submit(tx.toHex()).txid;
}

/** The wallet's spending methods: sends, funded PSBTs, signing, coin locks. */
export function bvmWalletSendMethods(ledger: BvmLedger, wallets: BvmWallets): Record<string, WalletMethod> {
  return {
    sendtoaddress: (wallet, params) => {
      const script = scriptOfAddress(stringParam(params, 0));
      const value = amountParam(params[1]);
      if (value <= 0n) throw new BvmRpcError(BVM_RPC_ERRORS.type, 'Invalid amount for send');
      if (boolParam(params, 4, false)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'subtractfeefromamount is not simulated');
      return signAndSend(ledger, wallet, fund(ledger, wallets, wallet, [{ script, value }]));
    },
    sendmany: (wallet, params) => {
      if (!isAbsent(params[0]) && params[0] !== '') throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Dummy value must be set to ""');
      const outputs = parseOutputs(objectParam(params, 1));
      if (outputs.length === 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Transaction must have at least one recipient');
      for (const output of outputs) if (output.value <= 0n) throw new BvmRpcError(BVM_RPC_ERRORS.type, 'Invalid amount for send');
      return signAndSend(ledger, wallet, fund(ledger, wallets, wallet, outputs));
    },
    walletcreatefundedpsbt: (wallet, params) => {
      const inputs = parseInputs(params[0]);
      const outputs = parseOutputs(params[1]);
      const locktime = numberParam(params, 2, 0);
      const options = objectParam(params, 3);
      const preset = inputs.map((input) => {
        const coin = ledger.coin(input.txid, input.vout, true);
        if (!coin) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `Insufficient funds: input ${input.txid}:${input.vout} not found or already spent`);
        return coin;
      });
      const addInputs = typeof options.add_inputs === 'boolean' ? options.add_inputs : inputs.length === 0;
      const funded = fund(ledger, wallets, wallet, outputs, preset, addInputs);
      const replaceable = typeof options.replaceable === 'boolean' ? options.replaceable : true;
      const psbt = new bitcoin.Psbt({ network: BVM_NETWORK });
      psbt.setLocktime(locktime);
      const sequence = replaceable ? 0xfffffffd : locktime ? 0xfffffffe : 0xffffffff;
      for (const coin of funded.coins) psbt.addInput({ hash: coin.txid, index: coin.vout, sequence, witnessUtxo: { script: coin.script, value: coin.value } });
      for (const output of funded.outputs) psbt.addOutput({ script: output.script, value: output.value });
      if (options.lockUnspents === true) for (const coin of funded.coins) ledger.setLocked(coin.txid, coin.vout, true);
      return { psbt: psbt.toBase64(), fee: btc(funded.fee), changepos: funded.changepos };
    },
    walletprocesspsbt: (wallet, params) => {
      const psbt = parsePsbt(params[0]);
      const sign = boolParam(params, 1, true);
      if (!isAbsent(params[2]) && params[2] !== 'ALL' && params[2] !== 'DEFAULT') throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, `Sighash type ${String(params[2])} is not simulated (ALL only)`);
      const finalize = boolParam(params, 4, true);
      psbt.txInputs.forEach((input, index) => {
        const data = psbt.data.inputs[index]!;
        const txid = toHex(Uint8Array.from(input.hash).reverse());
        const prevout = data.witnessUtxo ?? ledger.coin(txid, input.index, true) ?? ledger.transaction(txid)?.tx.outs[input.index];
        if (!prevout) return;
        if (!data.witnessUtxo) psbt.updateInput(index, { witnessUtxo: { script: prevout.script, value: prevout.value } });
        const key = wallet.keyOf(prevout.script);
        if (sign && key && !data.finalScriptWitness && !data.partialSig?.some((sig) => toHex(sig.pubkey) === toHex(key.keyPair.publicKey))) psbt.signInput(index, key.keyPair);
      });
      const complete = finalize ? finalizeWhatCan(psbt) : psbt.data.inputs.every((input) => input.finalScriptWitness !== undefined);
      return { psbt: psbt.toBase64(), complete, ...(complete && finalize ? { hex: psbt.extractTransaction(true).toHex() } : {}) };
    },
    signrawtransactionwithwallet: (wallet, params) => {
      const tx = decodeTransaction(stringParam(params, 0));
      const given = params[1] ?? [];
      if (!Array.isArray(given)) throw typeError(given, 'array');
      const prevouts = new Map<string, Output>();
      for (const entry of given as Array<{ txid?: string; vout?: number; scriptPubKey?: string; amount?: unknown }>) {
        if (typeof entry.txid !== 'string' || typeof entry.vout !== 'number' || typeof entry.scriptPubKey !== 'string') throw new BvmRpcError(BVM_RPC_ERRORS.deserialization, 'Missing txid, vout or scriptPubKey in prevtxs');
        prevouts.set(`${entry.txid.toLowerCase()}:${entry.vout}`, { script: Buffer.from(entry.scriptPubKey, 'hex'), value: amountParam(entry.amount) });
      }
      const errors = signWithWallet(ledger, wallet, tx, prevouts);
      return { hex: tx.toHex(), complete: errors.length === 0, ...(errors.length ? { errors } : {}) };
    },
    lockunspent: (_wallet, params) => {
      const unlock = boolParam(params, 0, false);
      const outpoints = params[1];
      if (isAbsent(outpoints)) {
        if (!unlock) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid parameter, transactions must be specified when locking');
        for (const { txid, vout } of ledger.lockedOutpoints()) ledger.setLocked(txid, vout, false);
        return true;
      }
      for (const { txid, vout } of parseInputs(outpoints)) {
        if (!ledger.coin(txid, vout, true)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Invalid parameter, expected unspent output');
        ledger.setLocked(txid, vout, !unlock);
      }
      return true;
    },
    listlockunspent: () => ledger.lockedOutpoints(),
  };
}
