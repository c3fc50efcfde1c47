import { createWalletClient, encodeFunctionData, erc20Abi, getAddress, http, keccak256, stringToBytes, zeroAddress, type Address, type Chain, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Currency } from '../../domain/chain/currency';
import type { UserTransaction } from '../ChainAdapter';
import { waitForReceipt } from './waitForReceipt';

export interface EvmUserWalletDeps {
  client: PublicClient;
  chain: Chain;
  rpcUrl: string;
}

/**
 * A user's wallet on an EVM chain, for scenarios and conformance runs: it does what an
 * integrator's app does with a step item (SPEC §2.2: send `to`, `data`, `value` from the user),
 * and plain transfers (deposit-address payments, stray deposits).
 */
export class EvmUserWallet {
  constructor(private readonly deps: EvmUserWalletDeps) {}

  /** Sends one transaction step item's `data` from the account; waits for its receipt when `wait`. */
  sendStepItem(privateKey: string, item: Record<string, unknown>, wait: boolean): Promise<UserTransaction> {
    return this.send(privateKey, { to: getAddress(String(item.to)), data: (item.data as Hex | undefined) ?? '0x', value: BigInt(String(item.value ?? '0')) }, wait);
  }

  /** Transfers native currency or a token from the account to `to`. */
  transfer(privateKey: string, to: string, currency: Currency, amount: bigint, wait: boolean): Promise<UserTransaction> {
    const recipient = getAddress(to);
    if (currency.address.toLowerCase() === zeroAddress) return this.send(privateKey, { to: recipient, data: '0x', value: amount }, wait);
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, amount] });
    return this.send(privateKey, { to: getAddress(currency.address), data, value: 0n }, wait);
  }

  private async send(privateKey: string, tx: { to: Address; data: Hex; value: bigint }, wait: boolean): Promise<UserTransaction> {
    const account = privateKeyToAccount(privateKey as Hex);
    const wallet = createWalletClient({ account, chain: this.deps.chain, transport: http(this.deps.rpcUrl) });
    const txHash = await wallet.sendTransaction(tx);
    if (!wait) return { txHash, status: 'sent' };
    const receipt = await waitForReceipt(this.deps.client, txHash);
    return { txHash, status: receipt.status === 'success' ? 'success' : 'failure', blockNumber: Number(receipt.blockNumber) };
  }
}

/** A stable EVM address named by a label (fresh recipients in scenarios): the last 20 bytes of its keccak-256. */
export function evmAddressForLabel(label: string): string {
  return getAddress(`0x${keccak256(stringToBytes(`intentsim:${label}`)).slice(-40)}`);
}
