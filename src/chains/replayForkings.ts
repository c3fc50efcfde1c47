import type { VmType } from '../domain/chain/chainDescription';
import { BVM_REPLAY_FORKING } from './bvm/bvmReplayForking';
import { EVM_REPLAY_FORKING } from './evm/evmReplayForking';
import { LVM_REPLAY_FORKING } from './lvm/lvmReplayForking';
import { SVM_REPLAY_FORKING } from './svm/svmReplayForking';
import type { ReplayForking } from './ReplayForking';

export type { ReplayForkAsk, ReplayForking, ReplayForkPoint } from './ReplayForking';

/** How each kind replays a request (docs/forking.md "Replay per chain kind"). */
const REPLAY_FORKING: Record<VmType, ReplayForking> = { evm: EVM_REPLAY_FORKING, svm: SVM_REPLAY_FORKING, bvm: BVM_REPLAY_FORKING, lvm: LVM_REPLAY_FORKING };

/** A kind's replay forking. */
export function replayForkingFor(vm: VmType): ReplayForking {
  return REPLAY_FORKING[vm];
}
