import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommittedStatusChange } from '../events/RequestEventBus';
import type { TransactionEntry } from '../domain/request/requestRecord';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../simulator';
import { ScenarioTimeline } from './ScenarioTimeline';
import { ScenarioWebhookReceiver, type ReceivedWebhook } from './ScenarioWebhookReceiver';
import type { Scenario } from './scenarioSchema';
import type { ExpectationMismatch } from './checkExpectation';
import { listRecordsById } from './listRecordsById';
import { executeScenarioStep } from './executeScenarioStep';
import { unreachedCovers } from './unreachedCovers';
import { describeWaits } from './describeWaits';
import { chainsHoldingTransactions } from './chainsHoldingTransactions';
import { DEFAULT_STEP_BOUNDS, StepBoundReached, withinWallTime, type ScenarioStepBounds } from './stepBounds';
import { ScenarioStepError } from './scenarioRunState';
import { ConfigurationError } from '../errors/IntentsimError';
import { forkOptionsOf } from './scenarioForks';
import { runsOnReusedSimulator, scenarioStartKey, type ReusedScenarioSimulator } from './ReusedScenarioSimulator';
import type { NamedContract, NamedDeposit, NamedQuote, NamedSnapshot, ScenarioRunState } from './scenarioRunState';

/** Where the virtual clock of every scenario starts: 2026-01-01T00:00:00Z (a scenario's times are offsets from it). */
export const SCENARIO_CLOCK_START_MS = Date.UTC(2026, 0, 1);

export interface RunScenarioOptions {
  /**
   * Nodes to attach to (reset to genesis at start), e.g. from `startChainNodes`; omitted: the simulator spawns its own.
   * A chain of the scenario with no node here (an in-process ledger) is built by the simulator.
   */
  nodes?: Array<{ id: number; rpcUrl: string }>;
  /** The seed of a scenario that names none (default 1); a file's own `seed:` wins, its expectations depend on it. */
  seed?: number;
  /** Extra simulator options (tests: anvil path). */
  simulator?: Partial<StartSimulatorOptions>;
  /** How long each step may take (src/scenario/stepBounds.ts); wins over the file's `stepBounds:`, which wins over the defaults. */
  stepBounds?: Partial<ScenarioStepBounds>;
  /** Told as each step starts (`scenario run --verbose`): `<scenario>: step N (line L) <kind>`. */
  onStepStart?: (line: string) => void;
  /**
   * A simulator kept across runs (ReusedScenarioSimulator): the one the previous run started with
   * the same options, reset to the start's world, else a new one, kept for the next run; `fresh`:
   * a new one either way. A scenario that forks a chain, restarts or takes snapshots
   * (runsOnReusedSimulator), or a run with `simulator` options, starts its own (the kept one is
   * stopped first: it holds the same nodes). For the library's tests (test/support/scenarioLibrary.ts):
   * the package does not export ReusedScenarioSimulator.
   */
  reuse?: { simulator: ReusedScenarioSimulator; fresh?: boolean };
}

export interface ScenarioResult {
  scenario: Scenario;
  seed: number;
  passed: boolean;
  /** Expectations that did not hold (each with the path `--update` rewrites). */
  mismatches: ExpectationMismatch[];
  /** The §2.3 record of each named quote at the end (GET /requests/v3), by the quote's name. */
  records: Record<string, unknown>;
  /** The step that could not run, if any. */
  error: string | undefined;
  timeline: string;
}


/**
 * Runs one scenario against a fresh simulator (manual clock from SCENARIO_CLOCK_START_MS, the
 * given seed, a fresh database) or, with `reuse`, a kept one put back to its start (the same
 * result), step by step; after each step everything the step set off
 * settles (deposits indexed, the solver idle, webhook attempts answered) before the next.
 * Returns the timeline and every expectation that did not hold.
 */
