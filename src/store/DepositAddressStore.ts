import type Database from 'better-sqlite3';
import type { Address, Hex } from 'viem';
import type { DepositAddressPayment } from '../domain/chain/observedDeposit';
import { preparedStatements } from './preparedStatements';

/** live: watched for a payment; paid: a payment was seen, the sweep is due; swept: moved into the depository. */
export type DepositAddressState = 'live' | 'paid' | 'swept';

export interface DepositAddressRow {
  chainId: number;
  /** Checksummed. */
  address: Address;
  requestId: Hex;
  state: DepositAddressState;
  payment: DepositAddressPayment | null;
  createdAt: number;
}

interface Row {
  chain_id: number;
  address: string;
  request_id: string;
  state: string;
  depositor: string | null;
  payment_tx_hash: string | null;
  payment_currency: string | null;
  created_at: number;
}

function toDepositAddress(row: Row): DepositAddressRow {
  return {
    chainId: row.chain_id,
    address: row.address as Address,
    requestId: row.request_id as Hex,
    state: row.state as DepositAddressState,
    payment:
      row.depositor && row.payment_tx_hash && row.payment_currency
        ? { depositor: row.depositor as Address, txHash: row.payment_tx_hash as Hex, currency: row.payment_currency as Address }
        : null,
    createdAt: row.created_at,
  };
}

/**
 * The deposit addresses handed out by quotes (SPEC §1.6, §4.1 `useDepositAddress`). Kept in
 * SQLite so a restarted simulator keeps watching the live ones and sweeps the paid ones.
 */
export class DepositAddressStore {
  private readonly prepare: ReturnType<typeof preparedStatements>;

  constructor(private readonly db: Database.Database) {
    this.prepare = preparedStatements(db);
  }

  /** Registers a new live deposit address for a request. */
  open(entry: { chainId: number; address: Address; requestId: Hex; createdAt: number }): void {
    this
      .prepare("INSERT INTO deposit_addresses (chain_id, address, request_id, state, created_at) VALUES (?, ?, ?, 'live', ?)")
      .run(entry.chainId, entry.address, entry.requestId.toLowerCase(), entry.createdAt);
  }

  /** Deposit addresses of a chain in one state. */
  inState(chainId: number, state: DepositAddressState): DepositAddressRow[] {
    return this
      .prepare<[number, string], Row>('SELECT * FROM deposit_addresses WHERE chain_id = ? AND state = ? ORDER BY created_at, address')
      .all(chainId, state)
      .map(toDepositAddress);
  }

  /** Live deposit addresses handed out for other chains (their address is the same on every EVM chain). */
  liveOnOtherChains(chainId: number): DepositAddressRow[] {
    return this
      .prepare<[number], Row>("SELECT * FROM deposit_addresses WHERE chain_id <> ? AND state = 'live' ORDER BY created_at, address")
      .all(chainId)
      .map(toDepositAddress);
  }

  /** Every address registered on `chainId` (any state), lower-cased: one read for a pass over many transactions. */
  addressesOn(chainId: number): Set<string> {
    return new Set(this.prepare<[number], { address: string }>('SELECT lower(address) AS address FROM deposit_addresses WHERE chain_id = ?').all(chainId).map((row) => row.address));
  }

  /** The deposit address registered on `chainId` at `address` (any letter case), if any. */
  at(chainId: number, address: string): DepositAddressRow | undefined {
    const row = this.prepare<[number, string], Row>('SELECT * FROM deposit_addresses WHERE chain_id = ? AND lower(address) = lower(?)').get(chainId, address);
    return row ? toDepositAddress(row) : undefined;
  }

  forRequest(requestId: string): DepositAddressRow | undefined {
    const row = this.prepare<[string], Row>('SELECT * FROM deposit_addresses WHERE request_id = ?').get(requestId.toLowerCase());
    return row ? toDepositAddress(row) : undefined;
  }

  /** Records the first payment into a live address; false when it was not live any more. */
  markPaid(chainId: number, address: Address, payment: DepositAddressPayment): boolean {
    const result = this
      .prepare(
        "UPDATE deposit_addresses SET state = 'paid', depositor = ?, payment_tx_hash = ?, payment_currency = ? WHERE chain_id = ? AND address = ? AND state = 'live'",
      )
      .run(payment.depositor, payment.txHash, payment.currency, chainId, address);
    return result.changes === 1;
  }

  markSwept(requestId: string): void {
    this.prepare("UPDATE deposit_addresses SET state = 'swept' WHERE request_id = ?").run(requestId.toLowerCase());
  }

  /** Hands a deposit address over to another request (SPEC §2.3 `supersededByRequestId`): payments into it are that request's from now on. */
  reassign(chainId: number, address: string, requestId: Hex): void {
    this.prepare('UPDATE deposit_addresses SET request_id = ? WHERE chain_id = ? AND lower(address) = lower(?)').run(requestId.toLowerCase(), chainId, address);
  }

  reset(): void {
    this.db.exec('DELETE FROM deposit_addresses');
  }
}
