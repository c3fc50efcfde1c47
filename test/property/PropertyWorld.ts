import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestRecord } from '../../src/domain/request/requestRecord';
import { reportedFailReason, reportedRefundFailReason, type RequestStatus } from '../../src/domain/request/requestStatus';
import { canTransition } from '../../src/domain/request/transitions';
import type { CommittedStatusChange } from '../../src/events/RequestEventBus';
import type { ExpectationMismatch } from '../../src/scenario/checkExpectation';
import { executeScenarioStep } from '../../src/scenario/executeScenarioStep';
import { SCENARIO_CLOCK_START_MS } from '../../src/scenario/runScenario';
import { resolveAddress, resolveCurrency, type NamedQuote, type ScenarioRunState } from '../../src/scenario/scenarioRunState';
import type { ReceivedWebhook } from '../../src/scenario/ScenarioWebhookReceiver';
import { STEP_SCHEMAS, type ScenarioStep, type StepKind } from '../../src/scenario/scenarioSchema';
import type { RunningSimulator, StartSimulatorOptions } from '../../src/simulator';
import { evmChainOf } from '../support/evmChainOf';
import { pooledNodes } from '../support/pooledNodes';
import { DESTINATION_CHAIN, PROPERTY_SIMULATOR_SEED, SETUP_STEPS, type PropertyCommandData, type PropertyModel, type ScenarioStepObject } from './propertyCommands';

/** An invariant the run broke: the property fails with this message. */
export class InvariantViolation extends Error {}

/** A webhook the receiver got: the parsed body and its raw text. */
interface DeliveredWebhook {
  body: string;
  requestId: string;
  status: string;
  failReason: string;
  refundFailReason: string;
  timestamp: number;
}

/** SPEC §2.3: fields every request record has (the nullable ones null where there is no value). */
const RECORD_FIELDS = ['id', 'status', 'user', 'recipient', 'sender', 'refundTo', 'supersededByRequestId', 'depositAddress', 'data'] as const;
const RECORD_DATA_FIELDS = ['slippageTolerance', 'failReason', 'refundFailReason', 'usesExternalLiquidity', 'timeEstimate', 'triggeredByFastFill', 'inTxs', 'outTxs'] as const;
/** SPEC §2.3: the data fields typed without null: a value, or absent. */
const RECORD_DATA_FIELDS_WITHOUT_NULL = ['failedTxHash', 'failedTxBlockNumber', 'failedCallData', 'appFees', 'feeSponsorship'] as const;
const TRANSACTION_ENTRY_FIELDS = ['txHash', 'fee', 'feeUsd', 'block', 'type', 'chainId', 'timestamp', 'status', 'data', 'stateChanges'] as const;

/**
 * The real side of the model-based property: a simulator on this worker's pooled chains, set up as
 * the scenario runner sets one up (seed, manual clock from SCENARIO_CLOCK_START_MS, a fresh database,
 * a webhook receiver for the default API key), so the scenario file a failure is printed as replays
 * the same run. Steps run through the scenario runner's own step code; after each, everything settles
 * as the runner's `settle()` waits, and `checkInvariants` looks at every request.
 */
export class PropertyWorld {
  private readonly quotes = new Map<string, NamedQuote>();
  private readonly statusesByAlias = new Map<string, CommittedStatusChange[]>();
  /** Every committed status change heard, in order, across restarts. */
  private readonly changes: CommittedStatusChange[] = [];
  private readonly webhooks: DeliveredWebhook[] = [];
  private readonly scenarioWebhooks: ReceivedWebhook[] = [];
  /** Per quote alias: the recipient's last balance and how often it went up. */
  private readonly recipientBalances = new Map<string, { last: bigint; increases: number }>();
  private readonly logLines: string[] = [];
  private stepIndex = 0;
  /** Deposits named with `as` (the scenario steps' own bookkeeping). */
  private readonly namedDeposits: ScenarioRunState['deposits'] = new Map();
  /** The commands run so far, for the replay file. */
  readonly ran: PropertyCommandData[] = [];
  /** Set once the commands are done and FINAL_STEPS run. */
  finalPhase = false;

  private sim!: RunningSimulator;
  private receiver!: Server;
  private webhookUrl = '';
  private readonly dir = mkdtempSync(join(tmpdir(), 'intentsim-property-'));

  private constructor(private readonly launch: (options: StartSimulatorOptions) => Promise<RunningSimulator>) {}

