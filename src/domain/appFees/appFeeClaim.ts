import { keccak256, stringToHex, type Hex } from 'viem';

/**
 * SPEC §1.6 app fees, `GET /app-fees/{wallet}/claims`: where a claim is.
 * - `unsigned`: steps handed out by `POST /app-fees/{wallet}/claim`, not signed yet (not listed);
 * - `pending`: signed, the balance debited, the payment sent on chain;
 * - `success` / `failure`: the payment's receipt (a failed payment gives the balance back).
 */
export const APP_FEE_CLAIM_STATUSES = ['unsigned', 'pending', 'success', 'failure'] as const;
export type AppFeeClaimStatus = (typeof APP_FEE_CLAIM_STATUSES)[number];

export interface AppFeeClaim {
  id: Hex;
  seq: number;
  /** The app fee recipient whose balance pays (as its chain normalizes addresses). */
  wallet: string;
  chainId: number;
  /** The currency's address as the chain names it. */
  currency: string;
  /** Who the claim pays on chain. */
  recipient: string;
  amount: bigint;
  status: AppFeeClaimStatus;
  txHash: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A claim's id: 32 bytes derived from its sequence number (the payment's on-chain id too). */
export function appFeeClaimId(seq: number): Hex {
  return keccak256(stringToHex(`intentsim app fee claim ${seq}`));
}

/** One app fee balance: what a wallet may claim of one currency on one chain. */
export interface AppFeeBalance {
  chainId: number;
  currency: string;
  amount: bigint;
}
