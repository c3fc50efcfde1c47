import { address, createNoopSigner } from '@solana/kit';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { DepositStepParams } from '../ChainAdapter';
import { SvmTransactionRejectedError, SVM_MAX_TRANSACTION_BYTES } from './SvmLedger';
import { memoInstruction, toStepInstruction, transferInstructions } from './svmInstructions';
import { svmTransactionSize } from './svmTransactionSize';

export interface SvmDepositStepParams extends DepositStepParams {
  chainId: number;
  depository: string;
}

/**
 * The deposit step of an SVM-origin quote (SPEC §2.2, §4.6), in the shape the official SDK's SVM
 * adapter executes: one item whose `data` holds `instructions` (`keys`, `programId`, `data` as
 * bare hex) and `addressLookupTableAddresses`. The user is the fee payer and only signer; the
 * transaction pays `amount` into the depository (SOL to its account, a token to its associated
 * token account) and carries the request id in a Memo, which the chain's watcher reads.
 */
export async function buildSvmDepositSteps(params: SvmDepositStepParams): Promise<QuoteStep[]> {
  const user = createNoopSigner(address(params.user));
  const instructions = [
    ...(await transferInstructions({ from: user, to: address(params.depository), payer: user, currency: params.currency, amount: params.amount })),
    memoInstruction(params.requestId),
  ];
  // one item is one transaction of at most 1232 bytes (it is signed by the user alone)
  const size = svmTransactionSize(user.address, instructions);
  if (size > SVM_MAX_TRANSACTION_BYTES) throw new SvmTransactionRejectedError(`the deposit transaction would be ${size} bytes (max: ${SVM_MAX_TRANSACTION_BYTES} bytes)`, -32602);
  return [
    {
      id: 'deposit',
      action: 'Confirm transaction in your wallet',
      description: `Depositing funds to the relayer to execute the request for ${params.currency.symbol}`,
      kind: 'transaction',
      items: [{ status: 'incomplete', data: { instructions: instructions.map(toStepInstruction), addressLookupTableAddresses: [] }, withCheck: true }],
    },
  ];
}
