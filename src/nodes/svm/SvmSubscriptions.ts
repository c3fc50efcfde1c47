import { address as toAddress, isAddress, type Address } from '@solana/kit';
import type { WebSocket } from 'ws';
import type { SvmBlock, SvmLedger, SvmTransactionRecord } from './SvmLedger';
import { encodeAccount, SvmRpcError, type AccountEncoding } from './svmRpcEncoding';
import { accountFiltersParam, type SvmAccountFilter } from './svmProgramAccountMethods';
import { parsedAccountKeys } from './svmParsedTransaction';
import { configParam } from './svmRpcParams';

type Send = (message: unknown) => void;
type Kind = 'signature' | 'slot' | 'account' | 'logs' | 'program';

interface Subscription {
  id: number;
  socket: WebSocket;
  send: Send;
  kind: Kind;
  /** signature, account address or program id */
  key?: string;
  encoding?: AccountEncoding;
  /** logsSubscribe `{ mentions: [address] }` (absent: every transaction) */
  mentions?: Address;
  /** programSubscribe `filters` */
  filters?: SvmAccountFilter[];
}

const UNSUBSCRIBE: Record<string, Kind> = { signatureUnsubscribe: 'signature', slotUnsubscribe: 'slot', accountUnsubscribe: 'account', logsUnsubscribe: 'logs', programUnsubscribe: 'program' };
const NOTIFICATION: Record<Kind, string> = { signature: 'signatureNotification', slot: 'slotNotification', account: 'accountNotification', logs: 'logsNotification', program: 'programNotification' };

/**
 * The websocket subscriptions `Connection` and `@solana/kit` use: `signatureSubscribe` (one
 * notification, then the subscription ends; what `confirmTransaction` waits on), `slotSubscribe`,
 * `accountSubscribe`, `logsSubscribe` (`all`, `allWithVotes`, `{ mentions: [address] }`: what
 * `Connection.onLogs` hears), `programSubscribe` (the accounts of a program a transaction or a cheat
 * wrote, with `filters`: `Connection.onProgramAccountChange`), and their unsubscribes.
 */
export class SvmSubscriptions {
  private nextId = 1;
  private readonly subscriptions = new Map<number, Subscription>();
  private readonly unsubscribeLedger: Array<() => void>;

  constructor(private readonly ledger: SvmLedger) {
    this.unsubscribeLedger = [
      ledger.onTransaction((record) => this.onTransaction(record)),
      ledger.onSlot((block) => this.onSlot(block)),
      ledger.onAccountWritten((written) => this.onAccountsWritten([written], ledger.currentSlot())),
    ];
  }

  close(): void {
    for (const unsubscribe of this.unsubscribeLedger) unsubscribe();
    this.subscriptions.clear();
  }

  dropSocket(socket: WebSocket): void {
    for (const [id, subscription] of this.subscriptions) if (subscription.socket === socket) this.subscriptions.delete(id);
  }

  /** Answers a subscription method (`{ result }`), or undefined when `method` is not one (an ordinary RPC call). */
  handle(socket: WebSocket, method: string, params: unknown[], send: Send): { result: unknown } | undefined {
    if (method in UNSUBSCRIBE) {
      const id = Number(params[0]);
      const subscription = this.subscriptions.get(id);
      if (!subscription || subscription.socket !== socket || subscription.kind !== UNSUBSCRIBE[method]) throw new SvmRpcError(-32602, 'Invalid subscription id.');
      this.subscriptions.delete(id);
      return { result: true };
    }
    if (method === 'signatureSubscribe') {
      if (typeof params[0] !== 'string') throw new SvmRpcError(-32602, 'Invalid params: expected a signature');
      const subscription = this.add({ socket, send, kind: 'signature', key: params[0] });
      // already processed: notify once the subscription id has been answered
      const record = this.ledger.transaction(params[0]);
      if (record) setImmediate(() => this.notifySignature(subscription, record));
      return { result: subscription.id };
    }
    if (method === 'slotSubscribe') return { result: this.add({ socket, send, kind: 'slot' }).id };
    if (method === 'accountSubscribe' || method === 'programSubscribe') {
      if (typeof params[0] !== 'string' || !isAddress(params[0])) throw new SvmRpcError(-32602, 'Invalid params: expected an address');
      const config = configParam(params[1]);
      const encoding = (config.encoding as AccountEncoding | undefined) ?? 'base64';
      if (method === 'accountSubscribe') return { result: this.add({ socket, send, kind: 'account', key: params[0], encoding }).id };
      return { result: this.add({ socket, send, kind: 'program', key: params[0], encoding, filters: accountFiltersParam(config.filters) }).id };
    }
    if (method === 'logsSubscribe') return { result: this.add({ socket, send, kind: 'logs', ...logsFilter(params[0]) }).id };
    return undefined;
  }

