import { keccak256, stringToHex, type Address, type Hex } from 'viem';
import type { VirtualClock } from '../../clock/VirtualClock';
import { LvmTransferRefusedError } from './lvmTransferRefusal';
import { FIRST_SUB_ACCOUNT_INDEX, LVM_TRANSFER_FEE, ROUTE_PERP, ROUTE_TYPES, USDC_ASSET, lvmAsset } from './lvmAssets';
import type { LvmAccount, LvmAccountControls, LvmLedgerChange, LvmTransaction, LvmTransferParams, LvmUpstreamAccount } from './lvmLedgerTypes';

export * from './lvmLedgerTypes';
export { LvmTransferRefusedError, type LvmRefusal } from './lvmTransferRefusal';

const ZERO_MEMO: Hex = `0x${'00'.repeat(32)}`;
const MEMO = /^0x[0-9a-fA-F]{64}$/;

interface LedgerState {
  accounts: Map<number, LvmAccount>;
  transactions: LvmTransaction[];
  nextMaster: number;
  nextSub: number;
  height: number;
}

/**
 * The perpetuals exchange's ledger, in process (no node exists to run): accounts with the indexes
 * the exchange assigns (master accounts counting up from 0, sub-accounts down from 2^48 − 2), each
 * owned by an EVM address, holding USDC collateral (the perpetuals route) and spot balances; API
 * keys scoped to one account; transfers that move balances for real (no overdraft, the exchange's
 * fee charged on top and credited to account 0). Every transfer executes in its own block, at the
 * virtual clock's time, and listeners hear of it at once. A recorder (`recordChangesWith`) is handed
 * every change first, so a journal can make the same ledger again.
 *
 * A fork (`LvmReadThrough`) adds accounts read from its upstream (`addUpstreamAccounts`) with their
 * index, owner, balances and nonce; an index the ledger already uses stays the local account's, new
 * local accounts skip the indexes read, and a revert keeps what was read (upstream state, not a
 * local change) as it was read.
 */
export class LvmLedger {
  private state: LedgerState = { accounts: new Map(), transactions: [], nextMaster: 0, nextSub: FIRST_SUB_ACCOUNT_INDEX, height: 0 };
  private readonly byHash = new Map<string, LvmTransaction>();
  private readonly apiKeys = new Map<string, number>();
  private readonly listeners = new Set<(transaction: LvmTransaction) => void>();
  private readonly snapshots = new Map<string, LedgerState>();
  private nextTimestampMs: number | undefined;
  private recorder: ((change: LvmLedgerChange) => void) | undefined;
  /** Accounts read from a fork's upstream, as read: a revert to a snapshot taken before a read puts them back so. */
  private readonly upstreamAccounts = new Map<number, LvmUpstreamAccount>();

  constructor(private readonly deps: { clock: VirtualClock }) {}

  /** Hands every change from now on to `recorder` before it takes effect (undefined: no one). */
  recordChangesWith(recorder: ((change: LvmLedgerChange) => void) | undefined): void {
    this.recorder = recorder;
  }

  createMasterAccount(l1Address: Address): LvmAccount {
    // (an index a fork read from its upstream is taken)
    while (this.state.accounts.has(this.state.nextMaster)) this.state.nextMaster++;
    this.recorder?.({ kind: 'masterAccount', index: this.state.nextMaster, l1Address });
    const index = this.state.nextMaster++;
    return this.addAccount({ index, l1Address, kind: 'master', masterIndex: index });
  }

  createSubAccount(masterIndex: number): LvmAccount {
    const master = this.requireAccount(masterIndex);
    if (master.kind !== 'master') throw new LvmTransferRefusedError('NOT_A_MASTER_ACCOUNT', `account ${masterIndex} is a sub-account; only a master account has sub-accounts`);
    while (this.state.accounts.has(this.state.nextSub)) this.state.nextSub--;
    this.recorder?.({ kind: 'subAccount', index: this.state.nextSub, masterIndex });
    const index = this.state.nextSub--;
    return this.addAccount({ index, l1Address: master.l1Address, kind: 'sub', masterIndex });
  }

  account(index: number): LvmAccount | undefined {
    return this.state.accounts.get(index);
  }

  /** The accounts an EVM address owns (compared case-insensitively), master accounts first. */
  accountsOf(l1Address: string): LvmAccount[] {
    const wanted = l1Address.toLowerCase();
    return [...this.state.accounts.values()].filter((account) => account.l1Address.toLowerCase() === wanted).sort(byKindThenIndex);
  }