  /** A world whose simulators (the first, and each restart's) `launch` starts. */
  static async start(launch: (options: StartSimulatorOptions) => Promise<RunningSimulator>): Promise<PropertyWorld> {
    const world = new PropertyWorld(launch);
    world.receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        world.receive(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => world.receiver.listen(0, '127.0.0.1', resolve));
    world.webhookUrl = `http://127.0.0.1:${(world.receiver.address() as AddressInfo).port}/webhook`;
    try {
      world.sim = await world.boot(true, SCENARIO_CLOCK_START_MS);
    } catch (error) {
      await world.closeReceiver();
      rmSync(world.dir, { recursive: true, force: true });
      throw error;
    }
    for (const step of SETUP_STEPS) await world.execute(step);
    return world;
  }

  private boot(reset: boolean, clockStartMs: number): Promise<RunningSimulator> {
    return this.launch({
      port: 0,
      env: {},
      log: (message, error) => this.logLines.push(`${message}${error ? `: ${error instanceof Error ? error.message : String(error)}` : ''}`),
      seed: PROPERTY_SIMULATOR_SEED,
      clockMode: 'manual',
      clockStartMs,
      dbPath: join(this.dir, 'scenario.db'),
      dataDir: join(this.dir, 'data'),
      chains: pooledNodes().map((node) => ({ id: node.id, rpcUrl: node.rpcUrl, resetOnStart: reset })),
      webhook: { url: this.webhookUrl },
      onStatusChange: (change) => this.hear(change),
    });
  }

  private receive(body: string): void {
    try {
      const payload = JSON.parse(body) as { timestamp: number; data: { requestId: string; status: string; failReason: string; refundFailReason: string } };
      this.webhooks.push({
        body,
        requestId: payload.data.requestId.toLowerCase(),
        status: payload.data.status,
        failReason: payload.data.failReason,
        refundFailReason: payload.data.refundFailReason,
        timestamp: payload.timestamp,
      });
      this.scenarioWebhooks.push({ requestId: payload.data.requestId.toLowerCase(), status: payload.data.status, attempt: 1, answer: 200 });
    } catch {
      this.webhooks.push({ body, requestId: '', status: '', failReason: '', refundFailReason: '', timestamp: 0 });
    }
  }

  private hear(change: CommittedStatusChange): void {
    this.changes.push(change);
    const quote = [...this.quotes.values()].find((named) => named.requestId === change.requestId.toLowerCase());
    if (quote) this.statusesByAlias.get(quote.alias)?.push(change);
  }

  /** Each request's statuses, one line each (INTENTSIM_PROPERTY_VERBOSE). */
  summary(): string {
    const ids = [...new Set(this.changes.map((change) => change.requestId.toLowerCase()))];
    return ids
      .map((id) => {
        const alias = [...this.quotes.values()].find((quote) => quote.requestId === id)?.alias ?? id.slice(0, 10);
        const heard = this.changes.filter((change) => change.requestId.toLowerCase() === id);
        return `${alias}: ${heard.map((change) => change.to).join(' → ')} ${heard.at(-1)?.record.failReason ?? ''} ${heard.at(-1)?.record.refundFailReason ?? ''}`.trimEnd();
      })
      .join('\n');
  }

  /** The last lines the simulator logged (for a failure message). */
  logTail(count = 20): string[] {
    return this.logLines.slice(-count);
  }

  /**
   * Whether the last `depth` blocks of the chain hold a transaction of the solver (a refund, a
   * sweep, a fill). A reorg would drop it for good: the simulator does not send its own reorged
   * transactions again, so the record keeps a payment the chain no longer has and the solver's
   * wallet counts a nonce the chain does not (every later transaction of it on that chain waits
   * forever). Reported as a bug; until it is fixed the property skips such reorgs.
   */
  async reorgDropsSolverTransaction(chainId: number, depth: number): Promise<boolean> {
    const client = evmChainOf(this.sim, chainId).publicClient;
    const head = await client.getBlockNumber();
    for (let number = head; number > head - BigInt(depth) && number >= 0n; number--) {
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
      if (block.transactions.some((tx) => tx.from.toLowerCase() === this.sim.control.solverAddress.toLowerCase())) return true;
    }
    return false;
  }

