import { addressOfScript, toHex } from './bvmCrypto';
import { BVM_RPC_ERRORS, BvmRpcError } from './bvmRpcError';
import { btc } from './bvmRpcEncoding';
import { boolParam, hashParam, isAbsent, numberParam, stringParam, typeError } from './bvmRpcParams';
import type { BvmLedger, BvmTransactionRecord } from './BvmLedger';
import { WALLET_COINBASE_MATURITY } from './bvmSpendableCoins';
import type { BvmWallet } from './BvmWallet';
import { BVM_WALLET_ERRORS, type BvmWallets } from './BvmWallets';

export type WalletMethod = (wallet: BvmWallet, params: unknown[]) => unknown;

/** What a wallet transaction is for the wallet: credit, debit, fee (when it spent wallet coins). */
function walletAmounts(wallet: BvmWallet, record: BvmTransactionRecord) {
  const credit = record.tx.outs.reduce((sum, output) => sum + (wallet.keyOf(output.script) ? output.value : 0n), 0n);
  const debit = record.prevouts.reduce((sum, prevout) => sum + (wallet.keyOf(prevout.script) ? prevout.value : 0n), 0n);
  const fromMe = debit > 0n;
  return { credit, debit, fromMe, fee: fromMe ? record.fee : 0n };
}

function blockFields(ledger: BvmLedger, record: BvmTransactionRecord): Record<string, unknown> {
  if (record.height === undefined) return { confirmations: 0, trusted: false };
  return { confirmations: ledger.height - record.height + 1, blockhash: record.blockHash, blockheight: record.height, blockindex: record.index, blocktime: ledger.block(record.height)!.time };
}

/** The `details` / `listtransactions` entries of one wallet transaction, as Core lists them. */
function walletEntries(ledger: BvmLedger, wallet: BvmWallet, record: BvmTransactionRecord): Array<Record<string, unknown>> {
  const { fromMe, fee } = walletAmounts(wallet, record);
  const coinbase = record.index === 0 && record.prevouts.length === 0;
  const confirmations = record.height === undefined ? 0 : ledger.height - record.height + 1;
  const entries: Array<Record<string, unknown>> = [];
  record.tx.outs.forEach((output, vout) => {
    const address = addressOfScript(output.script);
    const mine = wallet.keyOf(output.script);
    // as Core's CachedTxGetAmounts: a sent output to one of the wallet's receive addresses is both sent and received
    if (fromMe && !mine?.change) entries.push({ ...(address ? { address } : {}), category: 'send', amount: btc(-output.value), vout, fee: btc(-fee), abandoned: false });
    if (mine && !mine.change) {
      const category = coinbase ? (confirmations >= WALLET_COINBASE_MATURITY ? 'generate' : 'immature') : 'receive';
      entries.push({ address, parent_descs: [], category, amount: btc(output.value), label: '', vout });
    }
  });
  return entries;
}

function transactionCommon(ledger: BvmLedger, record: BvmTransactionRecord): Record<string, unknown> {
  const coinbase = record.prevouts.length === 0;
  return {
    ...(coinbase ? { generated: true } : {}),
    ...blockFields(ledger, record),
    txid: record.txid,
    wtxid: toHex(Uint8Array.from(record.tx.getHash(true)).reverse()),
    walletconflicts: [],
    time: record.time,
    timereceived: record.time,
    'bip125-replaceable': 'no',
  };
}

/** Core's `getbalance` dummy argument: absent or "*". */
function checkDummy(value: unknown): void {
  if (!isAbsent(value) && value !== '*') throw new BvmRpcError(-32, 'dummy first argument must be excluded or set to "*".');
}

