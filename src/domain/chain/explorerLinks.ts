import type { ChainExplorerLinks, VmType } from './chainDescription';

/**
 * The path of a transaction page on a chain's explorer, by VM kind. SPEC §4.3 ties
 * `/transaction/{TX_HASH}` to one rule: a request whose origin has that path reports its
 * `inTxs[].txHash` as the bare 64-character hex hash. Only the perpetuals exchange (lvm) reports
 * hashes that way, so only it has that path; EVM, SVM and Bitcoin-style chains use `/tx/`, as their
 * usual explorers do (SVM signatures are base58, never 64 hex). The one place that picks it: a
 * new VM gets its links from here without touching its adapter.
 */
function transactionPathOf(vm: VmType): string {
  return vm === 'lvm' ? '/transaction/{TX_HASH}' : '/tx/{TX_HASH}';
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
