import type { ConformanceHttp } from './http';
import type { ConformanceMode } from './check';

/** A chain as far as the suite needs it (read loosely: the §2.1 checks judge the full shape). */
export interface TargetChain {
  id: number;
  name: string;
  vmType: string;
  httpRpcUrl?: string;
  depositEnabled: boolean;
  disabled: boolean;
  currency?: { symbol: string; address: string; decimals: number };
  erc20Currencies: Array<{ symbol: string; address: string; decimals: number }>;
  solverAddresses: string[];
  depository?: string;
}

export interface TargetOptions {
  /** A funded account for full mode (hex private key): pays the deposits. */
  privateKey?: `0x${string}`;
  /** Chain RPC URLs by chain id, when `/chains` `httpRpcUrl` is not reachable from here. */
  rpcUrls?: Record<number, string>;
}

/**
 * What the suite knows of the deployment under test: its chains (from `GET /chains`, once),
 * whether it has the simulator's control plane (probed only in full mode: read-only never
 * calls `/admin`), and the funded account full mode pays from.
 */
export class ConformanceTarget {
  private chainList: Promise<TargetChain[]> | undefined;
  private controlPlaneProbe: Promise<boolean> | undefined;

  constructor(
    private readonly http: ConformanceHttp,
    readonly mode: ConformanceMode,
    readonly options: TargetOptions = {},
  ) {}

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  get apiKey(): string | undefined {
    return this.http.apiKey;
  }

  /** The chains `GET /chains` lists (an empty list when it does not answer a list). */
  chains(): Promise<TargetChain[]> {
    this.chainList ??= this.http.get('/chains').then((exchange) => {
      const chains = (exchange.json as { chains?: unknown } | undefined)?.chains;
      return Array.isArray(chains) ? chains.flatMap(readChain) : [];
    });
    return this.chainList;
  }

  /** EVM chains that take deposits, in the order `/chains` lists them. */
  async evmChains(): Promise<TargetChain[]> {
    return (await this.chains()).filter((chain) => chain.vmType === 'evm' && chain.depositEnabled && !chain.disabled);
  }

  rpcUrlOf(chain: TargetChain): string | undefined {
    return this.options.rpcUrls?.[chain.id] ?? chain.httpRpcUrl;
  }

  /** True when the target answers the simulator's control plane (`GET /admin/clock`); always false in read-only mode. */
  hasControlPlane(): Promise<boolean> {
    if (this.mode === 'read-only') return Promise.resolve(false);
    this.controlPlaneProbe ??= this.http
      .get('/admin/clock', { withApiKey: true })
      .then((exchange) => exchange.status === 200 && typeof (exchange.json as { now?: unknown } | undefined)?.now === 'number')
      .catch(() => false);
    return this.controlPlaneProbe;
  }
}

function readChain(raw: unknown): TargetChain[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const chain = raw as Record<string, any>;
  if (typeof chain.id !== 'number') return [];
  const currencyOf = (c: any) => (c && typeof c === 'object' ? { symbol: String(c.symbol), address: String(c.address), decimals: Number(c.decimals) } : undefined);
  return [
    {
      id: chain.id,
      name: String(chain.name ?? chain.id),
      vmType: String(chain.vmType ?? 'evm'),
      ...(typeof chain.httpRpcUrl === 'string' ? { httpRpcUrl: chain.httpRpcUrl } : {}),
      depositEnabled: chain.depositEnabled !== false,
      disabled: chain.disabled === true,
      ...(currencyOf(chain.currency) ? { currency: currencyOf(chain.currency)! } : {}),
      erc20Currencies: Array.isArray(chain.erc20Currencies) ? chain.erc20Currencies.flatMap((c: unknown) => currencyOf(c) ?? []) : [],
      solverAddresses: Array.isArray(chain.solverAddresses) ? chain.solverAddresses.map(String) : [],
      ...(typeof chain.protocol?.v2?.depository === 'string' ? { depository: chain.protocol.v2.depository } : {}),
    },
  ];
}