export async function runScenario(scenario: Scenario, options: RunScenarioOptions = {}): Promise<ScenarioResult> {
  const seed = scenario.seed ?? options.seed ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-scenario-'));
  const timeline = new ScenarioTimeline(SCENARIO_CLOCK_START_MS);
  const mismatches: ExpectationMismatch[] = [];
  const quotes = new Map<string, NamedQuote>();
  const deposits = new Map<string, NamedDeposit>();
  const contracts = new Map<string, NamedContract>();
  const automineOff = new Set<number>();
  const snapshots = new Map<string, NamedSnapshot>();
  const statuses = new Map<string, CommittedStatusChange[]>();
  const webhooks: ReceivedWebhook[] = [];
  const records: Record<string, unknown> = {};
  const aliasOf = (requestId: string) => [...quotes.values()].find((quote) => quote.requestId === requestId.toLowerCase());
  let sim: RunningSimulator | undefined;
  /** Set while a simulator stops: what it says then belongs to no step. */
  let stopped = false;
  let error: string | undefined;
  const bounds: ScenarioStepBounds = { ...DEFAULT_STEP_BOUNDS, ...scenario.stepBounds, ...options.stepBounds };

  const reuse = reusable(scenario, options) ? options.reuse : undefined;
  const onWebhook = (webhook: ReceivedWebhook) => {
    const quote = aliasOf(webhook.requestId);
    webhooks.push(webhook);
    const statusIndex = (statuses.get(quote?.alias ?? '') ?? []).findIndex((change) => change.to === webhook.status);
    timeline.addArrived(clockNow(), [quote?.index ?? 999, 1, statusIndex, webhook.attempt], `${quote?.alias ?? webhook.requestId}  webhook ${webhook.status} attempt ${webhook.attempt} → ${webhook.answer}`);
  };
  // a kept simulator comes with its own receiver
  const receiver = scenario.webhook && !reuse ? new ScenarioWebhookReceiver(scenario.webhook.answers, onWebhook) : undefined;
  const webhookUrl = receiver ? await receiver.start() : undefined;

  // a pooled node is attached (and reset to genesis); a chain with none in the pool (an in-process
  // ledger: SVM, BVM, the exchange) is built by the simulator, from genesis, for this scenario alone,
  // and so is a forked chain (`fork:`), which runs its own node
  const forked = new Set(Object.keys(scenario.fork ?? {}).map(Number));
  const chainOptions = (reset: boolean) => {
    const nodes = options.nodes?.filter((node) => !forked.has(node.id));
    if (!nodes) return scenario.chains ? { chains: scenario.chains.map((id) => ({ id })) } : {};
    const ids = scenario.chains ?? nodes.map((node) => node.id);
    return {
      chains: ids.map((id) => {
        const node = nodes.find((pooled) => pooled.id === id);
        return node ? { id, rpcUrl: node.rpcUrl, resetOnStart: reset } : { id };
      }),
    };
  };
  /** The virtual time now; while a simulator boots (resuming requests), the time it was started at. */
  let bootClockMs = SCENARIO_CLOCK_START_MS;
  const clockNow = () => sim?.control.clock.now() ?? bootClockMs;
  /** The simulator's options: its files in `in`, nodes reset on attach or not, the clock from `clockStartMs`. */
  const simulatorOptions = (at: { in: string; reset: boolean; clockStartMs: number; webhookUrl: string | undefined; onStatusChange: (change: CommittedStatusChange) => void }): StartSimulatorOptions => ({
    port: 0,
    env: {},
    log: () => undefined,
    seed,
    clockMode: 'manual',
    clockStartMs: at.clockStartMs,
    dbPath: join(at.in, 'scenario.db'),
    dataDir: join(at.in, 'data'),
    ...chainOptions(at.reset),
    ...forkOptionsOf(scenario),
    ...scenario.config,
    ...(at.webhookUrl ? { webhook: { url: at.webhookUrl } } : {}),
    onStatusChange: at.onStatusChange,
    ...options.simulator,
  });
  /** Hears a status change; `clockOf` is the virtual time now (while a simulator boots, the booting one's). */
  const hearStatusChange = (clockOf: () => number | undefined, clockStartMs: number) => (change: CommittedStatusChange) => {
    if (stopped) return;
    const at = clockOf() ?? clockStartMs;
    const quote = aliasOf(change.requestId);
    if (quote) recordChange(quote, change, at);
    else unclaimed.push({ change, at });
  };
  const boot = async (reset: boolean, clockStartMs: number) => {
    bootClockMs = clockStartMs;
    let booting: RunningSimulator | undefined;
    const onStatusChange = hearStatusChange(() => (booting ?? sim)?.control.clock.now(), clockStartMs);
    booting = await startSimulator(simulatorOptions({ in: dir, reset, clockStartMs, webhookUrl, onStatusChange }));
    sim = booting;
  };
  /** The kept simulator (reset), or a new one kept for the next run. */
  let tookReused = false;
  const takeReused = async (reused: NonNullable<RunScenarioOptions['reuse']>) => {
    const listeners = {
      onStatusChange: hearStatusChange(() => sim?.control.clock.now(), SCENARIO_CLOCK_START_MS),
      ...(scenario.webhook ? { webhook: { answers: scenario.webhook.answers, onReceived: onWebhook } } : {}),
    };
    const key = scenarioStartKey({ seed, chains: chainOptions(true), config: scenario.config ?? null, webhook: scenario.webhook !== undefined });
    sim = await reused.simulator.take(key, listeners, (start) => startSimulator(simulatorOptions({ in: start.dir, reset: true, clockStartMs: SCENARIO_CLOCK_START_MS, webhookUrl: start.webhookUrl, onStatusChange: start.onStatusChange })), { fresh: reused.fresh });
    tookReused = true;
  };
  const unclaimed: Array<{ change: CommittedStatusChange; at: number }> = [];
  const recordChange = (quote: NamedQuote, change: CommittedStatusChange, at: number) => {
    const list = statuses.get(quote.alias) ?? [];
    const previous = list.at(-1)?.record;
    list.push(change);
    statuses.set(quote.alias, list);
    timeline.addArrived(at, [quote.index, 0, list.length], describeChange(quote.alias, change, previous));
  };
  const claimChanges = (quote: NamedQuote) => {
    for (const { change, at } of unclaimed.filter((entry) => entry.change.requestId === quote.requestId)) recordChange(quote, change, at);
    unclaimed.splice(0, unclaimed.length, ...unclaimed.filter((entry) => entry.change.requestId !== quote.requestId));
  };

  try {
    if (reuse) await takeReused(reuse);
    else {
      // a start of its own resets the nodes the kept simulator holds
      await options.reuse?.simulator.stop();
      await boot(true, SCENARIO_CLOCK_START_MS);
    }
    // every chain indexed to its head (deployments included) before the first step quotes on it
    await withinWallTime(settle(sim!, statuses, automineOff), bounds.wallSeconds, 'settling the chains at start');
    timeline.add(sim!.control.clock.now(), `scenario ${scenario.name} (seed ${seed}) on chains ${sim!.chains.map((chain) => chain.id).join(', ')}`);
    for (const [index, step] of scenario.steps.entries()) {
      const label = `step ${index + 1} (line ${step.line}) ${step.kind}`;
      options.onStepStart?.(`${scenario.name}: ${label}`);
      /** Set once the step's bound is reached: what the abandoned step still does is not written. */
      let abandoned = false;
      const stateNow = (): ScenarioRunState => ({ sim: sim!, quotes, deposits, contracts, automineOff, snapshots, statuses, webhooks, claimChanges, fork: scenario.fork });
      try {
        const clockBefore = sim!.control.clock.now();
        if (step.kind === 'advanceClock' && step.spec.seconds > bounds.clockSeconds) {
          throw new ScenarioStepError(`it moves the virtual clock ${step.spec.seconds} s, past the step's virtual-time bound of ${bounds.clockSeconds} s (raise it with --step-clock-limit or the file's stepBounds.clockSeconds)`);
        }
        const run = async () => {
          if (step.kind === 'restart') {
            const clockNow = sim!.control.clock.now();
            stopped = true;
            await sim!.stop();
            stopped = false;
            sim = undefined;
            timeline.add(clockNow, `${label}: simulator stopped; started again on the same database`);
            await boot(false, clockNow);
          } else {
            const text = await executeScenarioStep(stateNow(), step, index, mismatches);
            if (abandoned) return;
            timeline.add(sim!.control.clock.now(), `${label}${text ? `: ${text}` : ''}`);
          }
          await settle(sim!, statuses, automineOff);
        };
        await withinWallTime(run(), bounds.wallSeconds, 'it').catch(async (caught: unknown) => {
          if (!(caught instanceof StepBoundReached)) throw caught;
          abandoned = true;
          throw new StepBoundReached(`${caught.message}; ${await waitsNow(stateNow)}`);
        });
        const moved = (sim!.control.clock.now() - clockBefore) / 1000;
        if (moved > bounds.clockSeconds) throw new ScenarioStepError(`it moved the virtual clock ${moved} s, past the step's virtual-time bound of ${bounds.clockSeconds} s`);
        timeline.flush();
      } catch (caught) {
        const message = caught instanceof Error ? caught.message : String(caught);
        error = `${label}: ${message}`;
        timeline.add(sim?.control.clock.now() ?? SCENARIO_CLOCK_START_MS, `${label}: ERROR ${message}`);
        break;
      }
    }
    const running = sim as RunningSimulator | undefined;
    const listed = running ? await listRecordsById(running, [...quotes.values()].map((quote) => quote.requestId)) : new Map<string, unknown>();
    for (const quote of running ? quotes.values() : []) records[quote.alias] = listed.get(quote.requestId.toLowerCase()) ?? null;
    if (error === undefined) {
      const finalRecords = [...quotes.values()].flatMap((quote) => sim?.control.requests.get(quote.requestId) ?? []);
      for (const item of unreachedCovers(scenario.covers, [...statuses.values()].flat(), finalRecords)) {
        mismatches.push({ step: 0, line: 0, path: [], what: `covers ${item}`, expected: 'reached by a request of this run', actual: 'not reached' });
      }
    }
  } catch (caught) {
    // a fork's upstream that does not answer (or serves another chain) is bad input, as with `start --fork`: one line, exit code 2
    if (forked.size > 0 && sim === undefined && caught instanceof ConfigurationError) throw new ConfigurationError(`${scenario.file}: ${caught.message}`, { cause: caught });
    error ??= `start: ${caught instanceof Error ? caught.message : String(caught)}`;
  } finally {
    stopped = true;
    if (tookReused) await reuse?.simulator.giveBack({ keep: error === undefined }).catch(() => undefined);
    else await sim?.stop().catch(() => undefined);
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    scenario,
    seed,
    passed: error === undefined && mismatches.length === 0,
    mismatches,
    records,
    error,
    timeline: timeline.render([`timeline of ${scenario.name}`, `seed ${seed}; times are virtual, from 2026-01-01T00:00:00Z`]),
  };
}

