import { Router } from 'express';
import type { ChainAdapter } from '../../chains/ChainAdapter';
import { explorerLinksFor } from '../../domain/chain/explorerLinks';
import { buildChainView } from '../../domain/chain/chainView';
import { describedForClient } from '../../config/clientChainUrl';
import type { PublicOrigin } from '../publicOrigin';

/**
 * SPEC §4.4: `GET /chains`, no key required (the official SDK sends none to a local URL).
 * `explorerUrl` points at the simulator's own explorer pages, on the URL the client used (or
 * `--public-url`); the RPC URLs at the host the client can reach (docs/shared-host.md).
 */
export function chainRoutes(deps: { chains: ReadonlyMap<number, ChainAdapter>; publicOrigin: PublicOrigin }): Router {
  const router = Router();
  router.get('/chains', (req, res) => {
    const baseUrl = deps.publicOrigin.baseUrl(req);
    const hostname = deps.publicOrigin.chainHostname(req);
    res.json({
      chains: [...deps.chains.values()].map((chain) => buildChainView(describedForClient(chain.describe(), hostname), explorerLinksFor({ id: chain.chainId, vmType: chain.vmType }, baseUrl))),
    });
  });
  return router;
}
