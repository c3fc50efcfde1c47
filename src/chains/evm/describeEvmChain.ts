import type { ChainMetadata } from '../../../fixtures/chains';
import type { ChainDescription } from '../../domain/chain/chainDescription';
import type { Currency } from '../../domain/chain/currency';
import type { SimulatorContracts } from './deploySimulatorContracts';
import { shownUpstream } from '../../config/shownUpstream';

/** What an EVM chain describes (SPEC §4.4 `/chains`, the start summary): its URLs for users, currencies and the simulator's contracts. */
export function describeEvmChain(chain: {
  metadata: ChainMetadata;
  contracts: SimulatorContracts;
  /** What users get: the front's URLs for a node the simulator spawned, the node's own for an attached one. */
  endpoints: { rpcUrl: string; wsUrl: string };
  nativeCurrency: Currency;
  erc20Currencies: Currency[];
  solverAddress: string;
  logFile: string;
  /** The upstream it forks (`--fork`) and the block it is pinned at. */
  fork?: { url: string; blockNumber: bigint };
}): ChainDescription {
  const { metadata, contracts, endpoints } = chain;
  return {
    id: metadata.id,
    name: metadata.name,
    displayName: metadata.displayName,
    vmType: 'evm',
    httpRpcUrl: endpoints.rpcUrl,
    wsRpcUrl: endpoints.wsUrl,
    nativeCurrency: chain.nativeCurrency,
    erc20Currencies: chain.erc20Currencies,
    contracts: {
      multicall3: contracts.multicall3,
      multicaller: contracts.multicall3,
      onlyOwnerMulticaller: contracts.multicall3,
      serviceReceiver: contracts.serviceReceiver,
      erc20Router: contracts.depository,
      approvalProxy: contracts.depository,
      v3: { erc20Router: contracts.depository, approvalProxy: contracts.depository },
    },
    depository: contracts.depository,
    solverAddress: chain.solverAddress,
    summaryContracts: [
      { label: 'depository', address: contracts.depository },
      { label: 'service receiver', address: contracts.serviceReceiver },
      { label: 'USDC (6 dec.)', address: contracts.stablecoin },
      { label: 'wrapped native', address: contracts.wrappedNative },
      { label: 'multicall3', address: contracts.multicall3 },
      { label: 'deposit addresses', address: contracts.depositAddressFactory, note: '(factory)' },
      { label: 'pool', address: contracts.pool, note: '(wrapped native / USDC, x·y=k, 0.3% fee)' },
    ],
    logFile: chain.logFile,
    ...(chain.fork ? { fork: { url: shownUpstream(chain.fork.url), note: `pinned at its block ${chain.fork.blockNumber}: accounts, code and storage read from it at first use, kept; nothing is sent upstream` } } : {}),
  };
}
