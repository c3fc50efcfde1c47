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

  private call(method: string, params: readonly unknown[] = []): Promise<unknown> {
    return callJsonRpc(this.options.rpcUrl, method, params);
  }
}
