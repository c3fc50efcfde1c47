import {
  BaseError,
  decodeEventLog,
  getAddress,
  keccak256,
  numberToHex,
  RpcRequestError,
  toEventSelector,
  type Address,
  type Hex,
  type LocalAccount,
  type PublicClient,
  type SignedAuthorization as ViemSignedAuthorization,
  type Transaction,
  type TransactionReceipt,
} from 'viem';
import { depositoryArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { CallFrame, RelayedCall, RelayedCallSimulation, RelaySendOptions } from '../../domain/execute/relayedCall';
import { RelayBroadcastRefusedError } from '../RelayBroadcastRefusedError';
import { decodeRevertFacts } from './decodeRevert';
import { revertDetails } from './revertDetails';
import { waitForReceipt } from './waitForReceipt';

/** A frame of Anvil's `callTracer` output (with `withLog`). */
interface TraceFrame {
  type: string;
  from: string;
  to?: string;
  input: string;
  output?: string;
  value?: string;
  error?: string;
  gasUsed?: string;
  calls?: TraceFrame[];
  logs?: Array<{ address: string; topics: Hex[]; data: Hex }>;
}

/** Gas above the traced use a relayed transaction carries (the trace does not count refunds and the 63/64 rule). */
const GAS_MARGIN_PERCENT = 150n;
/** EIP-7702: what each authorization of the list costs on top (PER_EMPTY_ACCOUNT_COST). */
const GAS_PER_AUTHORIZATION = 25_000n;
const DEPOSIT_TOPIC = toEventSelector('Deposit(bytes32,address,address,uint256)');

/**
 * SPEC §1.6 gasless execution on one EVM chain: the relayer's account (funded at genesis, distinct
 * from the solver) simulates a user's call with a full call trace (`debug_traceCall`, the
 * authorization list honoured), then signs it — as an EIP-7702 (type 4) transaction when it
 * carries authorizations — and broadcasts it, paying its gas. Sends are serialised for nonces.
 */
export class EvmRelayer {
  private sendQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      chainId: number;
      client: PublicClient;
      account: LocalAccount;
      depository: Address;
      fees: () => { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    },
  ) {}

  get address(): Address {
    return this.deps.account.address;
  }

  async simulate(call: RelayedCall): Promise<RelayedCallSimulation> {
    const request = {
      from: this.deps.account.address,
      to: getAddress(call.to),
      data: call.data,
      value: numberToHex(call.value),
      ...(call.authorizationList?.length ? { authorizationList: call.authorizationList.map(rpcAuthorization) } : {}),
    };
    const trace = (await this.deps.client.request({
      method: 'debug_traceCall',
      params: [request, 'latest', { tracer: 'callTracer', tracerConfig: { withLog: true } }],
    } as never)) as TraceFrame;
    if (trace.error === undefined) {
      const authorizations = BigInt(call.authorizationList?.length ?? 0);
      const gasUnits = (BigInt(trace.gasUsed ?? '0x0') * GAS_MARGIN_PERCENT) / 100n + authorizations * GAS_PER_AUTHORIZATION;
      return { ok: true, gasUnits, depositRequestIds: this.depositRequestIds(trace) };
    }
    const path = revertingPath(trace);
    const innermost = path.at(-1)!;
    return { ok: false, revert: revertDetails(decodeRevertFacts(outputOf(innermost))), topLevel: frameOf(trace), innermost: frameOf(innermost), path: path.map(frameOf) };
  }

  send(call: RelayedCall, gasUnits: bigint, options: RelaySendOptions = {}): Promise<Hex> {
    const run = this.sendQueue.then(() => this.signAndBroadcast(call, gasUnits, options));
    this.sendQueue = run.catch(() => undefined);
    return run;
  }

  /** The relayed transaction's receipt, and what it sent (its `from`, `to` and value). */
  async awaitReceipt(txHash: Hex): Promise<{ receipt: TransactionReceipt; transaction: Transaction }> {
    const receipt = await waitForReceipt(this.deps.client, txHash);
    return { receipt, transaction: await this.deps.client.getTransaction({ hash: txHash }) };
  }

  private async signAndBroadcast(call: RelayedCall, gasUnits: bigint, options: RelaySendOptions): Promise<Hex> {
    const { client, account, chainId } = this.deps;
    const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    // the fault "broadcast refused": a gas limit no block can hold, which the node refuses outright
    const gas = options.refusedByNode ? (await client.getBlock({ blockTag: 'latest' })).gasLimit + 1n : gasUnits;
    const common = { chainId, nonce, to: getAddress(call.to), data: call.data as Hex, value: call.value, gas, ...this.deps.fees() };
    const rawTx = call.authorizationList?.length
      ? await account.signTransaction({ ...common, type: 'eip7702', authorizationList: call.authorizationList.map(viemAuthorization) })
      : await account.signTransaction({ ...common, type: 'eip1559' });
    const txHash = keccak256(rawTx);
    if (options.withoutSending) return txHash;
    try {
      await client.sendRawTransaction({ serializedTransaction: rawTx });
    } catch (error) {
      const refusal = error instanceof BaseError ? error.walk((cause) => cause instanceof RpcRequestError) : null;
      if (refusal instanceof RpcRequestError) throw new RelayBroadcastRefusedError(chainId, refusal.details || refusal.shortMessage, error);
      throw error;
    }
    return txHash;
  }

  /** The request ids the call's depository `Deposit` events name, in order. */
  private depositRequestIds(trace: TraceFrame): string[] {
    const ids: string[] = [];
    const visit = (frame: TraceFrame) => {
      for (const log of frame.logs ?? []) {
        if (log.address.toLowerCase() !== this.deps.depository.toLowerCase() || log.topics[0] !== DEPOSIT_TOPIC) continue;
        const decoded = decodeEventLog({ abi: depositoryArtifact.abi, eventName: 'Deposit', topics: log.topics as [Hex, ...Hex[]], data: log.data });
        ids.push(decoded.args.id);
      }
      frame.calls?.forEach(visit);
    };
    visit(trace);
    return ids;
  }
}

