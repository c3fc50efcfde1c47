import type { UnexpectedExitListener } from '../../process/ChildProcessInstance';
import type { AnvilEndpoints } from './AnvilInstance';
import { callJsonRpc } from './callJsonRpc';

/**
 * An Anvil the simulator did not spawn (a user's own node, or a test worker's pooled chain).
 * With `resetOnStart` it is reset to genesis state (`anvil_reset`) before use, so a pooled
 * node serves each lease like a fresh one.
 */
export class ExternalEvmNode {
  readonly logFile = '(external node: no log file)';
  /**
   * Once started with `resetOnStart`: what the node's genesis is made of (environment, hard fork, the upstream it forks if it is a fork,
   * dev accounts and the first one's balance), so that a deployment kept from an earlier attach is
   * loaded only onto the same genesis (deploymentSnapshots.ts). Undefined for a node not reset.
   */
  resetGenesis: string | undefined;

  constructor(private readonly options: { chainId: number; rpcUrl: string; resetOnStart: boolean }) {}

  get rpcUrl(): string {
    return this.options.rpcUrl;
  }

  async start(): Promise<AnvilEndpoints> {
    const chainIdHex = (await this.call('eth_chainId')) as string;
    if (Number(chainIdHex) !== this.options.chainId) {
      throw new Error(`node at ${this.options.rpcUrl} is chain ${Number(chainIdHex)}, configured as ${this.options.chainId}`);
    }
    if (this.options.resetOnStart) {
      // anvil_reset keeps the mining mode and the pool: a lease starts mining on arrival, with an empty pool
      await this.call('anvil_reset');
      await this.call('anvil_dropAllTransactions');
      await this.call('evm_setIntervalMining', [0]);
      await this.call('evm_setAutomine', [true]);
      this.resetGenesis = await this.genesisFingerprint();
    }
    const url = new URL(this.options.rpcUrl);
    const wsUrl = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
    return { rpcUrl: this.options.rpcUrl, wsUrl, port: Number(url.port) };
  }

  async stop(): Promise<void> {
    // not ours to stop
  }

  onUnexpectedExit(_listener: UnexpectedExitListener): () => void {
    return () => undefined;
  }

  private async genesisFingerprint(): Promise<string> {
    const [info, devAccounts] = (await Promise.all([this.call('anvil_nodeInfo'), this.call('eth_accounts')])) as [{ hardFork?: unknown; transactionOrder?: unknown; environment?: unknown; forkConfig?: unknown }, string[]];
    const balance = devAccounts[0] === undefined ? null : await this.call('eth_getBalance', [devAccounts[0], 'latest']);
    // a node that is itself a fork: its genesis is its upstream's state at the fork block
    return JSON.stringify({ hardFork: info.hardFork, transactionOrder: info.transactionOrder, environment: info.environment, forkConfig: info.forkConfig ?? null, devAccounts, balance });
  }

  private call(method: string, params: readonly unknown[] = []): Promise<unknown> {
    return callJsonRpc(this.options.rpcUrl, method, params);
  }
}