  /**
   * Adds accounts a fork read from its upstream, with their balances and nonce; one whose index
   * the ledger already uses is left out (the local account wins). Returns those added.
   */
  addUpstreamAccounts(accounts: readonly LvmUpstreamAccount[]): LvmAccount[] {
    const fresh = accounts.filter((account) => !this.state.accounts.has(account.index));
    if (fresh.length === 0) return [];
    this.recorder?.({ kind: 'upstreamAccounts', accounts: fresh.map((account) => ({ ...account, spot: [...account.spot] })) });
    return fresh.map((account) => {
      this.upstreamAccounts.set(account.index, account);
      return this.addUpstreamAccount(account);
    });
  }

  /** Whether an account was read from a fork's upstream. */
  isFromUpstream(index: number): boolean {
    return this.upstreamAccounts.has(index);
  }

  /** Genesis funding: adds USDC collateral to an account. */
  fund(index: number, amount: bigint): void {
    const account = this.requireAccount(index);
    this.recorder?.({ kind: 'fund', index, amount });
    account.collateral += amount;
  }

  /** An asset's balance in a route (USDC in the perpetuals route is the collateral). */
  balance(index: number, assetIndex: number, routeType: number): bigint {
    const account = this.state.accounts.get(index);
    if (!account) return 0n;
    if (routeType === ROUTE_PERP) return assetIndex === USDC_ASSET.index ? account.collateral : 0n;
    return account.spot.get(assetIndex) ?? 0n;
  }

  /** Issues `key` for `index`: a transfer from the account needs it, and it opens no other account. */
  issueApiKey(index: number, key: string): void {
    this.requireAccount(index);
    this.recorder?.({ kind: 'apiKey', index, key });
    this.apiKeys.set(key, index);
  }

  /** The account a key belongs to. */
  accountOfApiKey(key: string): number | undefined {
    return this.apiKeys.get(key);
  }

  /** The account an API key opens: refused if the exchange never issued it or its account's key was revoked. */
  authorize(apiKey: string): number {
    const owner = this.apiKeys.get(apiKey);
    if (owner === undefined) throw new LvmTransferRefusedError('INVALID_API_KEY', 'the API key is not one the exchange issued');
    if (this.state.accounts.get(owner)?.apiKeyRevoked) throw new LvmTransferRefusedError('INVALID_API_KEY', `the API key of account ${owner} was revoked`);
    return owner;
  }

  /** A transfer sent with an API key: refused unless the key opens the sending account. */
  submitTransfer(apiKey: string, params: LvmTransferParams): LvmTransaction {
    const owner = this.authorize(apiKey);
    if (owner !== params.fromAccountIndex) {
      throw new LvmTransferRefusedError('API_KEY_NOT_FOR_ACCOUNT', `the API key belongs to account ${owner}, not to account ${params.fromAccountIndex}`);
    }
    return this.transfer(params);
  }

  /** Why the exchange would refuse `params` now, or undefined if it would execute it. */
  check(params: LvmTransferParams): LvmTransferRefusedError | undefined {
    try {
      this.validate(params);
      return undefined;
    } catch (error) {
      if (error instanceof LvmTransferRefusedError) return error;
      throw error;
    }
  }

  /** Executes a transfer in a block of its own (the caller has authorised it). */
  transfer(params: LvmTransferParams): LvmTransaction {
    const { from, to, nonce, memo } = this.validate(params);
    const treasury = this.requireAccount(0);
    const { amount, usdcFee } = params;
    const fields: Required<LvmTransferParams> = { ...params, memo, nonce };
    const hash = lvmTransferHash(fields);
    const executedAt = this.takeTimestamp();
    this.recorder?.({ kind: 'transfer', transfer: fields, hash, executedAt });
    this.debit(from, params.assetIndex, params.fromRouteType, amount);
    this.debit(from, USDC_ASSET.index, ROUTE_PERP, usdcFee);
    this.credit(to, params.assetIndex, params.toRouteType, amount);
    this.credit(treasury, USDC_ASSET.index, ROUTE_PERP, usdcFee);
    from.nonce = nonce;
    const height = ++this.state.height;
    const transaction: LvmTransaction = {
      ...fields,
      hash,
      type: 'transfer',
      blockHeight: height,
      blockHash: lvmBlockHash(height, hash),
      executedAt,
      sequenceIndex: this.state.transactions.length + 1,
    };
    this.state.transactions.push(transaction);
    this.byHash.set(hash, transaction);
    for (const listener of this.listeners) listener(transaction);
    return transaction;
  }

