/** Which transactions the fault "drop transactions" drops: the solver's fills, users' deposits, or every one. */
export const DROP_TRANSACTION_TARGETS = ['fill', 'deposit', 'all'] as const;
export type DropTransactionTarget = (typeof DROP_TRANSACTION_TARGETS)[number];

/** A chain's fault "drop transactions", as `GET /admin/faults` lists it. */
export interface DropTransactionsFault {
  chainId: number;
  kind: 'drop-transactions';
  target: DropTransactionTarget;
}