  /** Runs one scenario step (as the scenario runner would), then waits until everything it set off has settled. */
  async execute(step: ScenarioStepObject): Promise<void> {
    const [kind, raw] = Object.entries(step)[0]!;
    const index = this.stepIndex++;
    if (kind === 'restart') {
      await this.restart();
    } else {
      const spec = STEP_SCHEMAS[kind as StepKind].parse(raw);
      const state: ScenarioRunState = {
        sim: this.sim,
        quotes: this.quotes,
        statuses: this.statusesByAlias,
        webhooks: this.scenarioWebhooks,
        deposits: this.namedDeposits,
        contracts: new Map(),
        automineOff: new Set(),
        snapshots: new Map(),
        claimChanges: (quote) => this.statusesByAlias.set(quote.alias, this.changes.filter((change) => change.requestId === quote.requestId)),
      };
      const mismatches: ExpectationMismatch[] = [];
      await executeScenarioStep(state, { kind, line: 0, spec } as ScenarioStep, index, mismatches);
    }
    await this.settle();
  }

  /** Stops the simulator and starts it again on the same database and chains, its clock where it was. */
  private async restart(): Promise<void> {
    const clockNow = this.sim.control.clock.now();
    await this.sim.stop();
    this.sim = await this.boot(false, clockNow);
  }

  /** As src/scenario/runScenario.ts `settle()`: every chain indexed, the solver and webhook attempts idle, until no status changes. */
  private async settle(): Promise<void> {
    for (let round = 0; round < 100; round++) {
      const before = this.changes.length;
      for (const chain of this.sim.chains) await this.sim.control.chain(chain.id).syncNow();
      await this.sim.control.solver.idle();
      await this.sim.control.webhooks.idle();
      if (this.changes.length === before && round > 0) return;
    }
  }

  /** Checks every invariant over every request the run made; throws InvariantViolation naming the first broken one. */
  async checkInvariants(model: PropertyModel, final = false): Promise<void> {
    const problems: string[] = [];
    const ids = [...new Set(this.changes.map((change) => change.requestId.toLowerCase()))];
    const listed = await this.listAll();
    if (typeof listed === 'string') throw new InvariantViolation(listed);
    const aliasOf = (id: string) => [...this.quotes.values()].find((quote) => quote.requestId === id)?.alias ?? `${id.slice(0, 10)}… (a record of its own)`;
    for (const id of ids) {
      const name = aliasOf(id);
      const heard = this.changes.filter((change) => change.requestId.toLowerCase() === id);
      problems.push(...transitionProblems(name, heard));
      const stored = this.sim.control.requests.eventsFor(id).map((event) => `${event.seq}:${event.fromStatus ?? '(new)'}→${event.toStatus}`);
      const told = heard.map((change) => `${change.seq}:${change.from ?? '(new)'}→${change.to}`);
      if (stored.join(',') !== told.join(',')) problems.push(`${name}: status changes heard [${told.join(', ')}] differ from those stored [${stored.join(', ')}]`);

      const record = this.sim.control.requests.get(id);
      if (!record) {
        problems.push(`${name}: no stored record`);
        continue;
      }
      problems.push(...(await this.agreementProblems(name, id, record, heard, listed)));
      problems.push(...payoutProblems(name, record));
      problems.push(...(await this.chainProblems(name, record)));
      if (final && (record.status === 'pending' || record.status === 'submitted' || record.status === 'depositing')) {
        problems.push(`${name}: still ${record.status} after the solver rules were cleared and the clock moved past every delay and inclusion window`);
      }
      if (final && record.status === 'waiting' && ![...this.quotes.values()].some((quote) => quote.requestId === id)) problems.push(`${name}: a record of a stray deposit still waiting at the end`);
    }
    for (const quote of model.quotes) {
      const named = this.quotes.get(quote.alias);
      if (!named) {
        problems.push(`${quote.alias}: the quote step ran but no request was named`);
        continue;
      }
      const record = this.sim.control.requests.get(named.requestId);
      if (record && quote.deposits === 0 && record.status !== 'waiting') problems.push(`${quote.alias}: never paid, but ${record.status}`);
      if (record && final && quote.deposits > 0 && record.status === 'waiting') problems.push(`${quote.alias}: paid ${quote.deposits} time(s), still waiting at the end`);
      if (record) problems.push(...(await this.recipientProblems(quote.alias, named, record)));
    }
    if (problems.length > 0) throw new InvariantViolation(problems.join('\n'));
  }