  /** A transaction by hash: bare or 0x-prefixed, any case. */
  transaction(hash: string): LvmTransaction | undefined {
    return this.byHash.get(hash.toLowerCase().replace(/^0x/, ''));
  }

  /** An account's transfers, sent or received, newest first. */
  transactionsOf(index: number): LvmTransaction[] {
    return this.state.transactions.filter((tx) => tx.fromAccountIndex === index || tx.toAccountIndex === index).reverse();
  }

  /** Every transaction the exchange executed, oldest first (index i holds sequence index i + 1). */
  transactions(): readonly LvmTransaction[] {
    return this.state.transactions;
  }

  get height(): number {
    return this.state.height;
  }

  onTransaction(listener: (transaction: LvmTransaction) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Empty blocks. */
  mine(blocks: number): void {
    this.recorder?.({ kind: 'mine', blocks });
    this.state.height += blocks;
  }

  /** The next transfer's time, unix seconds (afterwards the virtual clock again). */
  setNextBlockTimestamp(unixSeconds: number): void {
    this.pinNextTimestampMs(unixSeconds * 1000);
  }

  /** The next transfer's time, unix milliseconds (afterwards the virtual clock again). */
  pinNextTimestampMs(ms: number): void {
    this.recorder?.({ kind: 'nextTimestamp', ms });
    this.nextTimestampMs = ms;
  }

  /** The control plane's change to an account: pause it, revoke its key, set its collateral (or undo them). */
  controlAccount(index: number, controls: LvmAccountControls): LvmAccount {
    const account = this.requireAccount(index);
    this.recorder?.({ kind: 'accountControls', index, controls });
    if (controls.paused !== undefined) account.paused = controls.paused;
    if (controls.apiKeyRevoked !== undefined) account.apiKeyRevoked = controls.apiKeyRevoked;
    if (controls.collateral !== undefined) account.collateral = controls.collateral;
    return account;
  }

  snapshot(): string {
    const id = `0x${(this.snapshots.size + 1).toString(16)}`;
    this.recorder?.({ kind: 'snapshot', id });
    this.snapshots.set(id, cloneState(this.state));
    return id;
  }

  /** Back to a snapshot: accounts, balances, nonces and transactions as they were (keys stay issued). */
  revert(id: string): boolean {
    const saved = this.snapshots.get(id);
    if (!saved) return false;
    this.recorder?.({ kind: 'revert', id });
    this.state = cloneState(saved);
    for (const account of this.upstreamAccounts.values()) if (!this.state.accounts.has(account.index)) this.addUpstreamAccount(account);
    this.byHash.clear();
    for (const transaction of this.state.transactions) this.byHash.set(transaction.hash, transaction);
    return true;
  }

  private addAccount(init: Pick<LvmAccount, 'index' | 'l1Address' | 'kind' | 'masterIndex'>): LvmAccount {
    const account: LvmAccount = { ...init, collateral: 0n, spot: new Map(), nonce: 0, paused: false, apiKeyRevoked: false };
    this.state.accounts.set(account.index, account);
    return account;
  }

  private addUpstreamAccount(read: LvmUpstreamAccount): LvmAccount {
    const account = this.addAccount({ index: read.index, l1Address: read.l1Address, kind: read.kind, masterIndex: read.masterIndex });
    account.collateral = read.collateral;
    account.spot = new Map(read.spot);
    account.nonce = read.nonce;
    return account;
  }

  private requireAccount(index: number): LvmAccount {
    const account = this.state.accounts.get(index);
    if (!account) throw new LvmTransferRefusedError('UNKNOWN_ACCOUNT', `no account ${index} on the exchange`);
    return account;
  }

  private validate(params: LvmTransferParams): { from: LvmAccount; to: LvmAccount; nonce: number; memo: Hex } {
    const from = this.requireAccount(params.fromAccountIndex);
    const to = this.requireAccount(params.toAccountIndex);
    for (const account of [from, to]) {
      if (account.paused) throw new LvmTransferRefusedError('ACCOUNT_PAUSED', `account ${account.index} is paused: it sends and receives nothing until it is unpaused`);
    }
    const asset = lvmAsset(params.assetIndex);
    if (!asset) throw new LvmTransferRefusedError('UNKNOWN_ASSET', `no asset ${params.assetIndex} on the exchange (USDC is ${USDC_ASSET.index})`);
    for (const route of [params.fromRouteType, params.toRouteType]) {
      if (!ROUTE_TYPES.includes(route)) throw new LvmTransferRefusedError('INVALID_ROUTE', `route type ${route} is neither 0 (perpetuals) nor 1 (spot)`);
      if (!asset.routes.includes(route)) throw new LvmTransferRefusedError('INVALID_ROUTE', `${asset.symbol} cannot sit in route ${route}`);
    }
    if (params.amount <= 0n) throw new LvmTransferRefusedError('INVALID_AMOUNT', 'amount must be greater than zero');
    if (params.usdcFee < LVM_TRANSFER_FEE) throw new LvmTransferRefusedError('FEE_TOO_LOW', `usdcFee ${params.usdcFee} is below the exchange's transfer fee of ${LVM_TRANSFER_FEE}`);
    if (from.index === to.index && params.fromRouteType === params.toRouteType) {
      throw new LvmTransferRefusedError('SAME_ACCOUNT_AND_ROUTE', 'a transfer to the same account must move between routes');
    }
    const memo = params.memo ?? ZERO_MEMO;
    if (!MEMO.test(memo)) throw new LvmTransferRefusedError('INVALID_MEMO', 'memo must be 32 bytes as 0x-prefixed hex');
    const nonce = params.nonce ?? from.nonce + 1;
    if (!Number.isSafeInteger(nonce) || nonce <= from.nonce) throw new LvmTransferRefusedError('INVALID_NONCE', `nonce ${nonce} is not above account ${from.index}'s last nonce ${from.nonce}`);
    // the fee comes out of the collateral, beside the amount (the same balance when both are perpetuals USDC)
    const sameBalance = params.assetIndex === USDC_ASSET.index && params.fromRouteType === ROUTE_PERP;
    const needed = sameBalance ? params.amount + params.usdcFee : params.amount;
    const held = this.balance(from.index, params.assetIndex, params.fromRouteType);
    if (held < needed) throw new LvmTransferRefusedError('INSUFFICIENT_BALANCE', `account ${from.index} holds ${held} of ${asset.symbol} in route ${params.fromRouteType}; the transfer needs ${needed}`);
    if (!sameBalance && from.collateral < params.usdcFee) {
      throw new LvmTransferRefusedError('INSUFFICIENT_BALANCE', `account ${from.index}'s collateral ${from.collateral} does not cover the fee ${params.usdcFee}`);
    }
    return { from, to, nonce, memo: memo.toLowerCase() as Hex };
  }

  private debit(account: LvmAccount, assetIndex: number, routeType: number, amount: bigint): void {
    this.credit(account, assetIndex, routeType, -amount);
  }

  private credit(account: LvmAccount, assetIndex: number, routeType: number, amount: bigint): void {
    if (routeType === ROUTE_PERP) account.collateral += amount;
    else account.spot.set(assetIndex, (account.spot.get(assetIndex) ?? 0n) + amount);
  }

  private takeTimestamp(): number {
    const pinned = this.nextTimestampMs;
    this.nextTimestampMs = undefined;
    return pinned ?? this.deps.clock.now();
  }
}

/**
 * A transfer's hash: keccak-256 of its fields in a fixed order, as bare hex. The sender's account
 * and nonce are in it, so no two transfers share one; a signer knows it before sending.
 */
export function lvmTransferHash(fields: Required<LvmTransferParams>): string {
  const ordered = [fields.fromAccountIndex, fields.nonce, fields.toAccountIndex, fields.assetIndex, fields.fromRouteType, fields.toRouteType, String(fields.amount), String(fields.usdcFee), fields.memo.toLowerCase()];
  return keccak256(stringToHex(`lvm-transfer:${ordered.join(':')}`)).slice(2);
}

function byKindThenIndex(a: LvmAccount, b: LvmAccount): number {
  if (a.kind !== b.kind) return a.kind === 'master' ? -1 : 1;
  return a.kind === 'master' ? a.index - b.index : b.index - a.index;
}

/** A block's hash (the API's `commitment`), bare hex: of its height and its transfer's hash ('' for an empty block). */
export function lvmBlockHash(height: number, txHash: string): string {
  return keccak256(stringToHex(`lvm-block:${height}:${txHash}`)).slice(2);
}

function cloneState(state: LedgerState): LedgerState {
  return {
    accounts: new Map([...state.accounts].map(([index, account]) => [index, { ...account, spot: new Map(account.spot) }])),
    transactions: [...state.transactions],
    nextMaster: state.nextMaster,
    nextSub: state.nextSub,
    height: state.height,
  };
}