/** Whether a run takes the kept simulator: one of a scenario that may (runsOnReusedSimulator), without simulator options. */
function reusable(scenario: Scenario, options: RunScenarioOptions): boolean {
  return options.reuse !== undefined && options.simulator === undefined && runsOnReusedSimulator(scenario);
}

/**
 * Waits until what the last step set off has settled: every chain indexed, the solver and webhook
 * attempts idle. While a chain's automine is off, the solver waiting for the receipt of a
 * transaction held in that chain's pool counts as settled (it is mined by a later step).
 */
async function settle(sim: RunningSimulator, statuses: Map<string, CommittedStatusChange[]>, automineOff: ReadonlySet<number>): Promise<void> {
  const changes = () => [...statuses.values()].reduce((sum, list) => sum + list.length, 0);
  const held = new Set(chainsHoldingTransactions(sim, automineOff));
  const unlessHeld = async ({ chainId, txHash }: { chainId: number; txHash: string }) => held.has(chainId) && (await sim.control.chain(chainId).isPending(txHash));
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const before = changes();
    for (const chain of sim.chains) await sim.control.chain(chain.id).syncNow();
    await sim.control.solver.idle(held.size > 0 ? { unlessHeld } : {});
    await sim.control.webhooks.idle();
    if (changes() === before && round > 0) return;
  }
  throw new ScenarioStepError(`what it set off still changed statuses after ${SETTLE_ROUNDS} rounds of settling (a loop of status changes?)`);
}

