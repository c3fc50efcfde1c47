import type { Hex } from 'viem';

/**
 * The EIP-712 message an app fee recipient signs to claim (the `signature` step of
 * `POST /app-fees/{wallet}/claim`). Currency and recipient are strings, so a claim paid on a chain
 * of any kind is signed the same way; the domain's chain is the chain the claim pays on.
 */
export const APP_FEE_CLAIM_TYPES = {
  AppFeeClaim: [
    { name: 'claimId', type: 'bytes32' },
    { name: 'wallet', type: 'address' },
    { name: 'chainId', type: 'uint256' },
    { name: 'currency', type: 'string' },
    { name: 'recipient', type: 'string' },
    { name: 'amount', type: 'uint256' },
  ],
} as const;

export interface AppFeeClaimMessage {
  claimId: Hex;
  wallet: Hex;
  chainId: number;
  currency: string;
  recipient: string;
  amount: bigint;
}

/** The typed data to sign for one claim (viem's `signTypedData` / `verifyTypedData` shape). */
export function appFeeClaimTypedData(claim: AppFeeClaimMessage) {
  return {
    domain: { name: 'AppFeeClaim', version: '1', chainId: claim.chainId },
    types: APP_FEE_CLAIM_TYPES,
    primaryType: 'AppFeeClaim' as const,
    message: { claimId: claim.claimId, wallet: claim.wallet, chainId: BigInt(claim.chainId), currency: claim.currency, recipient: claim.recipient, amount: claim.amount },
  };
}
