import { stringify } from 'yaml';
import { z } from 'zod';
import { localChain, localCurrency, RecordNotReplayableError, wrongCurrencyDeposit, type LocalChain } from './recordStandIns';

export { RecordNotReplayableError } from './recordStandIns';

/** The parts of a §2.3 record (as GET /requests/v3 answers it, from any deployment) a scenario is built from. */
const RecordSchema = z.object({
  id: z.string(),
  status: z.string(),
  user: z.string().optional(),
  recipient: z.string().nullable().optional(),
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

type Step = Record<string, unknown>;

/**
 * Where the record's chains are forked (`scenario from-record --fork`, built by
 * forkedScenarioFromRecord): each chain's upstream URL and block (null: read as it is now), and
 * the upstream's solver on the destination (GET /chains `solverAddresses[0]`; none: unknown).
 */
export interface RecordForks {
  chains: Record<number, { url: string; block: number | null }>;
  destinationSolver: string | undefined;
  /**
   * Set where the origin's fork reads its upstream after the record's deposit and its kind gives
   * back what the deposit spent (ReplayForking.restoreDepositFunds: Bitcoin): the deposit's hash
   * upstream, for a `restoreDepositFunds` step before the quote.
   */
  restoreDepositFunds?: { depositTxHash: string };
}

/** What the replay is built from: the request's chains (the origin's kind facts with it), and the steps written so far. */
interface Replay {
  origin: LocalChain;
  chains: Set<number>;
  steps: Step[];
  notes: string[];
  /** Set when the record's chains are forked: the state that caused the outcome is there. */
  forks: RecordForks | undefined;
  /** Pays the deposit (then, on a Bitcoin origin, mines the block that confirms it unless `confirm` is false). */
  pay(extra?: Step, confirm?: boolean): void;
  rule(action: Step, times?: number): void;
}

/**
 * `intentsim scenario from-record`: turns a request record from any deployment into a scenario that
 * takes the same path locally — its request type (from its currencies and chains), chains (EVM,
 * Solana, Bitcoin, Lighter), currencies, amount, deposit-address kind, status path and failReason
 * — with expectations taken from the record. The deposit is paid from the origin chain's user
 * wallet (its account 0); on Bitcoin a block is mined to confirm it. Reasons the simulator makes
 * happen for real get their real cause (an underpayment, a wrong currency, a reorg, a late deposit,
 * a drained solver, …); any other reason travels the solver's scripted `fail` path. With `forks`
 * (`--fork`, forkedScenarioFromRecord) the file forks the record's chains there (`fork:`), quotes
 * with the record's user, recipient and currencies, deposits as the user (impersonated) and puts
 * the solver where the upstream's stood instead of draining it (docs/forking.md). Pure: returns
 * the YAML text.
 */
export function scenarioFromRecord(input: unknown, options: { forks?: RecordForks } = {}): string {
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
  const originChain = localChain(origin);
  const destinationChain = localChain(destination);
  const failReason = record.data.failReason && record.data.failReason !== 'N/A' ? record.data.failReason : undefined;
  const refundFailReason = record.data.refundFailReason && record.data.refundFailReason !== 'N/A' ? record.data.refundFailReason : undefined;
  const notes: string[] = [];
  const { forks } = options;
  if (forks && !record.user) throw new RecordNotReplayableError(`the record of ${record.id} names no user: a forked replay deposits as the record's user`);
  const quote: Step = forks
    ? forkedQuote(record as typeof record & { user: string }, notes)
    : {
        as: 'replay',
        user: originChain.facts.scenarioUser,
        originChainId: origin,
        destinationChainId: destination,
        originCurrency: localCurrency(originChain.facts, currencyIn.currency),
        destinationCurrency: localCurrency(destinationChain.facts, currencyOut.currency),
        amount: currencyIn.amount,
        recipient: 'fresh:recipient',
        ...depositAddressFields(record.depositAddress, originChain, notes),
      };
  const chains = new Set([origin, destination]);
  const minedOnRequest = [...chains].filter((chainId) => localChain(chainId).facts.minesOnRequest);
  // a chain that mines when asked (Bitcoin) mines only on the scenario's `mine` steps: the runner then waits for no confirmation on it
  const steps: Step[] = [...minedOnRequest.map((chainId) => ({ automine: { chainId, enabled: false } }))];
  if (forks?.restoreDepositFunds) steps.push({ restoreDepositFunds: { chainId: origin, user: record.user!, depositTxHash: forks.restoreDepositFunds.depositTxHash } });
  steps.push({ quote });
  if (forks && minedOnRequest.length > 0) {
    notes.push(`Chain ${minedOnRequest.join(', ')} mines on this file's mine steps (a scenario's clock stands still between steps), where intentsim replay's mines a block every second.`);
  }
  if (forks) steps.push(...solverStandIn(forks, destination, currencyOut.currency.address, destinationChain, notes));
  const replay: Replay = {
    origin: originChain,
    chains,
    steps,
    notes,
    forks,
    pay(extra = {}, confirm = true) {
      steps.push({ deposit: { request: 'replay', ...extra, ...(forks ? { impersonate: true } : {}) } });
      if (confirm && originChain.facts.minesOnRequest && (extra.chainId === undefined || extra.chainId === origin)) steps.push({ mine: { chainId: origin } });
    },
    rule(action, times) {
      steps.push({ solverRule: { match: { request: 'replay' }, action, ...(times ? { times } : {}) } });
    },
  };

  switch (record.status) {
    case 'waiting':
      break;
    case 'pending':
      if (forks && originChain.facts.minesOnRequest) throw new RecordNotReplayableError(`chain ${origin}: a pending ${originChain.displayName} deposit cannot be replayed on a fork: the deposit made again as the record's user is mined at once`);
      // where blocks come when asked (Bitcoin) a deposit in the mempool is pending until a block confirms it
      if (!originChain.facts.minesOnRequest) replay.rule({ kind: 'never' });
      replay.pay({}, false);
      break;
    case 'submitted':
      replay.rule({ kind: 'dropBroadcast' });
      replay.pay();
      break;
    case 'success':
      replay.pay();
      break;
    default:
      failureCause(replay, quote, failReason ?? 'UNKNOWN', refundFailReason);
  }
  // a block on each chain that mines when asked (Bitcoin) confirms what the solver sent there (a fill, a refund)
  if (record.status !== 'waiting' && record.status !== 'pending') for (const chainId of minedOnRequest) steps.push({ mine: { chainId } });
  const expectation: Step = {
    request: 'replay',
    status: record.status,
    failReason: record.status === 'failure' || record.status === 'refund' ? (failReason ?? 'UNKNOWN') : 'N/A',
    refundFailReason: refundFailReason ?? 'N/A',
  };
  if (record.requestType) expectation.record = { requestType: record.requestType };
  steps.push({ expect: expectation });

  const scenario = {
    description: [`Replays request ${record.id} (${record.requestType ?? 'request'}, ${record.status}${failReason ? ` ${failReason}` : ''}) ${forks ? 'on forks of its chains where it happened' : 'locally'}.`, ...notes].join(' '),
    covers: [],
    chains: [...replay.chains].sort((a, b) => a - b),
    ...(forks ? { fork: forkSection(forks) } : {}),
    steps,
  };
  return stringify(scenario, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'any' });
}

/**
 * The quote of a forked replay, as `intentsim replay` makes it: the record's user and recipient,
 * its currencies by address (the forked chains hold them), its amount; a deposit address is paid
 * through the quote's steps.
 */
function forkedQuote(record: z.infer<typeof RecordSchema> & { user: string }, notes: string[]): Step {
  const { currencyIn, currencyOut } = record.data.metadata;
  if (record.depositAddress) notes.push("The record paid a deposit address; the forked replay pays through the quote's steps, as the record's user.");
  return {
    as: 'replay',
    user: record.user,
    originChainId: currencyIn.currency.chainId,
    destinationChainId: currencyOut.currency.chainId,
    originCurrency: currencyIn.currency.address,
    destinationCurrency: currencyOut.currency.address,
    amount: currencyIn.amount,
    recipient: record.recipient ?? record.user,
  };
}

/** The local solver put where the upstream's stood on the destination, at its fork block or, where the kind pins none, as it stands now (nothing when the upstream's solver is unknown). */
function solverStandIn(forks: RecordForks, destination: number, currency: string, destinationChain: LocalChain, notes: string[]): Step[] {
  const fork = forks.chains[destination];
  if (!forks.destinationSolver || !fork) {
    notes.push(`The upstream's solver on chain ${destination} is not known here (no --from, or no solverAddresses): the local solver keeps its own balances.`);
    return [];
  }
  const native = destinationChain.facts.recordNativeAddress.test(currency);
  return [{ solverAsUpstream: { chainId: destination, upstreamSolver: forks.destinationSolver, currency: native ? 'native' : currency } }];
}

/** The scenario's `fork:` section: each chain's upstream and (where pinned) block. */
function forkSection(forks: RecordForks): Record<string, { url: string; block?: number }> {
  return Object.fromEntries(Object.entries(forks.chains).map(([id, fork]) => [id, { url: fork.url, ...(fork.block === null ? {} : { block: fork.block }) }]));
}

/** The quote's deposit-address fields; a chain without deposit addresses (Solana) is paid through the quote's steps. */
function depositAddressFields(depositAddress: { type?: string | undefined } | null | undefined, origin: LocalChain, notes: string[]): Step {
  if (!depositAddress) return {};
  if (!origin.facts.hasDepositAddresses) {
    notes.push(`The record paid a deposit address; the local ${origin.displayName} chain has none, so the deposit is paid through the quote's steps.`);
    return {};
  }
  return { useDepositAddress: true, ...(depositAddress.type === 'strict' ? { strict: true, refundTo: 'fresh:refunds' } : {}) };
}

/** The steps that make a failure or refund happen for `reason`: its real cause where the simulator has one on the origin's kind, else the solver's scripted `fail`. */
function failureCause(replay: Replay, quote: Step, reason: string, refundFailReason: string | undefined): void {
  const { facts } = replay.origin;
  if (refundFailReason === 'AMOUNT_TOO_LOW_TO_REFUND') {
    replay.rule({ kind: 'fail', failReason: reason });
    replay.pay({ amount: '1000' });
    replay.notes.push('the deposit is made worth less than its refund gas (refundFailReason AMOUNT_TOO_LOW_TO_REFUND)');
    return;
  }
  const scripted = () => {
    replay.rule({ kind: 'fail', failReason: reason });
    replay.pay();
    replay.notes.push(`${reason} travels the solver's scripted fail path (no local cause is built for it here)`);
  };
  switch (reason) {
    case 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL':
      return replay.pay({ amount: ((BigInt(String(quote.amount)) * 6n) / 10n).toString() });
    case 'INCORRECT_DEPOSIT_CURRENCY': {
      // a forked replay quotes by address: the native currency's is `native` here
      const quoted = facts.recordNativeAddress.test(String(quote.originCurrency)) ? 'native' : String(quote.originCurrency);
      const wrong = wrongCurrencyDeposit(facts, quoted);
      return wrong ? replay.pay(wrong) : scripted();
    }
    case 'DEPOSIT_CHAIN_MISMATCH': {
      const other = facts.wrongChainDepositChains.find((id) => !replay.chains.has(id));
      if (other === undefined) return scripted();
      replay.chains.add(other);
      return replay.pay({ chainId: other });
    }
    case 'ORDER_EXPIRED':
      replay.steps.push({ advanceClock: { seconds: 301 } });
      return replay.pay();
    case 'DOUBLE_SPEND':
      if (!facts.doubleSpendsDeposits) return scripted();
      if (replay.forks) {
        throw new RecordNotReplayableError(`chain ${replay.origin.id}: a ${replay.origin.displayName} deposit spent again (DOUBLE_SPEND) cannot be replayed on a fork: the deposit made again as the record's user is mined at once, and spending its inputs again needs the user's key`);
      }
      // the deposit waits in the mempool; its sender spends the same inputs again with a higher fee (replace-by-fee)
      replay.pay({}, false);
      replay.steps.push({ doubleSpend: { request: 'replay' } });
      replay.notes.push('the deposit is replaced by fee in the mempool by a conflicting spend of its inputs');
      return;
    case 'DEPOSIT_REORGED':
      if (facts.depositReorg === 'mempool') throw new RecordNotReplayableError(`chain ${replay.origin.id}: a ${replay.origin.displayName} deposit reorged out (DEPOSIT_REORGED): a reorg returns it to the mempool (Bitcoin Core's semantics) and it is mined again; one gone for good was spent again, a DOUBLE_SPEND record`);
      if (facts.depositReorg === 'none') return scripted();
      replay.rule({ kind: 'never' });
      replay.pay();
      replay.steps.push({ reorg: { chainId: replay.origin.id, depth: 1 } });
      return;
    case 'SOLVER_BALANCE_TOO_LOW':
      // forked with the upstream's solver known, the solver stands where it stood (solverAsUpstream): the state is the cause
      if (!replay.forks?.destinationSolver) replay.rule({ kind: 'drain' }, 1);
      return replay.pay();
    case 'MANUAL_ADMIN_REFUND':
      replay.rule({ kind: 'refund' });
      return replay.pay();
    case 'TRANSACTION_SUBMISSION_FAILED':
      replay.rule({ kind: 'refuseBroadcast' });
      return replay.pay();
    default:
      return scripted();
  }
}
