/** One change of the SVM ledger as the journal keeps it (bytes in base64). */
export type SvmJournalEntry =
  /** The first entry: genesis time, and genesis's blockhash to tell a journal of another seed. */
  | { kind: 'genesis'; blockTime: number; blockhash: string }
  /** A slot with its one transaction's wire bytes (a failed transaction too: it was mined), whether it failed, and whether it ran without its signatures checked (a replay's impersonated deposit). */
  | { kind: 'slot'; slot: bigint; blockTime: number; transaction: string; failed: boolean; unverified?: true }
  /** `mine(count)`: empty slots from `firstSlot` on, their times as runs of [blockTime, count]. */
  | { kind: 'emptySlots'; firstSlot: bigint; blockTimes: Array<[number, number]> }
  /** An account written without a transaction (after genesis: a cheat). */
  | { kind: 'account'; address: string; lamports: bigint; programAddress: string; executable: boolean; space: bigint; data: string }
  /** Accounts read from a fork's upstream (as `account` entries hold them), and addresses it had none at: a restart needs no upstream for them. */
  | { kind: 'upstreamAccounts'; accounts: Array<Omit<Extract<SvmJournalEntry, { kind: 'account' }>, 'kind'>>; absent: string[] }
  /** From here on slots belong to fork `fork` (their blockhashes differ from the rolled-back ones'). */
  | { kind: 'fork'; fork: number }
  /**
   * A rollback (`SvmLedgerHistory`): the ledger is now the first `keep` entries after genesis (as
   * `effectiveSvmJournal` counts them), then `partial` (the part of a run of empty slots that
   * stays), then fork `fork`. Appended, never rewritten: the entries rolled back stay in the table.
   */
  | { kind: 'rollback'; keep: number; partial?: Extract<SvmJournalEntry, { kind: 'emptySlots' }>; fork: number };
