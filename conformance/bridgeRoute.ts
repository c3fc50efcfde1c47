import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { skipCheck } from './check';
import type { ConformanceTarget, TargetChain } from './target';
import { sharedRun } from './sharedRuns';
import { publicClientOf } from './wallet';

/** A native-currency bridge full mode can pay: two EVM chains whose RPC answers here, the account funded on the origin. */
export interface BridgeRoute {
  origin: TargetChain & { currency: NonNullable<TargetChain['currency']> };
  destination: TargetChain & { currency: NonNullable<TargetChain['currency']> };
  rpcUrls: Record<number, string>;
  privateKey: Hex;
  user: Address;
  /** What the bridge sends: a thousandth of a whole native unit of the origin. */
  amount: bigint;
}

/**
 * The route every paying check uses, found once per run. Skips (with the reason) when the run
 * has no funded account, fewer than two EVM chains answer on their RPC, or the account cannot
 * pay on any of them.
 */
export function bridgeRouteOf(target: ConformanceTarget): Promise<BridgeRoute> {
  return sharedRun(target, 'bridge-route', () => findBridgeRoute(target));
}

async function findBridgeRoute(target: ConformanceTarget): Promise<BridgeRoute> {
  const privateKey = target.options.privateKey;
  if (!privateKey) skipCheck('full mode pays deposits from a funded account: none was given (privateKey / --private-key)');
  const user = privateKeyToAccount(privateKey).address;
  const candidates = (await target.evmChains()).filter((chain) => chain.currency && target.rpcUrlOf(chain));
  const reachable: Array<{ chain: TargetChain & { currency: NonNullable<TargetChain['currency']> }; rpcUrl: string; balance: bigint }> = [];
  const unreachable: string[] = [];
  for (const chain of candidates) {
    const rpcUrl = target.rpcUrlOf(chain)!;
    try {
      const client = publicClientOf(rpcUrl, 3_000);
      const servedId = await client.getChainId();
      if (servedId !== chain.id) {
        unreachable.push(`${chain.id} (its RPC serves chain ${servedId})`);
        continue;
      }
      reachable.push({ chain: chain as TargetChain & { currency: NonNullable<TargetChain['currency']> }, rpcUrl, balance: await client.getBalance({ address: user }) });
    } catch {
      unreachable.push(`${chain.id} (${rpcUrl} does not answer)`);
    }
  }
  if (reachable.length < 2) skipCheck(`a bridge needs two EVM chains whose RPC answers here; usable: ${reachable.map((r) => r.chain.id).join(', ') || 'none'}; not: ${unreachable.join(', ') || 'none'} (pass rpcUrls / --rpc)`);
  const amountOn = (chain: TargetChain & { currency: { decimals: number } }) => 10n ** BigInt(Math.max(chain.currency.decimals - 3, 0));
  const origin = reachable.find((r) => r.balance >= amountOn(r.chain) * 2n);
  if (!origin) skipCheck(`the account ${user} holds too little native currency on every chain to pay a bridge`);
  const destination = reachable.find((r) => r.chain.id !== origin.chain.id)!;
  return {
    origin: origin.chain,
    destination: destination.chain,
    rpcUrls: Object.fromEntries(reachable.map((r) => [r.chain.id, r.rpcUrl])),
    privateKey,
    user,
    amount: amountOn(origin.chain),
  };
}
