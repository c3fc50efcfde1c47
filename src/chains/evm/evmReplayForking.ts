import { createPublicClient, createTestClient, encodeFunctionData, erc20Abi, getAddress, http, type Address, type Hex, type PublicClient } from 'viem';
import type { ReplayForkAsk, ReplayForking, ReplayForkPoint } from '../ReplayForking';
import { ForkUpstreamError, probeForkUpstream } from './probeForkUpstream';
import { shownUpstream } from '../../config/shownUpstream';

/** How long the upstream may take to answer one header read of the search. */
const HEADER_TIMEOUT_MS = 5000;
/** Where tokens taken from the local solver go (nobody holds this key). */
const BURN_ADDRESS: Address = '0x000000000000000000000000000000000000dEaD';

const upstreamClient = (url: string): PublicClient => createPublicClient({ transport: http(url, { timeout: HEADER_TIMEOUT_MS, retryCount: 1 }) });
const localClients = (url: string) => ({ client: createPublicClient({ transport: http(url) }), cheats: createTestClient({ mode: 'anvil', transport: http(url) }) });

/**
 * The last block whose timestamp is at or before `seconds`: a binary search over the upstream's
 * headers (about log2(tip) reads, each bounded). Block 0 when every block is later.
 */
async function lastBlockAtOrBefore(client: PublicClient, tip: bigint, seconds: bigint, where: string): Promise<bigint> {
  const timeOf = async (blockNumber: bigint) => {
    try {
      return (await client.getBlock({ blockNumber })).timestamp;
    } catch (error) {
      throw new ForkUpstreamError(`${where} did not answer eth_getBlockByNumber ${blockNumber}`, { cause: error });
    }
  };
  if ((await timeOf(tip)) <= seconds) return tip;
  let low = 0n; // invariant: time(low) <= seconds, or low = 0
  let high = tip; // invariant: time(high) > seconds
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if ((await timeOf(middle)) <= seconds) low = middle;
    else high = middle;
  }
  return low;
}

async function forkPoint(ask: ReplayForkAsk): Promise<ReplayForkPoint> {
  const shownUrl = shownUpstream(ask.url);
  if (ask.role === 'origin') {
    // the state just before the deposit: the user still holds what it deposits
    const block = Math.max(0, ask.depositBlock - 1);
    await probeForkUpstream({ chainId: ask.chainId, url: ask.url, blockNumber: block });
    return { shownUrl, block, pinned: true };
  }
  const tip = await probeForkUpstream({ chainId: ask.chainId, url: ask.url });
  const block = await lastBlockAtOrBefore(upstreamClient(ask.url), tip.blockNumber, BigInt(ask.atOrBeforeSeconds), `chain ${ask.chainId}: the fork upstream ${shownUrl}`);
  return { shownUrl, block: Number(block), pinned: true };
}

/** Sends `data` to `to` as `from` on a local Anvil, impersonated, and waits for it to be mined. */
async function sendAs(url: string, from: Address, tx: { to: Address; data: Hex; value?: bigint }): Promise<Hex> {
  const { client, cheats } = localClients(url);
  await cheats.impersonateAccount({ address: from });
  try {
    const hash = await client.request({
      method: 'eth_sendTransaction',
      params: [{ from, to: tx.to, data: tx.data, value: `0x${(tx.value ?? 0n).toString(16)}` }],
    } as never);
    const receipt = await client.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 20, timeout: 30_000 });
    if (receipt.status !== 'success') throw new Error(`the transaction ${hash as string} from ${from} to ${tx.to} reverted`);
    return hash as Hex;
  } finally {
    await cheats.stopImpersonatingAccount({ address: from });
  }
}

const transferData = (to: Address, amount: bigint): Hex => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });

/**
 * The local solver stands where the upstream's solver stood at the fork block: its native balance
 * set to the upstream solver's (anvil_setBalance) and, for a token, its token balance made equal
 * by impersonated transfers (its own to a burn address, then the upstream solver's to it).
 */
async function standInForSolver(params: Parameters<ReplayForking['standInForSolver']>[0]): Promise<string[]> {
  const upstream = upstreamClient(params.upstreamUrl);
  const { client, cheats } = localClients(params.localRpcUrl);
  if (params.block === null) throw new Error(`chain ${params.chainId}: an EVM fork is pinned at a block`);
  const blockNumber = BigInt(params.block);
  const upstreamSolver = getAddress(params.upstreamSolver);
  const localSolver = getAddress(params.localSolver);
  const notes: string[] = [];
  const nativeBalance = await upstream.getBalance({ address: upstreamSolver, blockNumber });
  await cheats.setBalance({ address: localSolver, value: nativeBalance });
  notes.push(`chain ${params.chainId}: the solver's native balance set to the upstream solver's at block ${params.block} (${nativeBalance})`);
  if (params.native) return notes;

  const token = getAddress(params.currency);
  const balanceOf = (reader: PublicClient, owner: Address, at?: bigint) =>
    reader.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner], ...(at === undefined ? {} : { blockNumber: at }) });
  const target = await balanceOf(upstream, upstreamSolver, blockNumber);
  const held = await balanceOf(client, localSolver);
  if (upstreamSolver === localSolver) {
    if (held > target) await sendAs(params.localRpcUrl, localSolver, { to: token, data: transferData(BURN_ADDRESS, held - target) });
    else if (held < target) notes.push(`chain ${params.chainId}: the solver holds ${held} of ${token}, less than the upstream's ${target} (the same address: nobody to take it from)`);
  } else {
    if (held > 0n) await sendAs(params.localRpcUrl, localSolver, { to: token, data: transferData(BURN_ADDRESS, held) });
    if (target > 0n) {
      // the upstream solver pays its gas on the fork
      const gas = await client.getBalance({ address: upstreamSolver });
      if (gas < 10n ** 17n) await cheats.setBalance({ address: upstreamSolver, value: gas + 10n ** 17n });
      await sendAs(params.localRpcUrl, upstreamSolver, { to: token, data: transferData(localSolver, target) });
    }
  }
  notes.push(`chain ${params.chainId}: the solver's ${token} balance made the upstream solver's at block ${params.block} (${target})`);
  return notes;
}

/**
 * The deposit again, from the record's user (impersonated), with the funds it had at the fork
 * block; when they are short of the value and gas, the native balance is topped up, and a note says so.
 */
async function depositAs(params: Parameters<ReplayForking['depositAs']>[0]): Promise<{ txHashes: string[]; notes: string[] }> {
  const { client, cheats } = localClients(params.localRpcUrl);
  const from = getAddress(params.from);
  const notes: string[] = [];
  const items = params.items as ReadonlyArray<{ to: string; data: string; value: string }>;
  const value = items.reduce((sum, item) => sum + BigInt(item.value), 0n);
  const gasPrice = await client.getGasPrice();
  const need = value + BigInt(items.length) * 500_000n * gasPrice;
  const balance = await client.getBalance({ address: from });
  if (balance < need) {
    await cheats.setBalance({ address: from, value: need });
    notes.push(`chain ${params.chainId}: the user ${from} held ${balance} at the fork block, short of the deposit's value and gas (${need}); topped up to it`);
  }
  const txHashes: string[] = [];
  for (const item of items) txHashes.push(await sendAs(params.localRpcUrl, from, { to: getAddress(item.to), data: item.data as Hex, value: BigInt(item.value) }));
  return { txHashes, notes };
}

/** The EVM's replay forking (ReplayForking): pinned forks through Anvil, impersonation for the solver's tokens and the user's deposit. */
export const EVM_REPLAY_FORKING: ReplayForking = { forkPoint, standInForSolver, depositAs };
