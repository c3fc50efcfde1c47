import type { VirtualClock } from '../clock/VirtualClock';
import type { DropTransactionsFault } from '../domain/chain/dropTransactionTargets';
import type { ChainAdapter } from './ChainAdapter';
import type { ChainCheats } from './capabilities/ChainCheats';
import { requireCapability, requireCheat, requireCheatCapability } from './capabilities/requireCapability';

/**
 * A chain as the control plane sees it (`sim.control.chain(id)`): its adapter, and every cheat call
 * as a method — one the chain lacks answers `UNSUPPORTED_ON_CHAIN` (through `requireCapability`)
 * instead of being absent.
 */
export type ControlledChain = ChainAdapter & Required<ChainCheats>;

/**
 * The control plane's time and chains (docs/control-plane.md), built by the root and handed to the
 * admin routes, `sim.control` and the scenario steps, so none of them reaches a chain's cheat
 * calls but through here.
 */
export class ChainControl {
  private readonly controlled = new Map<number, ControlledChain>();

  constructor(private readonly deps: { clock: VirtualClock; chains: ReadonlyMap<number, ChainAdapter> }) {}

  /**
   * Moves simulation time forward by `seconds`: every chain's block time first (the next block is
   * that much later), then the virtual clock, whose due timers (solver delays, webhook retries, the
   * fill inclusion window) fire. The one way the control plane, the admin API and scenarios move time.
   */
  async advanceTime(seconds: number): Promise<void> {
    for (const chain of this.deps.chains.values()) await chain.cheats?.increaseTime(Math.ceil(seconds));
    this.deps.clock.advance(Math.round(seconds * 1000));
  }

  /** The chains run, by id. */
  chainIds(): number[] {
    return [...this.deps.chains.keys()];
  }

  /** Every chain's fault "drop transactions" now, by chain id (`GET /admin/faults`). */
  droppedTransactionFaults(): DropTransactionsFault[] {
    const faults: DropTransactionsFault[] = [];
    for (const chain of this.deps.chains.values()) {
      const target = chain.cheats?.transactionFaults?.droppedTarget() ?? null;
      if (target) faults.push({ chainId: chain.chainId, kind: 'drop-transactions', target });
    }
    return faults.sort((a, b) => a.chainId - b.chainId);
  }

  /** The chain `chainId` with its cheat calls; undefined when the simulator does not run it. */
  find(chainId: number): ControlledChain | undefined {
    const chain = this.deps.chains.get(chainId);
    if (!chain) return undefined;
    let controlled = this.controlled.get(chainId);
    if (!controlled) this.controlled.set(chainId, (controlled = controlledChain(chain)));
    return controlled;
  }
}

/** The adapter, read through (its own members answer as they are), with the cheat calls on top. */
function controlledChain(chain: ChainAdapter): ControlledChain {
  const cheats = (what: string) => requireCapability(chain, 'cheats', what);
  // async: a cheat the chain lacks rejects, as the adapter's own async methods do
  const calls: Required<ChainCheats> = {
    mine: async (blocks = 1) => cheats(`mining ${blocks} block(s)`).mine(blocks),
    isPending: async (txHash) => cheats('a pending-transaction look-up').isPending(txHash),
    setIntervalMining: async (seconds) => cheats(`interval mining every ${seconds} s`).setIntervalMining(seconds),
    setNextBlockTimestamp: async (unixSeconds) => cheats(`the next block's timestamp ${unixSeconds}`).setNextBlockTimestamp(unixSeconds),
    increaseTime: async (seconds) => cheats(`moving block time ${seconds} s`).increaseTime(seconds),
    setAutomine: async (enabled) => requireCheat(chain, 'setAutomine', `automine ${enabled ? 'on' : 'off'}`)(enabled),
    setCode: async (address, code) => requireCheat(chain, 'setCode', `replacing the code at ${address}`)(address, code),
    snapshot: async () => requireCheat(chain, 'snapshot', 'a snapshot')(),
    revert: async (snapshotId) => requireCheat(chain, 'revert', `a revert to ${snapshotId}`)(snapshotId),
    // a chain whose watcher cannot pause has nothing to pause: it is indexed only when asked
    pauseWatching: async () => (await chain.cheats?.pauseWatching?.()) ?? (() => undefined),
    // a chain whose block making never changes has nothing to put back
    captureMining: async () => (await chain.cheats?.captureMining?.()) ?? (async () => undefined),
    holdUserCalls: async () => (await chain.cheats?.holdUserCalls?.()) ?? (() => undefined),
    reorg: async (depth) => requireCheat(chain, 'reorg', `a reorg of depth ${depth}`)(depth),
    doubleSpends: { doubleSpend: async (privateKey, txHash, options) => requireCheatCapability(chain, 'doubleSpends', `a double spend of ${txHash}`).doubleSpend(privateKey, txHash, options) },
    transactionFaults: {
      dropTransactions: (target) => requireCheatCapability(chain, 'transactionFaults', target === null ? 'lifting dropped transactions' : `dropping ${target} transactions`).dropTransactions(target),
      droppedTarget: () => chain.cheats?.transactionFaults?.droppedTarget() ?? null,
    },
    exchangeAccounts: { setAccount: (account, change) => requireCheatCapability(chain, 'exchangeAccounts', `a change to account ${account}`).setAccount(account, change) },
  };
  return new Proxy(chain, {
    get(target, key) {
      if (Object.hasOwn(calls, key)) return calls[key as keyof ChainCheats];
      const value: unknown = Reflect.get(target, key, target);
      // the adapter's own methods run on the adapter itself (its private state), never on the proxy
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as ControlledChain;
}
