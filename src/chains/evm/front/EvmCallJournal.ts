import type { LedgerJournal } from '../../../nodes/LedgerJournal';
import type { JsonRpcCall } from './evmCallKinds';
import { planEvmCallReplay, type EvmCallReplayPlan, type JournaledEvmCall } from './planEvmCallReplay';

/**
 * The calls users made that change an EVM chain (transactions, cheats), each written to the
 * database before the front forwards it (better-sqlite3 writes synchronously, so a SIGKILL right
 * after the node answered loses nothing), with the head block it was made at. At start, once the
 * block journal is mined again, `plan` says what to make again and where.
 */
export class EvmCallJournal {
  constructor(private readonly deps: { chainId: number; journal: LedgerJournal }) {}

  /** Journals the calls, in order, made at head block `head`. */
  record(calls: readonly JsonRpcCall[], head: number): void {
    for (const { method, params } of calls) this.deps.journal.append<JournaledEvmCall>(this.deps.chainId, params === undefined ? { head, method } : { head, method, params });
  }

  /** What to make again around the journaled blocks (the highest is `lastBlock`, their transactions `journaledTransactions`). */
  plan(lastBlock: number, journaledTransactions: ReadonlySet<string>): EvmCallReplayPlan {
    return planEvmCallReplay(this.deps.journal.entries<JournaledEvmCall>(this.deps.chainId), lastBlock, journaledTransactions);
  }
}
