import type { Address as EvmAddressType, Hex } from 'viem';
import type { IndexedDeposit } from '../../domain/chain/observedDeposit';
import type { ChainIndexStore } from '../../store/ChainIndexStore';
import type { ChainObservation } from '../ChainAdapter';
import { type SvmTransactionRecord, MEMO_PROGRAM, SYSTEM_PROGRAM } from '../../nodes/svm';
import type { SvmLedgerAccess } from './SvmLedgerAccess';

const REQUEST_ID = /^0x[0-9a-fA-F]{64}$/;

/** The request id a transaction's Memo carries, if it carries one. */
export function memoRequestId(record: SvmTransactionRecord): Hex | undefined {
  const { message } = record.decoded;
  for (const instruction of message.instructions) {
    if (record.accountKeys[instruction.programAddressIndex] !== MEMO_PROGRAM || !instruction.data) continue;
    const text = new TextDecoder().decode(new Uint8Array(instruction.data)).trim();
    if (REQUEST_ID.test(text)) return text.toLowerCase() as Hex;
  }
  return undefined;
}

/**
 * What a transaction paid to `owner`, read from the chain's own record of it: the owner's SOL
 * balance change and the changes of token accounts it owns. One entry per currency (a deposit's
 * `logIndex` numbers them in that order).
 */
export function creditsTo(record: SvmTransactionRecord, owner: string): Array<{ currency: string; amount: bigint }> {
  const credits: Array<{ currency: string; amount: bigint }> = [];
  const index = record.accountKeys.indexOf(owner as never);
  if (index >= 0) {
    const received = record.postBalances[index]! - record.preBalances[index]!;
    if (received > 0n) credits.push({ currency: SYSTEM_PROGRAM, amount: received });
  }
  for (const post of record.postTokenBalances) {
    if (post.owner !== owner) continue;
    const pre = record.preTokenBalances.find((balance) => balance.accountIndex === post.accountIndex);
    const received = BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? '0');
    if (received > 0n) credits.push({ currency: post.mint, amount: received });
  }
  return credits;
}

/**
 * Watches the SVM ledger for deposits: a successful transaction that credits the depository and
 * carries a request id in a Memo. Each is indexed (ChainIndexStore) and reported to the solver.
 * The ledger reports every transaction it mines (in-process as it is mined, a validator's as its
 * blocks are read); `index` reads one transaction again (after a listener was attached late);
 * `catchUp` re-reads what the ledger kept (at start: a ledger rebuilt from its journal holds
 * transactions a killed process mined but did not index).
 */
export class SvmDepositWatcher {
  private readonly detach: () => void;

  constructor(
    private readonly deps: {
      chainId: number;
      ledger: SvmLedgerAccess;
      depository: string;
      chainIndex: ChainIndexStore;
      emit: (observation: ChainObservation) => void;
    },
  ) {
    this.detach = deps.ledger.onTransaction((record) => void this.index(record));
  }

  stop(): void {
    this.detach();
  }

  /** Indexes every transaction the ledger holds (after a restart: what landed before the watcher heard it). */
  async catchUp(): Promise<void> {
    for (const record of await this.deps.ledger.keptTransactions()) await this.index(record);
  }

  /** Indexes one transaction the ledger kept (again: a deposit is indexed once). */
  async index(record: SvmTransactionRecord): Promise<void> {
    if (record.err !== null) return;
    const requestId = memoRequestId(record);
    if (!requestId) return;
    const block = await this.deps.ledger.block(record.slot);
    const depositor = record.accountKeys[0]!;
    creditsTo(record, this.deps.depository).forEach((credit, logIndex) => {
      const deposit: IndexedDeposit = {
        chainId: this.deps.chainId,
        txHash: record.signature as Hex,
        logIndex,
        requestId,
        depositor: depositor as EvmAddressType,
        currency: credit.currency as EvmAddressType,
        amount: credit.amount,
        blockNumber: Number(record.slot),
        blockHash: (block?.blockhash ?? '') as Hex,
        blockTimestamp: record.blockTime,
        state: 'canonical',
      };
      if (this.deps.chainIndex.insertDeposit(deposit)) this.deps.emit({ kind: 'deposit', deposit });
    });
  }
}