  /** The status endpoint, the listed record, the stored record and the webhooks delivered agree. */
  private async agreementProblems(name: string, id: string, record: RequestRecord, heard: CommittedStatusChange[], listing: Array<Record<string, any>>): Promise<string[]> {
    const problems: string[] = [];
    const status = (await (await fetch(`${this.sim.baseUrl}/intents/status/v3?requestId=${id}`)).json()) as Record<string, unknown>;
    const listed = listing.filter((request) => String(request.id).toLowerCase() === id);
    if (listed.length !== 1) return [`${name}: GET /requests/v3 lists it ${listed.length} times`];
    const view = listed[0]!;
    const expected = { status: record.status, failReason: reportedFailReason(record.status, record.failReason), refundFailReason: reportedRefundFailReason(record.refundFailReason) };
    const said = { status: status.status, failReason: status.failReason, refundFailReason: status.refundFailReason };
    if (JSON.stringify(said) !== JSON.stringify(expected)) problems.push(`${name}: GET /intents/status/v3 says ${JSON.stringify(said)}, the stored record ${JSON.stringify(expected)}`);
    const fromView = { status: view.status, failReason: view.data?.failReason ?? 'N/A', refundFailReason: view.data?.refundFailReason ?? 'N/A' };
    if (JSON.stringify(fromView) !== JSON.stringify(said)) problems.push(`${name}: GET /requests/v3 says ${JSON.stringify(fromView)}, GET /intents/status/v3 ${JSON.stringify(said)}`);
    const last = heard.at(-1);
    if (last && last.to !== record.status) problems.push(`${name}: the last status change heard is to ${last.to}, the record is ${record.status}`);
    problems.push(...recordFieldProblems(name, view));

    // every committed change is delivered (at least once: a redelivery after a restart repeats the same bytes), and nothing else
    const delivered = [...new Set(this.webhooks.filter((webhook) => webhook.requestId === id).map((webhook) => webhook.body))].map((body) => {
      const webhook = this.webhooks.find((candidate) => candidate.body === body)!;
      return `${webhook.status}/${webhook.failReason}/${webhook.refundFailReason}@${webhook.timestamp}`;
    });
    const changed = heard.map((change) => `${change.to}/${reportedFailReason(change.to, change.record.failReason)}/${reportedRefundFailReason(change.record.refundFailReason)}@${change.at}`);
    if (record.apiKey !== null && delivered.sort().join(',') !== [...changed].sort().join(',')) {
      problems.push(`${name}: webhooks delivered [${delivered.join(', ')}] are not the status changes [${changed.join(', ')}]`);
    }
    return problems;
  }

  /**
   * Every record GET /requests/v3 lists (the default API key; pages of 50). Few calls: the listing
   * allows 20 a second per key, and the manual clock's second is long. A string says what failed.
   */
  private async listAll(): Promise<Array<Record<string, any>> | string> {
    const all: Array<Record<string, any>> = [];
    let continuation: string | undefined;
    do {
      const response = await fetch(`${this.sim.baseUrl}/requests/v3?limit=50${continuation ? `&continuation=${encodeURIComponent(continuation)}` : ''}`, { headers: { 'x-api-key': this.sim.apiKey } });
      const body = (await response.json()) as { requests?: Array<Record<string, any>>; continuation?: string };
      if (response.status !== 200 || !body.requests) return `GET /requests/v3 answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`;
      all.push(...body.requests);
      continuation = body.continuation;
    } while (continuation);
    return all;
  }

  /** Every transaction the record says succeeded is on its chain, in the block the record names. */
  private async chainProblems(name: string, record: RequestRecord): Promise<string[]> {
    const problems: string[] = [];
    for (const entry of [...record.inTxs, ...record.outTxs]) {
      if (entry.status !== 'success') continue;
      const receipt = await evmChainOf(this.sim, entry.chainId)
        .publicClient.getTransactionReceipt({ hash: entry.txHash })
        .catch(() => undefined);
      if (!receipt) problems.push(`${name}: its ${entry.type} ${entry.txHash} (success, block ${entry.block} on ${entry.chainId}) is not on the chain`);
      else if (receipt.blockHash !== entry.blockHash) problems.push(`${name}: its ${entry.type} ${entry.txHash} is in block ${receipt.blockNumber} ${receipt.blockHash}, the record says ${entry.block} ${entry.blockHash}`);
    }
    return problems;
  }

