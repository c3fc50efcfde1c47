import { stringify } from 'yaml';
import { z } from 'zod';
import { IntentsimError } from '../errors/IntentsimError';

/** A request record (SPEC §2.3) that cannot be turned into a scenario, and why. */
export class RecordNotReplayableError extends IntentsimError {}

const LOCAL_CHAINS = [1, 10, 137, 8453, 42161];
const ZERO = /^0x0{40}$/i;

/** The parts of a §2.3 record (as GET /requests/v3 answers it, from any deployment) a scenario is built from. */
const RecordSchema = z.object({
  id: z.string(),
  status: z.string(),
  depositAddress: z.object({ type: z.string().optional() }).passthrough().nullable().optional(),
  refundTo: z.string().nullable().optional(),
  requestType: z.string().optional(),
  data: z
    .object({
      failReason: z.string().nullable().optional(),
      refundFailReason: z.string().nullable().optional(),
      inTxs: z.array(z.object({ chainId: z.number() }).passthrough()).default([]),
      outTxs: z.array(z.object({ chainId: z.number(), type: z.string().optional() }).passthrough()).default([]),
      metadata: z
        .object({
          currencyIn: z.object({ currency: z.object({ chainId: z.number(), address: z.string(), symbol: z.string() }).passthrough(), amount: z.string() }).passthrough(),
          currencyOut: z.object({ currency: z.object({ chainId: z.number(), address: z.string(), symbol: z.string() }).passthrough(), amount: z.string().optional() }).passthrough(),
        })
        .passthrough(),
    })
    .passthrough(),
});

/** The local currency standing for a deployment's: native, the stablecoin, or the wrapped native. */
function localCurrency(currency: { address: string; symbol: string }): string {
  if (ZERO.test(currency.address) || currency.address === '0') return 'native';
  const symbol = currency.symbol.toUpperCase();
  if (['USDC', 'USDT', 'DAI', 'USDC.E', 'USDBC'].includes(symbol)) return 'USDC';
  if (['WETH', 'WMATIC', 'WPOL', 'WBNB'].includes(symbol)) return 'WETH';
  throw new RecordNotReplayableError(`currency ${currency.symbol} (${currency.address}) has no local stand-in: the simulator's chains have their native currency, USDC and WETH`);
}

type Step = Record<string, unknown>;

/**
 * `intentsim scenario from-record`: turns a request record from any deployment into a scenario that
 * takes the same path locally — its request type (from its currencies and chains), chains,
 * currencies, amount, deposit-address kind, status path and failReason — with expectations taken
 * from the record. Reasons the simulator makes happen for real get their real cause (an
 * underpayment, a wrong currency, a reorg, a late deposit, a drained solver, …); any other reason
 * travels the solver's scripted `fail` path. Pure: returns the YAML text.
 */
export function scenarioFromRecord(input: unknown): string {
  const unwrapped = typeof input === 'object' && input !== null && Array.isArray((input as { requests?: unknown }).requests) ? (input as { requests: unknown[] }).requests[0] : input;
  const parsed = RecordSchema.safeParse(unwrapped);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RecordNotReplayableError(`not a request record (SPEC §2.3): ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const record = parsed.data;
  const { currencyIn, currencyOut } = record.data.metadata;
  const origin = currencyIn.currency.chainId;
  const destination = currencyOut.currency.chainId;
  for (const chainId of [origin, destination]) {
    if (!LOCAL_CHAINS.includes(chainId)) throw new RecordNotReplayableError(`chain ${chainId} has no local chain yet (local chains: ${LOCAL_CHAINS.join(', ')})`);
  }
  const failReason = record.data.failReason && record.data.failReason !== 'N/A' ? record.data.failReason : undefined;
  const refundFailReason = record.data.refundFailReason && record.data.refundFailReason !== 'N/A' ? record.data.refundFailReason : undefined;
  const amount = currencyIn.amount;
  const deposit = record.depositAddress ? { useDepositAddress: true, ...(record.depositAddress.type === 'strict' ? { strict: true, refundTo: 'fresh:refunds' } : {}) } : {};
  const quote: Step = {
    as: 'replay',
    user: 0,
    originChainId: origin,
    destinationChainId: destination,
    originCurrency: localCurrency(currencyIn.currency),
    destinationCurrency: localCurrency(currencyOut.currency),
    amount,
    recipient: 'fresh:recipient',
    ...deposit,
  };
  const chains = new Set([origin, destination]);
  const steps: Step[] = [];
  const notes: string[] = [];
  const pay = (extra: Step = {}) => steps.push({ deposit: { request: 'replay', ...extra } });
  const rule = (action: Step, times?: number) => steps.push({ solverRule: { match: { request: 'replay' }, action, ...(times ? { times } : {}) } });

  steps.push({ quote });
  switch (record.status) {
    case 'waiting':
      break;
    case 'pending':
      rule({ kind: 'never' });
      pay();
      break;
    case 'submitted':
      rule({ kind: 'dropBroadcast' });
      pay();
      break;
    case 'success':
      pay();
      break;
    default: {
      // failure or refund: the failReason's cause
      const reason = failReason ?? 'UNKNOWN';
      if (refundFailReason === 'AMOUNT_TOO_LOW_TO_REFUND') {
        rule({ kind: 'fail', failReason: reason });
        pay({ amount: '1000' });
        notes.push('the deposit is made worth less than its refund gas (refundFailReason AMOUNT_TOO_LOW_TO_REFUND)');
        break;
      }
      switch (reason) {
        case 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL':
          pay({ amount: ((BigInt(amount) * 6n) / 10n).toString() });
          break;
        case 'INCORRECT_DEPOSIT_CURRENCY':
          pay(quote.originCurrency === 'native' ? { currency: 'USDC', amount: '30000000' } : { currency: 'native', amount: '10000000000000000' });
          break;
        case 'DEPOSIT_CHAIN_MISMATCH': {
          const other = LOCAL_CHAINS.find((id) => !chains.has(id) && [1, 8453, 42161].includes(id))!;
          chains.add(other);
          pay({ chainId: other });
          break;
        }
        case 'ORDER_EXPIRED':
          steps.push({ advanceClock: { seconds: 301 } });
          pay();
          break;
        case 'DEPOSIT_REORGED':
          rule({ kind: 'never' });
          pay();
          steps.push({ reorg: { chainId: origin, depth: 1 } });
          break;
        case 'SOLVER_BALANCE_TOO_LOW':
          rule({ kind: 'drain' }, 1);
          pay();
          break;
        case 'MANUAL_ADMIN_REFUND':
          rule({ kind: 'refund' });
          pay();
          break;
        case 'TRANSACTION_SUBMISSION_FAILED':
          rule({ kind: 'refuseBroadcast' });
          pay();
          break;
        default:
          rule({ kind: 'fail', failReason: reason });
          pay();
          notes.push(`${reason} travels the solver's scripted fail path (no local cause is built for it here)`);
      }
    }
  }
  const expectation: Step = {
    request: 'replay',
    status: record.status,
    failReason: record.status === 'failure' || record.status === 'refund' ? (failReason ?? 'UNKNOWN') : 'N/A',
    refundFailReason: refundFailReason ?? 'N/A',
  };
  if (record.requestType) expectation.record = { requestType: record.requestType };
  steps.push({ expect: expectation });

  const scenario = {
    description: [`Replays request ${record.id} (${record.requestType ?? 'request'}, ${record.status}${failReason ? ` ${failReason}` : ''}) locally.`, ...notes].join(' '),
    covers: [],
    chains: [...chains].sort((a, b) => a - b),
    steps,
  };
  return stringify(scenario, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'any' });
}
