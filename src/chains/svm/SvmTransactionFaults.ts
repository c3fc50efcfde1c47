import type { Address } from '@solana/kit';
import { type DecodedSvmTransaction, type SvmLedger, MEMO_PROGRAM } from '../../nodes/svm';
import type { SolverTxStore } from '../../store/SolverTxStore';
import type { DropTransactionTarget } from '../../domain/chain/dropTransactionTargets';
import type { TransactionFaultCapability } from '../capabilities/TransactionFaultCapability';

const REQUEST_ID = /^0x[0-9a-f]{64}$/;

/** The text of a transaction's Memo (lower case), read from the transaction itself. */
function memoText(transaction: DecodedSvmTransaction): string | undefined {
  const { message } = transaction;
  for (const instruction of message.instructions) {
    if (message.staticAccounts[instruction.programAddressIndex] !== MEMO_PROGRAM || !instruction.data) continue;
    return new TextDecoder().decode(new Uint8Array(instruction.data)).trim().toLowerCase();
  }
  return undefined;
}

/**
 * The fault "drop transactions" on the embedded Solana ledger: its RPC (and the simulator's own
 * sends) answer a picked transaction with its signature and never mine it (`SvmLedger.setDropFilter`).
 * `fill`: the solver's fills (the fill it signed and stored for the Memo's request; its refunds
 * pass); `deposit`: a transaction from anyone else whose Memo is a request id; `all`: every one.
 * A dropped transaction sent again while the fault lasts is dropped again; once it is lifted it
 * lands, as long as its blockhash is valid (the solver wallet's `transactionStatus` tells `expired`).
 */
export class SvmTransactionFaults implements TransactionFaultCapability {
  private target: DropTransactionTarget | null = null;

  constructor(
    private readonly deps: {
      /** The embedded ledger, once started. */
      inProcessLedger: () => SvmLedger;
      solver: () => Address;
      solverTransactions: SolverTxStore;
    },
  ) {}

  dropTransactions(target: DropTransactionTarget | null): void {
    this.target = target;
    this.deps.inProcessLedger().setDropFilter(target === null ? undefined : (transaction) => this.drops(transaction));
  }

  droppedTarget(): DropTransactionTarget | null {
    return this.target;
  }

  private drops(transaction: DecodedSvmTransaction): boolean {
    return this.target === 'all' || (this.target === 'fill' ? this.isFill(transaction) : this.target === 'deposit' && this.isDeposit(transaction));
  }

  private isFill(transaction: DecodedSvmTransaction): boolean {
    if (transaction.message.staticAccounts[0] !== this.deps.solver()) return false;
    const requestId = memoText(transaction);
    return requestId !== undefined && this.deps.solverTransactions.find(requestId, 'fill')?.txHash === transaction.signature;
  }

  /** A deposit carries its request id in a Memo (SPEC §4.6 steps); the solver's transactions are not deposits. */
  private isDeposit(transaction: DecodedSvmTransaction): boolean {
    return transaction.message.staticAccounts[0] !== this.deps.solver() && REQUEST_ID.test(memoText(transaction) ?? '');
  }
}
