import { createPublicClient, createTestClient, http, type Chain, type PublicClient, type TestClient } from 'viem';
import { Agent } from 'node:http';
import type { ChainAdapterContext } from '../chainAdapterContext';
import type { AnvilEndpoints } from './AnvilInstance';
import { ipcTransport, type IpcTransport } from './ipcTransport';
import { nodeHttpFetch } from './nodeHttpFetch';
import { quoteScopedTransport, stateChangeTransport } from './quoteScopedTransport';
import type { SameStateReadCache } from './SameStateReadCache';

/** How long a spawned node's IPC socket may take to answer its first call before HTTP is used instead. */
const IPC_PROBE_TIMEOUT_MS = 2000;

/** A node that answers: its endpoints and the viem clients on it (before contracts are deployed). */
export interface BootedNode {
  endpoints: AnvilEndpoints;
  client: PublicClient;
  testClient: TestClient;
  /** The kept-alive sockets of the HTTP clients (plain HTTP nodes). */
  agent?: Agent;
  /** The public client's transport, for a node spawned with an IPC socket. */
  ipc?: IpcTransport;
}

/**
 * The viem clients on a started node: cheat calls (and every call to a node attached by URL) over
 * node:http kept alive; the simulator's own calls (quotes, solver, watcher) to a node it spawned over
 * its IPC socket when that answers with the chain's id; quote reads scoped and cached per state.
 */
export async function connectEvmNode(params: {
  chainId: number;
  endpoints: AnvilEndpoints;
  chain: Chain;
  quoteRpc: ChainAdapterContext['quoteRpc'];
  sameStateReads: SameStateReadCache;
  log?: (message: string) => void;
}): Promise<BootedNode> {
  const { chainId, endpoints, chain, sameStateReads } = params;
  const agent = endpoints.rpcUrl.startsWith('http:') ? new Agent({ keepAlive: true }) : undefined;
  const fetchFn = agent ? nodeHttpFetch(agent) : undefined;
  const rpc = () => http(endpoints.rpcUrl, fetchFn ? { fetchFn } : {});
  const ipc = endpoints.ipcPath ? await openIpc(chainId, endpoints.ipcPath, params.log) : undefined;
  const transport = quoteScopedTransport(stateChangeTransport(ipc ? ipc.transport : rpc(), sameStateReads), { chainId, ...params.quoteRpc, reads: sameStateReads });
  return {
    endpoints,
    client: createPublicClient({ chain, transport }),
    testClient: createTestClient({ chain, mode: 'anvil', transport: stateChangeTransport(ipc ? ipc.transport : rpc(), sameStateReads) }),
    ...(agent ? { agent } : {}),
    ...(ipc ? { ipc } : {}),
  };
}

/** The node's IPC socket once it answers with this chain's id; undefined (HTTP is used) if it does not. */
async function openIpc(chainId: number, path: string, log: ((message: string) => void) | undefined): Promise<IpcTransport | undefined> {
  const ipc = ipcTransport(path);
  const answered = await ipc.probe(IPC_PROBE_TIMEOUT_MS).catch((error: unknown) => error);
  if (answered === chainId) return ipc;
  ipc.close();
  log?.(`chain ${chainId}: the IPC socket ${path} did not answer (${answered instanceof Error ? answered.message : String(answered)}); using HTTP`);
  return undefined;
}
