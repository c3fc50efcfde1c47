import type Database from 'better-sqlite3';
import type { Hex } from 'viem';
import type { AppFeeCreditEntry } from '../domain/appFees/appFeeCredits';
import { appFeeClaimId, type AppFeeBalance, type AppFeeClaim, type AppFeeClaimStatus } from '../domain/appFees/appFeeClaim';

/** One recipient's share of a request's actual app fees, credited when the request succeeds. */
export type AppFeeCredit = AppFeeCreditEntry;

interface ClaimRow {
  id: string;
  seq: number;
  wallet: string;
  chain_id: number;
  currency: string;
  recipient: string;
  amount: string;
  status: string;
  tx_hash: string | null;
  created_at: number;
  updated_at: number;
}

function toClaim(row: ClaimRow): AppFeeClaim {
  return {
    id: row.id as Hex,
    seq: row.seq,
    wallet: row.wallet,
    chainId: row.chain_id,
    currency: row.currency,
    recipient: row.recipient,
    amount: BigInt(row.amount),
    status: row.status as AppFeeClaimStatus,
    txHash: row.tx_hash,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What debiting a claim found: debited, or why not. */
export type ClaimDebit = { ok: true; claim: AppFeeClaim } | { ok: false; reason: 'unknown' | 'already-signed' | 'insufficient'; claim?: AppFeeClaim; balance?: bigint };

/** Claims of these statuses have taken their amount out of the balance. */
const DEBITING = `status IN ('pending', 'success')`;

/**
 * SPEC §1.6 app fees: credits (one row per request and recipient, written in the request's
 * `success` transaction by the lifecycle), claims, and the balances they leave. Amounts are
 * decimal strings in SQLite and bigints here; wallets and currencies are stored as their chain
 * normalizes them (the callers normalize).
 */
export class AppFeeStore {
  private readonly creditStatement: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.creditStatement = db.prepare(
      `INSERT INTO app_fee_credits (request_id, position, wallet, chain_id, currency, amount, credited_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_id, position) DO NOTHING`,
    );
  }

  /** Credits each share once (a request credited again changes nothing). Call inside the status change's transaction. */
  credit(credits: readonly AppFeeCredit[], at: number): void {
    for (const credit of credits) {
      if (credit.amount <= 0n) continue;
      this.creditStatement.run(credit.requestId.toLowerCase(), credit.position, credit.wallet, credit.chainId, credit.currency, credit.amount.toString(), at);
    }
  }

  /** The credits of one request (tests, look-ups). */
  creditsOf(requestId: string): AppFeeCredit[] {
    const rows = this.db
      .prepare('SELECT request_id, position, wallet, chain_id, currency, amount FROM app_fee_credits WHERE request_id = ? ORDER BY position')
      .all(requestId.toLowerCase()) as Array<{ request_id: string; position: number; wallet: string; chain_id: number; currency: string; amount: string }>;
    return rows.map((row) => ({ requestId: row.request_id, position: row.position, wallet: row.wallet, chainId: row.chain_id, currency: row.currency, amount: BigInt(row.amount) }));
  }

  /** Every non-zero balance of a wallet: credits less what its signed claims took (sorted by chain, then currency). */
  balances(wallet: string): AppFeeBalance[] {
    const key = wallet;
    const totals = new Map<string, AppFeeBalance>();
    const add = (chainId: number, currency: string, amount: bigint) => {
      const id = `${chainId}:${currency}`;
      const entry = totals.get(id) ?? { chainId, currency, amount: 0n };
      entry.amount += amount;
      totals.set(id, entry);
    };
    const credits = this.db.prepare('SELECT chain_id, currency, amount FROM app_fee_credits WHERE wallet = ?').all(key) as Array<{ chain_id: number; currency: string; amount: string }>;
    for (const row of credits) add(row.chain_id, row.currency, BigInt(row.amount));
    const debits = this.db.prepare(`SELECT chain_id, currency, amount FROM app_fee_claims WHERE wallet = ? AND ${DEBITING}`).all(key) as Array<{ chain_id: number; currency: string; amount: string }>;
    for (const row of debits) add(row.chain_id, row.currency, -BigInt(row.amount));
    return [...totals.values()].filter((balance) => balance.amount > 0n).sort((a, b) => a.chainId - b.chainId || a.currency.localeCompare(b.currency));
  }

  balanceOf(wallet: string, chainId: number, currency: string): bigint {
    return this.balances(wallet).find((balance) => balance.chainId === chainId && balance.currency === currency)?.amount ?? 0n;
  }

  /** Records a claim whose steps were handed out (`unsigned`: it takes nothing yet). */
  createClaim(claim: Pick<AppFeeClaim, 'wallet' | 'chainId' | 'currency' | 'recipient' | 'amount'>, at: number): AppFeeClaim {
    return this.db.transaction(() => {
      const { next } = this.db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM app_fee_claims').get() as { next: number };
      const id = appFeeClaimId(next);
      this.db
        .prepare(
          `INSERT INTO app_fee_claims (id, seq, wallet, chain_id, currency, recipient, amount, status, tx_hash, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'unsigned', NULL, ?, ?)`,
        )
        .run(id, next, claim.wallet, claim.chainId, claim.currency, claim.recipient, claim.amount.toString(), at, at);
      return this.getClaim(id)!;
    })();
  }

  getClaim(id: string): AppFeeClaim | undefined {
    const row = this.db.prepare('SELECT * FROM app_fee_claims WHERE id = ?').get(id.toLowerCase()) as ClaimRow | undefined;
    return row ? toClaim(row) : undefined;
  }

  /**
   * Takes a signed claim's amount out of its balance, in one transaction: an unsigned claim
   * becomes `pending` only while the balance still covers it, so two claims of one balance
   * never both pay.
   */
  debitClaim(id: string, at: number): ClaimDebit {
    return this.db.transaction((): ClaimDebit => {
      const claim = this.getClaim(id);
      if (!claim) return { ok: false, reason: 'unknown' };
      if (claim.status !== 'unsigned') return { ok: false, reason: 'already-signed', claim };
      const balance = this.balanceOf(claim.wallet, claim.chainId, claim.currency);
      if (balance < claim.amount) return { ok: false, reason: 'insufficient', claim, balance };
      this.db.prepare(`UPDATE app_fee_claims SET status = 'pending', updated_at = ? WHERE id = ?`).run(at, claim.id);
      return { ok: true, claim: { ...claim, status: 'pending', updatedAt: at } };
    })();
  }

  /** Records the payment's transaction, and its outcome once mined (`failure` gives the amount back). */
  recordPayment(id: string, update: { txHash: string | null; status: 'pending' | 'success' | 'failure' }, at: number): void {
    this.db.prepare('UPDATE app_fee_claims SET tx_hash = ?, status = ?, updated_at = ? WHERE id = ?').run(update.txHash, update.status, at, id.toLowerCase());
  }

  /** Claims debited whose payment is not settled yet (oldest first). */
  pendingClaims(): AppFeeClaim[] {
    return (this.db.prepare(`SELECT * FROM app_fee_claims WHERE status = 'pending' ORDER BY seq`).all() as ClaimRow[]).map(toClaim);
  }

  /** A wallet's signed claims, newest first: up to `limit`, older than the claim numbered `beforeSeq`. */
  listClaims(wallet: string, limit: number, beforeSeq?: number): AppFeeClaim[] {
    const rows = this.db
      .prepare(`SELECT * FROM app_fee_claims WHERE wallet = ? AND status != 'unsigned' AND seq < ? ORDER BY seq DESC LIMIT ?`)
      .all(wallet, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit) as ClaimRow[];
    return rows.map(toClaim);
  }
}
