import type { VmType } from '../domain/chain/chainDescription';
import { EVM_REPLAY_FORKING } from './evm/evmReplayForking';
import type { ReplayForking } from './ReplayForking';

export type { ReplayForkAsk, ReplayForking, ReplayForkPoint } from './ReplayForking';

/** The kinds a replay can fork today; Solana, Bitcoin and Lighter add theirs here. */
const REPLAY_FORKING: Partial<Record<VmType, ReplayForking>> = { evm: EVM_REPLAY_FORKING };

/** A kind's replay forking, or undefined where the kind cannot be replayed yet. */
export function replayForkingFor(vm: VmType): ReplayForking | undefined {
  return REPLAY_FORKING[vm];
}
