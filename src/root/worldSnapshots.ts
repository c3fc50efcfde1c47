import type { ApiRequestsInFlight } from '../api/apiRequestsInFlight';
import type { RateLimiters } from '../api/rateLimiter';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { RpcFault } from '../chains/RpcFaultStore';
import type { VirtualClock } from '../clock/VirtualClock';
import { WorldSnapshotNotFoundError } from '../errors/adminErrors';
import type { SeededRng } from '../rng/SeededRng';
import type { Solver } from '../solver/Solver';
import type { SolverRuleState } from '../solver/SolverRuleStore';
import { DatabaseSnapshots } from '../store/DatabaseSnapshots';
import type { RequestEvents } from './requestEvents';
import type { SimulatorChains } from './simulatorChains';
import type { SimulatorStores } from './simulatorStores';

/** The whole world's snapshots: `sim.snapshot()`, `sim.revert(id)`, `sim.reset()`, `POST /admin/snapshot|revert|reset`. */
export interface WorldSnapshots {
  /** Every chain, the store (requests, listing, webhooks, indexes, journals), the solver's rules, the RPC faults, the API's rate limit counts, the clock and the RNG; resolves with the snapshot's id. */
  snapshot(options?: { keep?: boolean }): Promise<string>;
  /** Back to snapshot `id` (used up unless kept; every later snapshot dropped); `SNAPSHOT_NOT_FOUND` for an id not held. */
  revert(id: string): Promise<void>;
  /** Back to the world as the start left it (a kept snapshot the start took). */
  reset(): Promise<void>;
}

type RandomState = ReturnType<SeededRng['capture']>;

interface WorldSnapshot {
  id: string;
  keep: boolean;
  /** Each chain's own snapshot id, by chain id (taken again after each revert to a kept snapshot). */
  chainSnapshots: Map<number, string>;
  /** How each chain made blocks (automine, interval mining), as functions that make them so again. */
  mining: Map<number, () => Promise<void>>;
  databaseCopy: number;
  clockMs: number;
  rng: RandomState;
  rules: SolverRuleState;
  faults: RpcFault[];
  /** What the API's rate limiters counted (times on the clock, which goes back with the world). */
  rateLimits: ReturnType<RateLimiters['capture']>;
}

/** The id of the snapshot the start takes (`reset()` reverts to it). */
const START_ID = '0x0';

/**
 * Owns the world snapshots. A snapshot waits for the solver to settle (work waiting on a receipt
 * counts as settled) and for webhook attempts in flight, indexes every chain to its head, then
 * takes each chain's own snapshot and copies the database's tables. A revert pauses the solver
 * (its work left is abandoned: nothing of the old world writes after), webhook deliveries and the
 * chains' watchers, puts back the rows changed since in one transaction, sets the clock, the RNG,
 * the rules, the faults and the API's rate limit counts back, then each chain at once on its own:
 * reverts, resumes its watcher, is snapshotted again if kept, and its adapter reads it again; then
 * deliveries and the solver resume from the store, as a start resumes requests left mid-way.
 */