/** The wallet's read methods: addresses, balances, coins and history, with Core's field names. */
export function bvmWalletReadMethods(ledger: BvmLedger, wallets: BvmWallets): Record<string, WalletMethod> {
  const balances = (wallet: BvmWallet, minconf = 0) => {
    const totals = { trusted: 0n, untrusted_pending: 0n, immature: 0n };
    for (const entry of wallet.coins(ledger)) if (entry.state !== 'trusted' || entry.confirmations >= minconf) totals[entry.state] += entry.coin.value;
    return totals;
  };
  const history = (wallet: BvmWallet) => ledger.allTransactions().filter((record) => wallet.involves(record));
  return {
    getnewaddress: (wallet, params) => {
      if (!isAbsent(params[1]) && params[1] !== 'bech32') throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, `Unknown address type '${String(params[1])}' (this node's wallets hand out bech32 p2wpkh addresses only)`);
      return wallets.deriveKey(wallet, false).address;
    },
    getrawchangeaddress: (wallet) => wallets.deriveKey(wallet, true).address,
    getbalance: (wallet, params) => {
      checkDummy(params[0]);
      return btc(balances(wallet, numberParam(params, 1, 0)).trusted);
    },
    getbalances: (wallet) => {
      const totals = balances(wallet);
      return { mine: { trusted: btc(totals.trusted), untrusted_pending: btc(totals.untrusted_pending), immature: btc(totals.immature) }, lastprocessedblock: { hash: ledger.tip!.hash, height: ledger.height } };
    },
    getwalletinfo: (wallet) => {
      const totals = balances(wallet);
      return {
        walletname: wallet.name, walletversion: 169900, format: 'sqlite', balance: btc(totals.trusted), unconfirmed_balance: btc(totals.untrusted_pending), immature_balance: btc(totals.immature),
        txcount: history(wallet).length, keypoolsize: 1000, keypoolsize_hd_internal: 1000, paytxfee: btc(0n), private_keys_enabled: true, avoid_reuse: false, scanning: false,
        descriptors: true, external_signer: false, blank: false, lastprocessedblock: { hash: ledger.tip!.hash, height: ledger.height },
      };
    },
    listunspent: (wallet, params) => {
      const minconf = numberParam(params, 0, 1);
      const maxconf = numberParam(params, 1, 9_999_999);
      const addresses = params[2] ?? [];
      if (!Array.isArray(addresses)) throw typeError(addresses, 'array');
      const includeUnsafe = boolParam(params, 3, true);
      return wallet
        .coins(ledger)
        .filter((entry) => entry.state !== 'immature' && !ledger.isLocked(entry.coin.txid, entry.coin.vout))
        .filter((entry) => entry.confirmations >= minconf && entry.confirmations <= maxconf && (includeUnsafe || entry.state === 'trusted'))
        .filter((entry) => addresses.length === 0 || addresses.includes(entry.key.address))
        .map(({ coin, key, confirmations, state }) => ({
          txid: coin.txid, vout: coin.vout, address: key.address, ...(key.change ? {} : { label: '' }), scriptPubKey: toHex(coin.script), amount: btc(coin.value),
          confirmations, spendable: true, solvable: true, desc: key.descriptor, parent_descs: [], safe: state === 'trusted',
        }));
    },
    listtransactions: (wallet, params) => {
      if (!isAbsent(params[0]) && params[0] !== '*' && params[0] !== '') throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Label argument must be a valid label name or "*".');
      const count = numberParam(params, 1, 10);
      const skip = numberParam(params, 2, 0);
      if (count < 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Negative count');
      if (skip < 0) throw new BvmRpcError(BVM_RPC_ERRORS.invalidParameter, 'Negative from');
      const entries = history(wallet).flatMap((record) => walletEntries(ledger, wallet, record).map((entry) => ({ ...entry, ...transactionCommon(ledger, record) })));
      const end = Math.max(0, entries.length - skip);
      return entries.slice(Math.max(0, end - count), end);
    },
    gettransaction: (wallet, params) => {
      const record = ledger.transaction(hashParam(params, 0, 'txid'));
      if (!record || !wallet.involves(record)) throw new BvmRpcError(BVM_RPC_ERRORS.invalidAddressOrKey, 'Invalid or non-wallet transaction id');
      const { credit, debit, fromMe, fee } = walletAmounts(wallet, record);
      const details = walletEntries(ledger, wallet, record);
      return {
        amount: btc(credit - debit + fee),
        ...(fromMe ? { fee: btc(-fee) } : {}),
        ...transactionCommon(ledger, record),
        details,
        hex: record.hex,
      };
    },
    getaddressinfo: (wallet, params) => {
      const address = stringParam(params, 0);
      const key = wallet.keys.find((candidate) => candidate.address === address);
      return {
        address, ismine: key !== undefined, solvable: key !== undefined, iswatchonly: false, isscript: false, iswitness: address.startsWith('bcrt1'),
        ...(key ? { desc: key.descriptor, pubkey: toHex(key.keyPair.publicKey), ischange: key.change, hdkeypath: `m/84h/1h/0h/${key.change ? 1 : 0}/${key.index}`, labels: key.change ? [] : [''] } : { ischange: false, labels: [] }),
      };
    },
  };
}

export { BVM_WALLET_ERRORS };
