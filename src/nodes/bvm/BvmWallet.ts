import { createHmac } from 'node:crypto';
import { deriveHdNode } from '../../keys/deriveHdPrivateKeys';
import { bvmKeyOf, type BvmKey } from './bvmAccounts';
import { toHex } from './bvmCrypto';
import { withDescriptorChecksum } from './bvmDescriptors';
import type { BvmCoin, BvmLedger, BvmTransactionRecord } from './BvmLedger';
import { coinConfirmations, isImmatureCoinbase, spendableCoinsOf } from './bvmSpendableCoins';

/** A key the wallet handed out: receive (`getnewaddress`) or change (`getrawchangeaddress`), its BIP84 index. */
export interface BvmWalletKey extends BvmKey {
  change: boolean;
  index: number;
  /** `wpkh([fingerprint/84h/1h/0h/<change>/<index>]<pubkey>)#checksum`. */
  descriptor: string;
}

/** A wallet coin, classified as Core's `getbalances` does. */
export interface BvmWalletCoin {
  coin: BvmCoin;
  key: BvmWalletKey;
  confirmations: number;
  state: 'trusted' | 'untrusted_pending' | 'immature';
}

/**
 * One descriptor wallet of the node (`createwallet`): p2wpkh keys along BIP84 on the test coin
 * type (receive m/84'/1'/0'/0/i, change m/84'/1'/0'/1/i) from a seed of its own, HMAC-SHA512 of
 * the node's mnemonic seed and the wallet's name, so the same node and name give the same
 * addresses on every run. Its coins and history are read from the ledger by the scripts of the
 * keys it handed out.
 */
export class BvmWallet {
  readonly keys: BvmWalletKey[] = [];
  private readonly byScript = new Map<string, BvmWalletKey>();
  private readonly next = { receive: 0, change: 0 };
  private readonly branches: Array<{ child(index: number): Buffer }>;
  private readonly fingerprint: string;

  constructor(
    readonly name: string,
    nodeSeed: Uint8Array,
  ) {
    const seed = createHmac('sha512', Buffer.from(nodeSeed)).update(`intentsim bitcoin wallet:${name}`).digest();
    this.branches = [deriveHdNode(seed, "m/84'/1'/0'/0"), deriveHdNode(seed, "m/84'/1'/0'/1")];
    this.fingerprint = toHex(bvmKeyOf(deriveHdNode(seed, 'm').privateKey).keyPair.publicKey).slice(2, 10);
  }

  /** The next receive or change key. */
  deriveNext(change: boolean): BvmWalletKey {
    const index = change ? this.next.change++ : this.next.receive++;
    const key = bvmKeyOf(this.branches[change ? 1 : 0]!.child(index));
    const origin = `${this.fingerprint}/84h/1h/0h/${change ? 1 : 0}/${index}`;
    const walletKey: BvmWalletKey = { ...key, change, index, descriptor: withDescriptorChecksum(`wpkh([${origin}]${toHex(key.keyPair.publicKey)})`) };
    this.keys.push(walletKey);
    this.byScript.set(toHex(key.script), walletKey);
    return walletKey;
  }

  keyOf(script: Uint8Array): BvmWalletKey | undefined {
    return this.byScript.get(toHex(script));
  }

  /** Every unspent coin of the wallet (mempool outputs included), classified. */
  coins(ledger: BvmLedger): BvmWalletCoin[] {
    return this.keys.flatMap((key) =>
      ledger.coinsOf(key.script, true).map((coin) => {
        const confirmations = coinConfirmations(ledger, coin);
        const state = isImmatureCoinbase(ledger, coin) ? 'immature' : confirmations > 0 || this.isFromMe(ledger, coin.txid) ? 'trusted' : 'untrusted_pending';
        return { coin, key, confirmations, state } as const;
      }),
    );
  }

  /** The coins coin selection may spend: mature, unlocked, confirmed or the wallet's own unconfirmed change. */
  spendable(ledger: BvmLedger): Array<{ coin: BvmCoin; key: BvmWalletKey }> {
    const trusted = new Set(this.coins(ledger).filter((entry) => entry.state === 'trusted').map((entry) => `${entry.coin.txid}:${entry.coin.vout}`));
    return spendableCoinsOf(ledger, ...this.keys.map((key) => key.script))
      .filter((coin) => trusted.has(`${coin.txid}:${coin.vout}`))
      .map((coin) => ({ coin, key: this.keyOf(coin.script)! }));
  }

  /** Whether a transaction spends a coin of this wallet. */
  isFromMe(ledger: BvmLedger, txid: string): boolean {
    const record = ledger.transaction(txid);
    return record !== undefined && record.prevouts.some((prevout) => this.keyOf(prevout.script) !== undefined);
  }

  /** Whether a transaction pays or spends this wallet. */
  involves(record: BvmTransactionRecord): boolean {
    return record.prevouts.some((prevout) => this.keyOf(prevout.script)) || record.tx.outs.some((output) => this.keyOf(output.script));
  }
}
