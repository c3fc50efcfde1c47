import { address, createNoopSigner, type Address, type Instruction, type TransactionSigner } from '@solana/kit';
import type { Currency } from '../../domain/chain/currency';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import { NoRouteError, TransactionTooLargeError } from '../../errors/quoteErrors';
import type { DepositStepParams } from '../ChainAdapter';
import { SVM_MAX_TRANSACTION_BYTES, SVM_AGGREGATOR_SOURCE, SVM_MARKET_TOKENS, SVM_STABLECOIN_SYMBOL, SVM_WRAPPED_NATIVE_SYMBOL, svmMarketMint, NATIVE_MINT, associatedTokenAccount } from '../../nodes/svm';
import { planSvmAggregatorRoute, type SvmRouteHop } from './planSvmAggregatorRoute';
import { aggregatorRouteInstructions } from './svmAggregatorInstructions';
import { memoInstruction, toStepInstruction, transferInstructions } from './svmInstructions';
import { SVM_COMPUTE_BUDGET_RESERVED_BYTES, SVM_QUOTE_TIME_MAX_TRANSACTION_BYTES, svmTransactionSize } from './svmTransactionSize';

export interface SvmDepositStepParams extends DepositStepParams {
  chainId: number;
  depository: string;
  stablecoinMint: string;
}

/**
 * The deposit step of an SVM-origin quote (SPEC §2.2, §4.6), in the shape the official SDK's SVM
 * adapter executes: one item whose `data` holds `instructions` (`keys`, `programId`, `data` as
 * bare hex) and `addressLookupTableAddresses`. The user is the fee payer and only signer; the
 * transaction pays `amount` into the depository (SOL to its account, a token to its associated
 * token account) and carries the request id in a Memo, which the chain's watcher reads.
 *
 * A token of the aggregator's market (`svmAggregatorMarket`) needs an origin swap: the route's hop
 * instructions (`planSvmAggregatorRoute`, shaped by `maxRouteLength` and
 * `includedOriginSwapSources`) come before the deposit. The real serialized v0 transaction is
 * built and measured: over 1172 bytes (1232 less the 60 reserved for compute-budget instructions
 * a wallet prepends at send time) the quote is refused with TRANSACTION_TOO_LARGE (SPEC §4.6).
 */
export async function buildSvmDepositSteps(params: SvmDepositStepParams): Promise<QuoteStep[]> {
  const user = createNoopSigner(address(params.user));
  const deposit = [
    ...(await transferInstructions({ from: user, to: address(params.depository), payer: user, currency: params.currency, amount: params.amount })),
    memoInstruction(params.requestId),
  ];
  const route = await originSwapOf(params, user);
  const instructions = [...(route?.instructions ?? []), ...deposit];
  // one item is one transaction (signed by the user alone); a wallet prepends compute-budget instructions
  const size = svmTransactionSize(user.address, instructions);
  if (size > SVM_QUOTE_TIME_MAX_TRANSACTION_BYTES) throw new TransactionTooLargeError(tooLargeMessage(size, route?.hops));
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

/** The market token `currency` is, if it is one (by its mint). */
function marketSymbolOf(currency: Currency): string | undefined {
  return SVM_MARKET_TOKENS.find((token) => svmMarketMint(token.symbol) === currency.address)?.symbol;
}

/** The aggregator route of a market token into the stablecoin, as instructions; none for SOL, the stablecoin and wrapped SOL. */
async function originSwapOf(params: SvmDepositStepParams, user: TransactionSigner): Promise<{ hops: SvmRouteHop[]; instructions: Instruction[] } | undefined> {
  const symbol = marketSymbolOf(params.currency);
  if (symbol === undefined) return undefined;
  const route = planSvmAggregatorRoute(symbol, SVM_STABLECOIN_SYMBOL, params.originSwap ?? {});
  if (!route.ok) throw new NoRouteError(`no origin swap for ${symbol} on chain ${params.chainId}: ${route.reason}`);
  const mintOf = (token: string): Address =>
    token === SVM_STABLECOIN_SYMBOL ? address(params.stablecoinMint) : token === SVM_WRAPPED_NATIVE_SYMBOL ? NATIVE_MINT : svmMarketMint(token);
  const userSource = await associatedTokenAccount(user.address, mintOf(symbol));
  return { hops: route.hops, instructions: aggregatorRouteInstructions({ user, userSource, hops: route.hops }) };
}

function tooLargeMessage(size: number, hops: readonly SvmRouteHop[] | undefined): string {
  const limit = `over the effective limit of ${SVM_QUOTE_TIME_MAX_TRANSACTION_BYTES} bytes (a Solana transaction is limited to ${SVM_MAX_TRANSACTION_BYTES} bytes and ${SVM_COMPUTE_BUDGET_RESERVED_BYTES} are reserved for the compute-budget instructions prepended at send time)`;
  if (!hops) return `the deposit transaction would be ${size} bytes, ${limit}`;
  const path = [hops[0]!.tokenIn, ...hops.map((hop) => hop.tokenOut)].join(' > ');
  // SPEC §4.6: maxRouteLength 4, then 3; a route already at 4 hops or fewer is told the next step down
  const shorter = hops.length > 4 ? 'maxRouteLength 4, then 3' : hops.length > 1 ? `maxRouteLength ${Math.min(3, hops.length - 1)}` : undefined;
  return `the origin swap's transaction through the aggregator would be ${size} bytes (${hops.length} hops: ${path}), ${limit}; retry with ${shorter ? `${shorter}, or ` : ''}includedOriginSwapSources ["${SVM_AGGREGATOR_SOURCE}"] for the aggregator's direct route`;
}
