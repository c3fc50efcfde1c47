import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommittedStatusChange } from '../events/RequestEventBus';
import type { RunningSimulator } from '../simulator';
import { ScenarioWebhookReceiver, type ReceivedWebhook } from './ScenarioWebhookReceiver';
import type { Scenario } from './scenarioSchema';

/**
 * Whether a scenario may run on a kept simulator: not one that forks a chain (its own node),
 * restarts (a new simulator on the run's database) or takes snapshots (a snapshot's id counts on
 * from those taken before, on the chain and in the world, and the timeline names it).
 */
export function runsOnReusedSimulator(scenario: Pick<Scenario, 'fork' | 'steps'>): boolean {
  return Object.keys(scenario.fork ?? {}).length === 0 && !scenario.steps.some((step) => step.kind === 'restart' || step.kind === 'snapshot');
}

/** The key a kept simulator is kept by: runs whose start options give equal keys share it. */
export function scenarioStartKey(start: { seed: number; chains: unknown; config: unknown; webhook: boolean }): string {
  return JSON.stringify(start, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
}

/** What the run that holds the simulator hears: its status changes and the webhooks its receiver answers. */
export interface ScenarioRunListeners {
  onStatusChange(change: CommittedStatusChange): void;
  webhook?: { answers: readonly number[]; onReceived(webhook: ReceivedWebhook): void };
}

/** How a kept simulator is started: in `dir` (its database and data), sending webhooks to `webhookUrl` if any, telling `onStatusChange`. */
export type StartReusedSimulator = (start: { dir: string; webhookUrl: string | undefined; onStatusChange: (change: CommittedStatusChange) => void }) => Promise<RunningSimulator>;

interface Held {
  key: string;
  sim: RunningSimulator;
  dir: string;
  receiver: ScenarioWebhookReceiver | undefined;
  /** Set while a run holds it. */
  listeners: ScenarioRunListeners | undefined;
}

/**
 * One simulator (and webhook receiver) kept from one scenario run to the next that starts it with
 * the same options (`key`: seed, chains, config, webhook or not): the next run gets it back at the
 * start's world (`sim.reset()`: chains and how they mine, requests, webhook outbox, rules, faults,
 * clock and RNG), ~10 ms where a start costs ~100 ms
 * of CPU, and its result is the one a fresh start gives (the library test's scenarios run twice,
 * test/support/scenarioLibrary.ts).
 * A run with other options stops it and starts another. Only one simulator at a time: it holds
 * the nodes it is attached to (a start elsewhere that resets them wipes its snapshots), so a run
 * on the same nodes outside it must come after `stop()`.
 */
export class ReusedScenarioSimulator {
  private held: Held | undefined;
  /** How runs got their simulator: started (first run, other options, `fresh`) or reset. */
  readonly taken = { started: 0, reset: 0 };

  /**
   * The simulator for a run whose start options are `key`: the kept one reset, or (none kept, other
   * options, `fresh`, or a reset that failed) a new one. `listeners` hear the run until `giveBack`.
   */
  async take(key: string, listeners: ScenarioRunListeners, start: StartReusedSimulator, options: { fresh?: boolean } = {}): Promise<RunningSimulator> {
    const held = this.held;
    if (held?.listeners) throw new Error('the reused scenario simulator is held by another run');
    if (held && held.key === key && !options.fresh) {
      try {
        await held.sim.reset();
        this.arm(held, listeners);
        this.taken.reset++;
        return held.sim;
      } catch {
        // a world it could not put back is not used: the run gets a new one
      }
    }
    await this.stop();
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-scenario-'));
    const receiver = listeners.webhook ? new ScenarioWebhookReceiver([], () => undefined) : undefined;
    const starting: Held = { key, sim: undefined as unknown as RunningSimulator, dir, receiver, listeners: undefined };
    try {
      this.arm(starting, listeners);
      const webhookUrl = await receiver?.start();
      starting.sim = await start({ dir, webhookUrl, onStatusChange: (change) => starting.listeners?.onStatusChange(change) });
    } catch (error) {
      await receiver?.stop();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    this.held = starting;
    this.taken.started++;
    return starting.sim;
  }

  /**
   * The run is over: what the simulator says from now on is heard by no one. `keep: false` (a run
   * that failed: work it abandoned may still run) stops the simulator instead of keeping it.
   */
  async giveBack(options: { keep: boolean }): Promise<void> {
    const held = this.held;
    if (!held) return;
    held.listeners = undefined;
    held.receiver?.answerWith([], () => undefined);
    if (!options.keep) return this.stop();
  }

  /** Stops the kept simulator and its webhook receiver, if any. */
  async stop(): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    try {
      await held.sim?.stop();
    } finally {
      await held.receiver?.stop();
      rmSync(held.dir, { recursive: true, force: true });
    }
  }

  private arm(held: Held, listeners: ScenarioRunListeners): void {
    held.listeners = listeners;
    if (listeners.webhook) held.receiver?.answerWith(listeners.webhook.answers, listeners.webhook.onReceived);
  }
}
