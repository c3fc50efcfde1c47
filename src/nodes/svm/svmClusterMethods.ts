import type { SvmLedger } from './SvmLedger';
import { SvmRpcError } from './svmRpcEncoding';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './svmProgramIds';
import { u64Param, type SvmRpcMethod } from './svmRpcParams';

/** What a local validator's `getEpochSchedule` answers (no warm-up: every epoch has 432,000 slots). */
export const SVM_SLOTS_PER_EPOCH = 432_000n;
/** The node's one "validator": the identity `getIdentity` and `getClusterNodes` name. */
const NODE_IDENTITY = '11111111111111111111111111111111';
/** A validator's range limit for `getBlocks` (Agave's `MAX_GET_CONFIRMED_BLOCKS_RANGE`). */
const MAX_BLOCKS_RANGE = 500_000n;

/**
 * The cluster's reads a wallet or an indexer asks once: which blocks exist (`getBlocks`,
 * `getBlocksWithLimit`, `getFirstAvailableBlock`, `minimumLedgerSlot`), and the constants of a
 * one-validator cluster with no staking and no inflation paid (`getInflationGovernor`,
 * `getInflationRate`, `getEpochSchedule`, `getSupply`, `getVoteAccounts` empty, `getClusterNodes`…),
 * answered in a validator's shapes.
 */
export function svmClusterMethods(ledger: SvmLedger, endpoints: () => { rpcUrl: string | undefined }): Record<string, SvmRpcMethod> {
  const withContext = (value: unknown) => ({ context: { slot: ledger.currentSlot(), apiVersion: '2.2.0' }, value });
  const epochOf = (slot: bigint) => slot / SVM_SLOTS_PER_EPOCH;
  const slotsBetween = (start: bigint, end: bigint) => {
    const slots: bigint[] = [];
    for (let slot = start; slot <= end && slot <= ledger.currentSlot(); slot++) if (ledger.block(slot)) slots.push(slot);
    return slots;
  };
  return {
    getBlocks: ([start, end]) => {
      const from = u64Param(start, 'start_slot');
      const to = end === undefined || end === null || typeof end === 'object' ? ledger.currentSlot() : u64Param(end, 'end_slot');
      if (to < from) return [];
      if (to - from > MAX_BLOCKS_RANGE) throw new SvmRpcError(-32602, `Slot range too large; max ${MAX_BLOCKS_RANGE}`);
      return slotsBetween(from, to);
    },
    getBlocksWithLimit: ([start, limit]) => {
      const from = u64Param(start, 'start_slot');
      const count = u64Param(limit, 'limit');
      if (count > MAX_BLOCKS_RANGE) throw new SvmRpcError(-32602, `Limit too large; max ${MAX_BLOCKS_RANGE}`);
      return count === 0n ? [] : slotsBetween(from, from + count - 1n);
    },
    getFirstAvailableBlock: () => 0,
    minimumLedgerSlot: () => 0,
    getMaxRetransmitSlot: () => ledger.currentSlot(),
    getMaxShredInsertSlot: () => ledger.currentSlot(),
    getTransactionCount: () => BigInt([...ledger.transactions()].length),
    getSlotLeader: () => NODE_IDENTITY,
    getSlotLeaders: ([, limit]) => {
      const count = u64Param(limit, 'limit');
      if (count > 5000n) throw new SvmRpcError(-32602, 'Invalid limit; max 5000');
      return Array.from({ length: Number(count) }, () => NODE_IDENTITY);
    },
    getLeaderSchedule: () => ({ [NODE_IDENTITY]: [] }),
    getEpochSchedule: () => ({ firstNormalEpoch: 0, firstNormalSlot: 0, leaderScheduleSlotOffset: SVM_SLOTS_PER_EPOCH, slotsPerEpoch: SVM_SLOTS_PER_EPOCH, warmup: false }),
    getEpochInfo: () => {
      const slot = ledger.currentSlot();
      return { absoluteSlot: slot, blockHeight: slot, epoch: epochOf(slot), slotIndex: slot % SVM_SLOTS_PER_EPOCH, slotsInEpoch: SVM_SLOTS_PER_EPOCH, transactionCount: BigInt([...ledger.transactions()].length) };
    },
    // mainnet's schedule (the constants a wallet shows); no inflation is paid on this chain
    getInflationGovernor: () => ({ foundation: 0.05, foundationTerm: 7, initial: 0.08, taper: 0.15, terminal: 0.015 }),
    getInflationRate: () => ({ epoch: epochOf(ledger.currentSlot()), foundation: 0, total: 0.08, validator: 0.08 }),
    getInflationReward: ([addresses]) => (Array.isArray(addresses) ? addresses.map(() => null) : []),
    getStakeMinimumDelegation: () => withContext(1_000_000_000),
    getSupply: () => {
      const total = totalLamports(ledger);
      return withContext({ circulating: total, nonCirculating: 0, nonCirculatingAccounts: [], total });
    },
    getVoteAccounts: () => ({ current: [], delinquent: [] }),
    getClusterNodes: () => {
      const rpc = endpoints().rpcUrl?.replace(/^http:\/\//, '') ?? null;
      return [{ pubkey: NODE_IDENTITY, gossip: null, tpu: null, tpuQuic: null, rpc, pubsub: null, version: '2.2.0', featureSet: 0, shredVersion: 0 }];
    },
    getIdentity: () => ({ identity: NODE_IDENTITY }),
    getHighestSnapshotSlot: () => {
      throw new SvmRpcError(-32008, 'No snapshot');
    },
    getRecentPerformanceSamples: () => [],
    getBlockProduction: () => withContext({ byIdentity: { [NODE_IDENTITY]: [Number(ledger.currentSlot()), Number(ledger.currentSlot())] }, range: { firstSlot: 0, lastSlot: ledger.currentSlot() } }),
    getBlockCommitment: ([slot]) => (u64Param(slot, 'slot'), { commitment: null, totalStake: 0 }),
  };
}

/** The lamports `getSupply` counts: every account of the System, SPL Token and Token-2022 programs (wallets, mints, token accounts). */
function totalLamports(ledger: SvmLedger): bigint {
  let total = 0n;
  for (const program of [SYSTEM_PROGRAM, TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) for (const account of ledger.svm.getProgramAccounts(program)) total += account.lamports;
  return total;
}
