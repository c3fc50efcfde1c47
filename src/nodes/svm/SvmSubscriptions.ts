import { address as toAddress, isAddress } from '@solana/kit';
import type { WebSocket } from 'ws';
import type { SvmBlock, SvmLedger, SvmTransactionRecord } from './SvmLedger';
import { encodeAccount, SvmRpcError, type AccountEncoding } from './svmRpcEncoding';

type Send = (message: unknown) => void;

interface Subscription {
  id: number;
  socket: WebSocket;
  send: Send;
  kind: 'signature' | 'slot' | 'account';
  /** signature or account address */
  key?: string;
  encoding?: AccountEncoding;
}

const UNSUBSCRIBE: Record<string, Subscription['kind']> = { signatureUnsubscribe: 'signature', slotUnsubscribe: 'slot', accountUnsubscribe: 'account' };

/**
 * The websocket subscriptions `Connection.confirmTransaction` and `@solana/kit` use:
 * `signatureSubscribe` (one notification, then the subscription ends), `slotSubscribe`,
 * `accountSubscribe`, and their unsubscribes.
 */
export class SvmSubscriptions {
  private nextId = 1;
  private readonly subscriptions = new Map<number, Subscription>();
  private readonly unsubscribeLedger: Array<() => void>;

  constructor(private readonly ledger: SvmLedger) {
    this.unsubscribeLedger = [ledger.onTransaction((record) => this.onTransaction(record)), ledger.onSlot((block) => this.onSlot(block))];
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
    if (method === 'accountSubscribe') {
      if (typeof params[0] !== 'string' || !isAddress(params[0])) throw new SvmRpcError(-32602, 'Invalid params: expected an address');
      const config = (params[1] ?? {}) as { encoding?: AccountEncoding };
      return { result: this.add({ socket, send, kind: 'account', key: params[0], encoding: config.encoding ?? 'base64' }).id };
    }
    return undefined;
  }

  private add(subscription: Omit<Subscription, 'id'>): Subscription {
    const added = { ...subscription, id: this.nextId++ };
    this.subscriptions.set(added.id, added);
    return added;
  }

  private onTransaction(record: SvmTransactionRecord): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind === 'signature' && subscription.key === record.signature) this.notifySignature(subscription, record);
      if (subscription.kind === 'account' && record.accountKeys.includes(toAddress(subscription.key!))) {
        const value = encodeAccount(this.ledger.account(toAddress(subscription.key!)), subscription.encoding, (mint) => this.ledger.account(mint));
        subscription.send({ jsonrpc: '2.0', method: 'accountNotification', params: { result: { context: { slot: record.slot }, value }, subscription: subscription.id } });
      }
    }
  }

  private notifySignature(subscription: Subscription, record: SvmTransactionRecord): void {
    if (!this.subscriptions.delete(subscription.id)) return;
    subscription.send({ jsonrpc: '2.0', method: 'signatureNotification', params: { result: { context: { slot: record.slot }, value: { err: record.err } }, subscription: subscription.id } });
  }

  private onSlot(block: SvmBlock): void {
    for (const subscription of this.subscriptions.values()) {
      if (subscription.kind !== 'slot') continue;
      subscription.send({ jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: block.parentSlot, root: block.slot, slot: block.slot }, subscription: subscription.id } });
    }
  }
}
