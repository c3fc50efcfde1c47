/**
 * LiteSVM's transaction errors as the Solana JSON-RPC shows them (`meta.err`, `value.err`):
 * `"BlockhashNotFound"`, `{ InstructionError: [0, { Custom: 1 }] }`, `{ InstructionError: [0, "InsufficientFunds"] }`.
 */
export type SvmTransactionErrorJson = string | Record<string, unknown>;

// the order of LiteSVM's (and the Solana runtime's) enums: litesvm hands back their numbers
const TRANSACTION_ERRORS = 'AccountInUse,AccountLoadedTwice,AccountNotFound,ProgramAccountNotFound,InsufficientFundsForFee,InvalidAccountForFee,AlreadyProcessed,BlockhashNotFound,CallChainTooDeep,MissingSignatureForFee,InvalidAccountIndex,SignatureFailure,InvalidProgramForExecution,SanitizeFailure,ClusterMaintenance,AccountBorrowOutstanding,WouldExceedMaxBlockCostLimit,UnsupportedVersion,InvalidWritableAccount,WouldExceedMaxAccountCostLimit,WouldExceedAccountDataBlockLimit,TooManyAccountLocks,AddressLookupTableNotFound,InvalidAddressLookupTableOwner,InvalidAddressLookupTableData,InvalidAddressLookupTableIndex,InvalidRentPayingAccount,WouldExceedMaxVoteCostLimit,WouldExceedAccountDataTotalLimit,MaxLoadedAccountsDataSizeExceeded,ResanitizationNeeded,InvalidLoadedAccountsDataSizeLimit,UnbalancedTransaction,ProgramCacheHitMaxLimit,CommitCancelled'.split(',');
const INSTRUCTION_ERRORS = 'GenericError,InvalidArgument,InvalidInstructionData,InvalidAccountData,AccountDataTooSmall,InsufficientFunds,IncorrectProgramId,MissingRequiredSignature,AccountAlreadyInitialized,UninitializedAccount,UnbalancedInstruction,ModifiedProgramId,ExternalAccountLamportSpend,ExternalAccountDataModified,ReadonlyLamportChange,ReadonlyDataModified,DuplicateAccountIndex,ExecutableModified,RentEpochModified,NotEnoughAccountKeys,AccountDataSizeChanged,AccountNotExecutable,AccountBorrowFailed,AccountBorrowOutstanding,DuplicateAccountOutOfSync,InvalidError,ExecutableDataModified,ExecutableLamportChange,ExecutableAccountNotRentExempt,UnsupportedProgramId,CallDepth,MissingAccount,ReentrancyNotAllowed,MaxSeedLengthExceeded,InvalidSeeds,InvalidRealloc,ComputationalBudgetExceeded,PrivilegeEscalation,ProgramEnvironmentSetupFailure,ProgramFailedToComplete,ProgramFailedToCompile,Immutable,IncorrectAuthority,AccountNotRentExempt,InvalidAccountOwner,ArithmeticOverflow,UnsupportedSysvar,IllegalOwner,MaxAccountsDataAllocationsExceeded,MaxAccountsExceeded,MaxInstructionTraceLengthExceeded,BuiltinProgramsMustConsumeComputeUnits,BorshIoError'.split(',');

function instructionErrorJson(error: unknown): SvmTransactionErrorJson {
  if (typeof error === 'number') return INSTRUCTION_ERRORS[error] ?? `InstructionError${error}`;
  if (error && typeof error === 'object' && 'code' in error) return { Custom: Number((error as { code: number }).code) };
  if (error && typeof error === 'object' && 'msg' in error) return { BorshIoError: String((error as { msg: string }).msg) };
  return String(error);
}

/** The RPC form of what `FailedTransactionMetadata.err()` returns. */
export function svmTransactionErrorJson(error: unknown): SvmTransactionErrorJson {
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? `TransactionError${error}`;
  if (error && typeof error === 'object') {
    const name = error.constructor.name;
    if (name === 'TransactionErrorInstructionError') {
      const inner = error as { index: number; err(): unknown };
      return { InstructionError: [inner.index, instructionErrorJson(inner.err())] };
    }
    if (name === 'TransactionErrorDuplicateInstruction') return { DuplicateInstruction: (error as { index: number }).index };
    if (name === 'TransactionErrorInsufficientFundsForRent') return { InsufficientFundsForRent: { account_index: (error as { accountIndex: number }).accountIndex } };
    if (name === 'TransactionErrorProgramExecutionTemporarilyRestricted') {
      return { ProgramExecutionTemporarilyRestricted: { account_index: (error as { accountIndex: number }).accountIndex } };
    }
  }
  return String(error);
}

/** A transaction error in words, as validators word them in a failed preflight's message. */
export function describeSvmTransactionError(error: SvmTransactionErrorJson): string {
  if (error === 'AlreadyProcessed') return 'This transaction has already been processed';
  if (error === 'BlockhashNotFound') return 'Blockhash not found';
  if (error === 'InsufficientFundsForFee') return 'Insufficient funds for fee';
  if (error === 'AccountNotFound') return 'Attempt to debit an account but found no record of a prior credit.';
  if (typeof error === 'string') return error;
  if ('InsufficientFundsForRent' in error) return `Transaction results in an account (${(error.InsufficientFundsForRent as { account_index: number }).account_index}) with insufficient funds for rent`;
  if ('InstructionError' in error) {
    const [index, inner] = error.InstructionError as [number, SvmTransactionErrorJson];
    const what = typeof inner === 'string' ? inner : 'Custom' in inner ? `custom program error: 0x${Number(inner.Custom).toString(16)}` : JSON.stringify(inner);
    return `Error processing Instruction ${index}: ${what}`;
  }
  return JSON.stringify(error);
}