/** Rounds of settling (index, solver, webhooks) before a step whose statuses keep changing fails. */
const SETTLE_ROUNDS = 100;

/** "waiting on: …" for a step that reached its bound; the look-ups themselves are bounded (a node may be what hangs). */
async function waitsNow(stateNow: () => ScenarioRunState): Promise<string> {
  try {
    const lines = await withinWallTime(describeWaits(stateNow()), 5, 'reading what is pending');
    return lines.length === 0 ? 'nothing is pending in the solver, the pools or the webhook outbox' : `pending: ${lines.join('; ')}`;
  } catch (caught) {
    return `what is pending could not be read: ${caught instanceof Error ? caught.message : String(caught)}`;
  }
}

function describeTx(tx: TransactionEntry): string {
  return `${tx.type} ${tx.txHash} on ${tx.chainId} ${tx.status}`;
}

function describeChange(alias: string, change: CommittedStatusChange, previous: CommittedStatusChange['record'] | undefined): string {
  const record = change.record;
  const parts = [`${alias}  ${change.from ?? '(new)'} → ${change.to}`];
  if (record.failReason) parts.push(`failReason ${record.failReason}`);
  if (record.refundFailReason) parts.push(`refundFailReason ${record.refundFailReason}`);
  const known = new Set([...(previous?.inTxs ?? []), ...(previous?.outTxs ?? [])].map((tx) => `${tx.txHash}:${tx.status}`));
  const added = [...record.inTxs.map((tx) => ['in', tx] as const), ...record.outTxs.map((tx) => ['out', tx] as const)].filter(([, tx]) => !known.has(`${tx.txHash}:${tx.status}`));
  for (const [side, tx] of added) parts.push(`${side}Tx ${describeTx(tx)}`);
  return parts.join('; ');
}