  /** On chain: the quote's fresh recipient got what the record's fill says, once, or nothing. */
  private async recipientProblems(alias: string, quote: NamedQuote, record: RequestRecord): Promise<string[]> {
    const destination = this.sim.control.chain(DESTINATION_CHAIN);
    const recipient = resolveAddress(this.sim, destination, `fresh:${alias}`);
    const currency = resolveCurrency(destination, record.quote.currencyOut.address);
    const balance = await destination.balanceOf(recipient, currency);
    const seen = this.recipientBalances.get(alias) ?? { last: 0n, increases: 0 };
    const problems: string[] = [];
    if (balance > seen.last) seen.increases++;
    if (balance < seen.last) problems.push(`${alias}: the recipient's ${currency.symbol} balance went down from ${seen.last} to ${balance}`);
    if (seen.increases > 1) problems.push(`${alias}: the recipient's balance went up ${seen.increases} times`);
    seen.last = balance;
    this.recipientBalances.set(alias, seen);
    const fill = record.outTxs.find((tx) => tx.type === 'fill' && tx.status === 'success');
    const paid = fill ? fill.data.amount : 0n;
    if (balance !== paid) problems.push(`${alias}: the recipient holds ${balance} ${currency.symbol} on ${DESTINATION_CHAIN}, the record's fill says ${paid} (${quote.requestId})`);
    return problems;
  }

  async stop(): Promise<void> {
    await this.sim.stop().catch(() => undefined);
    await this.closeReceiver();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private closeReceiver(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.receiver.close(() => resolve());
      this.receiver.closeAllConnections();
    });
  }
}

/** Every change is a transition of the §3 table, continuing from the status before; success → failure only for a reorged deposit. */
function transitionProblems(name: string, heard: CommittedStatusChange[]): string[] {
  const problems: string[] = [];
  let status: RequestStatus | null = null;
  for (const change of heard) {
    if (change.from !== status) problems.push(`${name}: a change from ${change.from ?? '(new)'} to ${change.to} while the request was ${status ?? '(new)'}`);
    if (change.from === null) {
      if (change.to !== 'waiting') problems.push(`${name}: created in ${change.to}`);
    } else if (!canTransition(change.from, change.to)) {
      problems.push(`${name}: ${change.from} → ${change.to} is not a transition of the §3 table`);
    }
    if (change.from === 'success' && change.to === 'failure' && change.record.failReason !== 'DEPOSIT_REORGED') {
      problems.push(`${name}: success → failure with ${change.record.failReason ?? 'no failReason'} (only a reorged deposit may undo a success)`);
    }
    status = change.to;
  }
  return problems;
}

/** No request is filled twice or refunded twice; a record of a stray deposit is never filled. */
function payoutProblems(name: string, record: RequestRecord): string[] {
  const problems: string[] = [];
  for (const type of ['fill', 'refund'] as const) {
    const entries = record.outTxs.filter((tx) => tx.type === type);
    if (entries.length > 1) problems.push(`${name}: ${entries.length} ${type} entries in outTxs (${entries.map((tx) => `${tx.txHash} ${tx.status}`).join(', ')})`);
  }
  return problems;
}

/** SPEC §2.3: every field present (null only where the tables say null); transaction entries complete. */
function recordFieldProblems(name: string, view: Record<string, any>): string[] {
  const problems: string[] = [];
  for (const field of RECORD_FIELDS) if (!(field in view) || view[field] === undefined) problems.push(`${name}: the record has no ${field}`);
  for (const field of RECORD_DATA_FIELDS) if (!view.data || !(field in view.data) || view.data[field] === undefined) problems.push(`${name}: the record has no data.${field}`);
  for (const field of RECORD_DATA_FIELDS_WITHOUT_NULL) if (view.data?.[field] === null) problems.push(`${name}: data.${field} is null (SPEC §2.3 types it without null: absent when it has no value)`);
  for (const side of ['inTxs', 'outTxs'] as const) {
    for (const [index, entry] of ((view.data?.[side] ?? []) as Array<Record<string, unknown>>).entries()) {
      for (const field of TRANSACTION_ENTRY_FIELDS) if (!(field in entry) || entry[field] === undefined) problems.push(`${name}: data.${side}[${index}] has no ${field}`);
    }
  }
  if (view.status !== 'failure' && view.status !== 'refund' && view.data?.failReason !== null) problems.push(`${name}: data.failReason is ${String(view.data?.failReason)} on a ${String(view.status)} request (null expected)`);
  if (view.sender === null && (view.data?.inTxs?.length ?? 0) > 0 && !view.depositAddress) problems.push(`${name}: a deposit is listed but sender is null`);
  return problems;
}
