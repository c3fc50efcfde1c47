/**
 * The embedded exchange node's face: all the LVM adapter (`chains/lvm/`) and the entry points may
 * use of it. The rest of this folder is the node's own.
 */

// the node, run by the adapter or alone
export { LvmNode, type LvmNodeOptions, type LvmForkUpstream } from './LvmNode';
export { startLvmNode, type StartedLvmNode, type LvmNodeStartOptions } from './startLvmNode';
export type { LvmReadThrough } from './LvmReadThrough';
export { isLvmUpstreamFailure, LvmUpstreamApi, LVM_UPSTREAM_TIMEOUT_MS } from './LvmUpstreamApi';
export type { LvmGenesis } from './writeLvmGenesis';

// its ledger, the one in-process interface the adapter reads and writes, and the refusal of a transfer
export { lvmTransferHash, LvmTransferRefusedError, type LvmLedger, type LvmTransaction, type LvmTransferParams } from './LvmLedger';

// the exchange's assets, routes and fee
export { LVM_TRANSFER_FEE, ROUTE_PERP, USDC_ASSET } from './lvmAssets';
