import type { VmType } from '../domain/chain/chainDescription';
import type { ChainKindFacts } from './ChainKindFacts';
import { BVM_KIND_FACTS } from './bvm/bvmKindFacts';
import { EVM_KIND_FACTS } from './evm/evmKindFacts';
import { LVM_KIND_FACTS } from './lvm/lvmKindFacts';
import { SVM_KIND_FACTS } from './svm/svmKindFacts';

export type { ChainKindFacts, OtherCurrencyDeposit } from './ChainKindFacts';

/** Each kind's facts, as its adapter folder states them (small files: no adapter code loads). */
const FACTS: Record<VmType, ChainKindFacts> = { evm: EVM_KIND_FACTS, svm: SVM_KIND_FACTS, bvm: BVM_KIND_FACTS, lvm: LVM_KIND_FACTS };

/** The facts of a kind of chain (ChainKindFacts): what the configuration and `scenario from-record` ask instead of comparing `vmType`s. */
export function chainKindFacts(vm: VmType): ChainKindFacts {
  return FACTS[vm];
}
