import { createWalletClient, encodeFunctionData, erc20Abi, getAddress, http, keccak256, stringToBytes, zeroAddress, type Address, type Chain, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { Currency } from '../../domain/chain/currency';
import type { UserSendOptions, UserTransaction, UserWallet } from '../capabilities/UserWallet';
import { ChainError } from '../../errors/IntentsimError';
import { decodeRevert } from './decodeRevert';
import { waitForReceipt } from './waitForReceipt';

/** The node would not take a user's transaction (its gas estimate reverted, a nonce or funds problem). */
export class UserTransactionRefusedError extends ChainError {}

export interface EvmUserWalletDeps {
  client: PublicClient;
  chain: Chain;
  rpcUrl: string;
}

/**
 * The fees of a transaction sent ahead of what waits in the pool: a priority fee far above the
 * solver's, so the next block mines it first; a fixed gas limit, since estimating against the
 * mined state can fail for a transaction that depends on others still waiting.
 */
const AHEAD_OF_PENDING = { gas: 1_000_000n, maxPriorityFeePerGas: 500n * 10n ** 9n, maxFeePerGas: 1_000n * 10n ** 9n } as const;

/**
 * A user's wallet on an EVM chain, for scenarios and conformance runs: it does what an
 * integrator's app does with a step item (SPEC §2.2: send `to`, `data`, `value` from the user),
 * and plain transfers (deposit-address payments, stray deposits). The chain's `userWallet`.
 */
export class EvmUserWallet implements UserWallet {
  /** `deps`: the node's client and the URL users send to (the front), read when a transaction is sent. */
  constructor(private readonly deps: () => EvmUserWalletDeps) {}

  /** Sends one transaction step item's `data` from the account; waits for its receipt when `wait`. */
  sendUserTransaction(privateKey: string, item: Record<string, unknown>, options: UserSendOptions = {}): Promise<UserTransaction> {
    return this.send(privateKeyToAccount(privateKey as Hex), { to: getAddress(String(item.to)), data: (item.data as Hex | undefined) ?? '0x', value: BigInt(String(item.value ?? '0')) }, options);
  }

  /** Transfers native currency or a token from the account to `to`. */
  transferFromUser(privateKey: string, to: string, currency: Currency, amount: bigint, options: UserSendOptions = {}): Promise<UserTransaction> {
    const recipient = getAddress(to);
    const account = privateKeyToAccount(privateKey as Hex);
    if (currency.address.toLowerCase() === zeroAddress) return this.send(account, { to: recipient, data: '0x', value: amount }, options);
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
    return this.send(account, { to: getAddress(currency.address), data, value: 0n }, options);
  }

  /** Sends a transaction from `account` (a test account's, or the simulator's own deployer acting as a token's issuer). */
  async send(account: PrivateKeyAccount, tx: { to: Address; data: Hex; value: bigint }, options: UserSendOptions): Promise<UserTransaction> {
    const { client, chain, rpcUrl } = this.deps();
    const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
    const txHash = await wallet.sendTransaction({ ...tx, ...(options.aheadOfPending ? AHEAD_OF_PENDING : {}) }).catch((error: unknown) => {
      // a revert in the gas estimate: what it decodes to (a fixture contract's error, a reason string)
      const reverted = decodeRevert(error);
      if (reverted) throw new UserTransactionRefusedError(`it would revert: ${reverted.failure.message}`);
      const reason = (error as { shortMessage?: string }).shortMessage ?? (error instanceof Error ? error.message : String(error));
      throw new UserTransactionRefusedError(`the node refused the transaction: ${reason.replace(/\s+/g, ' ').trim()}`);
    });
    if (!(options.wait ?? true)) return { txHash, status: 'sent' };
    const receipt = await waitForReceipt(client, txHash);
    return { txHash, status: receipt.status === 'success' ? 'success' : 'failure', blockNumber: Number(receipt.blockNumber) };
  }

  addressForLabel(label: string): string {
    return evmAddressForLabel(label);
  }
}

/** A stable EVM address named by a label (fresh recipients in scenarios): the last 20 bytes of its keccak-256. */
export function evmAddressForLabel(label: string): string {
  return getAddress(`0x${keccak256(stringToBytes(`intentsim:${label}`)).slice(-40)}`);
}