export function createWorldSnapshots(parts: {
  chains: SimulatorChains;
  stores: SimulatorStores;
  requestEvents: RequestEvents;
  solver: Solver;
  clock: VirtualClock;
  rng: SeededRng;
  rateLimiters: RateLimiters;
  /** The API's requests: a revert holds new ones and waits for those in flight. */
  requestsInFlight?: ApiRequestsInFlight;
}): WorldSnapshots & { takeStartSnapshot(): Promise<void> } {
  const { chains, stores, requestEvents, solver, clock, rng, rateLimiters } = parts;
  const database = new DatabaseSnapshots(stores.db);
  const held: WorldSnapshot[] = [];
  let nextId = 1;
  let startRefused: unknown;
  /** One snapshot or revert at a time. */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => undefined);
    return next;
  };

  const takeChainSnapshots = async (): Promise<Map<number, string>> =>
    new Map(await Promise.all(chains.list.map(async (chain) => [chain.chainId, await chains.control.find(chain.chainId)!.snapshot()] as const)));
  /** How each chain makes blocks now (automine, interval mining), to put back at a revert. */
  const captureMining = async (): Promise<Map<number, () => Promise<void>>> =>
    new Map(await Promise.all(chains.list.map(async (chain) => [chain.chainId, await chains.control.find(chain.chainId)!.captureMining()] as const)));

  const take = async (id: string, keep: boolean): Promise<WorldSnapshot> => {
    await solver.idle({ unlessHeld: async () => true });
    await requestEvents.webhookDispatcher.idle();
    await Promise.all(chains.list.map((chain) => chain.syncNow()));
    const [chainSnapshots, mining] = await Promise.all([takeChainSnapshots(), captureMining()]);
    const snapshot: WorldSnapshot = {
      id,
      keep,
      chainSnapshots,
      mining,
      databaseCopy: database.take(),
      clockMs: clock.now(),
      rng: rng.capture(),
      rules: solver.captureRules(),
      faults: chains.rpcFaults.list(),
      rateLimits: rateLimiters.capture(),
    };
    held.push(snapshot);
    return snapshot;
  };

  /**
   * Reverts one chain to its part of `target`, then lets its adapter read it again while, when
   * `target` is kept, the chain's snapshot is taken again (the adapter sends nothing before: the
   * snapshot holds the chain exactly as at the first take). Each chain does so on its own, all at once.
   */
  const revertChain = async (chain: ChainAdapter, target: WorldSnapshot, resumeWatching: () => void): Promise<void> => {
    const control = chains.control.find(chain.chainId)!;
    try {
      await control.revert(target.chainSnapshots.get(chain.chainId)!);
    } finally {
      resumeWatching();
    }
    // what the chain reported while it went back described the world left behind
    solver.dropHeardWhilePaused(chain.chainId);
    const retaken = target.keep ? control.snapshot().then((id) => void target.chainSnapshots.set(chain.chainId, id)) : undefined;
    const restoreMining = target.mining.get(chain.chainId);
    await Promise.all([retaken, chain.syncNow({ afterWorldRevert: true, ...(retaken ? { sendAfter: retaken } : {}), ...(restoreMining ? { restoreMining } : {}) })]);
  };

  const revertTo = async (id: string): Promise<void> => {
    const index = held.findIndex((snapshot) => snapshot.id === id);
    if (index < 0) throw new WorldSnapshotNotFoundError(id);
    const target = held[index]!;
    // no request answers from, or writes into, a world half put back; no user's transaction reaches a chain meanwhile
    const [releaseRequests, ...releaseUserCalls] = await Promise.all([parts.requestsInFlight?.hold(), ...chains.list.map((chain) => chains.control.find(chain.chainId)!.holdUserCalls())]);
    try {
      await revertHeld(index, target);
    } finally {
      for (const release of releaseUserCalls) release();
      releaseRequests?.();
    }
  };

  const revertHeld = async (index: number, target: WorldSnapshot): Promise<void> => {
    await solver.pause();
    await requestEvents.webhookDispatcher.pause();
    const resumes: Array<() => void> = [];
    try {
      // no watcher writes a block of the world left behind into the tables put back (a reorg, once the chain reverts)
      resumes.push(...(await Promise.all(chains.list.map((chain) => chains.control.find(chain.chainId)!.pauseWatching()))));
      // the tables first: a chain's watcher, as its chain goes back, then finds the index it had at
      // the snapshot (no reorg to report, no solver transaction of the later world to send again)
      database.restore(target.databaseCopy);
      stores.meta.forgetTaken();
      stores.ledgerJournal?.forgetSequences();
      clock.restoreTo(target.clockMs);
      rng.restore(target.rng);
      solver.restoreRules(target.rules);
      chains.rpcFaults.replaceAll(target.faults);
      rateLimiters.restore(target.rateLimits);
      const reverted = await Promise.allSettled(chains.list.map((chain, at) => revertChain(chain, target, resumes[at]!)));
      const refused = reverted.find((outcome) => outcome.status === 'rejected');
      if (refused) throw refused.reason;
    } finally {
      // each chain's watcher resumed once it reverted (revertChain); here also those a failure left paused
      for (const resume of resumes) resume();
      requestEvents.webhookDispatcher.resume();
      solver.resume();
    }
    // like each chain's own: the later snapshots are gone, and this one is used up unless kept
    for (const later of held.splice(index + 1)) database.drop(later.databaseCopy);
    if (!target.keep) {
      held.splice(index, 1);
      database.drop(target.databaseCopy);
    }
  };

  return {
    snapshot: (options = {}) => serial(async () => (await take(`0x${(nextId++).toString(16)}`, options.keep === true)).id),
    revert: (id) => serial(() => revertTo(id)),
    reset: () =>
      serial(async () => {
        if (startRefused !== undefined) throw startRefused;
        await revertTo(START_ID);
      }),
    /** The start's own kept snapshot; a chain that has none leaves `reset()` refused with its reason. */
    takeStartSnapshot: () =>
      serial(async () => {
        try {
          await take(START_ID, true);
        } catch (error) {
          startRefused = error;
        }
      }),
  };
}
