import {
  encodeFunctionData,
  erc20Abi,
  getAbiItem,
  getAddress,
  getContractAddress,
  isAddress,
  keccak256,
  zeroAddress,
  type Address,
  type Block,
  type Hex,
  type PublicClient,
} from 'viem';
import { depositAddressFactoryArtifact, depositForwarderArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { DepositAddressStore } from '../../store/DepositAddressStore';
import type { ChainObservation } from '../ChainAdapter';
import type { SolverCall } from './EvmSolverWallet';
import type { DepositAddressPayment } from '../../domain/chain/observedDeposit';

const FORWARDER_INIT_CODE_HASH = keccak256(depositForwarderArtifact.bytecode);
const TRANSFER_EVENT = getAbiItem({ abi: erc20Abi, name: 'Transfer' });

/** SPEC §1.6: the deposit address of a request — the CREATE2 address of its forwarder, salt = request id. */
export function depositAddressOf(factory: Address, requestId: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt: requestId, bytecodeHash: FORWARDER_INIT_CODE_HASH });
}

/**
 * The deposit addresses of one EVM chain: registers them at quote time, spots the first payment
 * into a live one in each indexed block (native value transfers in the block's transactions,
 * ERC-20 `Transfer` logs of the chain's tokens), and builds the solver's sweep call through
 * the factory. LIMITATIONS: a native payment made by a contract (an internal transfer) is not
 * seen; payments that arrive after the first one is seen are swept only if they land before the sweep.
 */
export class EvmDepositAddresses {
  constructor(
    private readonly deps: {
      chainId: number;
      client: PublicClient;
      factory: Address;
      tokens: () => Address[];
      store: DepositAddressStore;
      clock: VirtualClock;
      emit: (observation: ChainObservation) => void;
    },
  ) {}

  /** Registers the request's deposit address (watched from now on) and returns it. */
  open(requestId: Hex): Address {
    const address = depositAddressOf(this.deps.factory, requestId);
    this.deps.store.open({ chainId: this.deps.chainId, address, requestId, createdAt: this.deps.clock.now() });
    return address;
  }

  /** Announces again the payments seen but not yet swept (after a restart). */
  resumePaid(): void {
    for (const row of this.deps.store.inState(this.deps.chainId, 'paid')) {
      if (row.payment) this.deps.emit({ kind: 'depositAddressPaid', requestId: row.requestId, depositAddress: row.address, payment: row.payment });
    }
  }

  /**
   * Called for each block the deposit watcher indexes, before the block counts as indexed. Also
   * watches the live addresses of requests quoted on other chains: the factory has the same
   * address on every chain, so a request's deposit address exists here too, and a payment into it
   * on this chain is a payment on the wrong chain (reported, not marked: the address stays live on
   * its own chain; the solver sweeps it here and refunds it, DEPOSIT_ADDRESS_MISMATCH).
   */
  async inspectBlock(block: Block): Promise<void> {
    if (block.hash === null) return;
    const { store, chainId } = this.deps;
    const live = new Map(store.inState(chainId, 'live').map((row) => [row.address.toLowerCase(), row]));
    // another VM's deposit addresses (a bcrt1 address) cannot be paid here
    const elsewhere = new Map(store.liveOnOtherChains(chainId).filter((row) => isAddress(row.address, { strict: false })).map((row) => [row.address.toLowerCase(), row]));
    if (live.size === 0 && elsewhere.size === 0) return;
    const payments = await this.paymentsIn(block.hash, new Set([...live.keys(), ...elsewhere.keys()]));
    for (const { to, payment } of payments) {
      const own = live.get(to.toLowerCase());
      if (own) {
        if (store.markPaid(chainId, own.address, payment)) this.deps.emit({ kind: 'depositAddressPaid', requestId: own.requestId, depositAddress: own.address, payment });
        continue;
      }
      const foreign = elsewhere.get(to.toLowerCase());
      if (!foreign) continue;
      elsewhere.delete(to.toLowerCase()); // the first payment of the block is the one swept
      this.deps.emit({ kind: 'depositAddressPaid', requestId: foreign.requestId, depositAddress: foreign.address, payment });
    }
  }

  /** The factory call that deploys the forwarder if needed and sweeps the paid currency into the depository. */
  async sweepCall(requestId: Hex, payment: DepositAddressPayment, solver: Address): Promise<SolverCall> {
    const data = encodeFunctionData({
      abi: depositAddressFactoryArtifact.abi,
      functionName: 'sweep',
      args: [requestId, payment.currency, payment.depositor],
    });
    const estimated = await this.deps.client.estimateGas({ account: solver, to: this.deps.factory, data });
    return { to: this.deps.factory, data, value: 0n, gas: (estimated * 3n) / 2n };
  }

  /** Payments into any of `addresses` in one block, in transaction order. */
  private async paymentsIn(blockHash: Hex, addresses: Set<string>): Promise<Array<{ to: Address; payment: DepositAddressPayment; order: number }>> {
    const { client } = this.deps;
    const [full, logs] = await Promise.all([
      client.getBlock({ blockHash, includeTransactions: true }),
      client.getLogs({ address: this.deps.tokens(), event: TRANSFER_EVENT, args: { to: [...addresses] as Address[] }, blockHash }),
    ]);
    const found: Array<{ to: Address; payment: DepositAddressPayment; order: number }> = [];
    for (const tx of full.transactions) {
      if (!tx.to || tx.value === 0n || !addresses.has(tx.to.toLowerCase())) continue;
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      if (receipt.status !== 'success') continue;
      found.push({ to: getAddress(tx.to), payment: { depositor: getAddress(tx.from), txHash: tx.hash, currency: zeroAddress }, order: tx.transactionIndex ?? 0 });
    }
    for (const log of logs) {
      if (!log.args.to || !log.args.from) continue;
      found.push({
        to: getAddress(log.args.to),
        payment: { depositor: getAddress(log.args.from), txHash: log.transactionHash, currency: getAddress(log.address) },
        order: log.transactionIndex ?? 0,
      });
    }
    return found.sort((a, b) => a.order - b.order);
  }
}