  private add(subscription: Omit<Subscription, 'id'>): Subscription {
    const added = { ...subscription, id: this.nextId++ };
    this.subscriptions.set(added.id, added);
    return added;
  }

  private notify(subscription: Subscription, slot: bigint, value: unknown): void {
    subscription.send({ jsonrpc: '2.0', method: NOTIFICATION[subscription.kind], params: { result: { context: { slot }, value }, subscription: subscription.id } });
  }

  private onTransaction(record: SvmTransactionRecord): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'signature' && subscription.key === record.signature) this.notifySignature(subscription, record);
      if (subscription.kind === 'logs' && (!subscription.mentions || record.accountKeys.includes(subscription.mentions))) {
        this.notify(subscription, record.slot, { signature: record.signature, err: record.err, logs: record.logs });
      }
    }
    if (![...this.subscriptions.values()].some((subscription) => subscription.kind === 'account' || subscription.kind === 'program')) return;
    const written = parsedAccountKeys(record).filter((key) => key.writable).map((key) => key.pubkey);
    this.onAccountsWritten(record.err === null ? written : written.slice(0, 1), record.slot);
  }

  /** Account and program subscribers of accounts a transaction or a cheat wrote. */
  private onAccountsWritten(written: readonly Address[], slot: bigint): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'account' && written.includes(toAddress(subscription.key!))) {
        this.notify(subscription, slot, encodeAccount(this.ledger.account(toAddress(subscription.key!)), subscription.encoding, (mint) => this.ledger.account(mint)));
      }
      if (subscription.kind !== 'program') continue;
      for (const key of written) {
        const account = this.ledger.account(key);
        if (!account.exists || account.programAddress !== subscription.key || !subscription.filters!.every((filter) => filter(account))) continue;
        this.notify(subscription, slot, { pubkey: key, account: encodeAccount(account, subscription.encoding, (mint) => this.ledger.account(mint)) });
      }
    }
  }

  private notifySignature(subscription: Subscription, record: SvmTransactionRecord): void {
    if (!this.subscriptions.delete(subscription.id)) return;
    this.notify(subscription, record.slot, { err: record.err });
  }

  private onSlot(block: SvmBlock): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind !== 'slot') continue;
      subscription.send({ jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: block.parentSlot, root: block.slot, slot: block.slot }, subscription: subscription.id } });
    }
  }
}

/** `logsSubscribe`'s filter: `"all"`, `"allWithVotes"` (no vote transactions here: the same) or `{ mentions: [one address] }`. */
function logsFilter(filter: unknown): { mentions?: Address } {
  if (filter === 'all' || filter === 'allWithVotes') return {};
  const mentions = configParam(filter).mentions;
  if (!Array.isArray(mentions) || mentions.length !== 1) throw new SvmRpcError(-32602, 'Invalid Request: Only 1 address supported');
  if (typeof mentions[0] !== 'string' || !isAddress(mentions[0])) throw new SvmRpcError(-32602, 'Invalid params: mentions must name an address');
  return { mentions: toAddress(mentions[0]) };
}
