import type { ChainExplorerLinks, VmType } from '../domain/chain/chainDescription';

/**
 * The path of a transaction page on a chain's explorer, by VM kind: EVM explorers use `/tx/`,
 * the non-EVM chains `/transaction/` (SPEC §2.1, §4.3). The one place that picks it: a new VM
 * gets its links from here without touching its adapter.
 */
function transactionPathOf(vm: VmType): string {
  return vm === 'evm' ? '/tx/{TX_HASH}' : '/transaction/{TX_HASH}';
}

/**
 * SPEC §2.1 `explorerUrl`, `explorerName`, `explorerPaths` of one chain: the simulator's own
 * explorer pages (served by the API at `/explorer/<chainId>/…`), absolute under `baseUrl`.
 */
export function explorerLinksFor(chain: { id: number; vmType: VmType }, baseUrl: string): ChainExplorerLinks {
  return {
    explorerUrl: `${baseUrl}/explorer/${chain.id}`,
    explorerName: 'intentsim explorer',
    explorerPaths: {
      transaction: transactionPathOf(chain.vmType),
      address: '/address/{ADDRESS}',
      token: '/address/{ADDRESS}',
      block: '/block/{BLOCK}',
    },
  };
}