/** From the top frame down through the last failed child at each level: the frames that reverted. */
function revertingPath(trace: TraceFrame): TraceFrame[] {
  const path = [trace];
  for (;;) {
    const failedChild = [...(path.at(-1)!.calls ?? [])].reverse().find((child) => child.error !== undefined);
    if (!failedChild) return path;
    path.push(failedChild);
  }
}

function outputOf(frame: TraceFrame): Hex | undefined {
  return frame.output && /^0x[0-9a-fA-F]*$/.test(frame.output) ? (frame.output as Hex) : undefined;
}

function frameOf(frame: TraceFrame): CallFrame {
  return {
    type: frame.type,
    from: getAddress(frame.from),
    to: frame.to ? getAddress(frame.to) : '',
    input: frame.input,
    value: BigInt(frame.value ?? '0x0').toString(),
    ...(frame.error !== undefined ? { error: frame.error, revert: revertDetails(decodeRevertFacts(outputOf(frame))) } : {}),
  };
}

function rpcAuthorization(authorization: NonNullable<RelayedCall['authorizationList']>[number]) {
  return {
    chainId: numberToHex(authorization.chainId),
    address: getAddress(authorization.address),
    nonce: numberToHex(authorization.nonce),
    yParity: numberToHex(authorization.yParity),
    r: authorization.r,
    s: authorization.s,
  };
}

function viemAuthorization(authorization: NonNullable<RelayedCall['authorizationList']>[number]): ViemSignedAuthorization {
  return {
    chainId: authorization.chainId,
    address: getAddress(authorization.address),
    nonce: authorization.nonce,
    yParity: authorization.yParity,
    r: authorization.r as Hex,
    s: authorization.s as Hex,
  };
}
