import { erc20Abi, getAddress, parseSignature, type Address, type Hex, type PublicClient } from 'viem';
import { encodeCall } from './encodeCall';
import { depositoryArtifact, stablecoinArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import { STABLECOIN } from '../../../fixtures/tokens';
import { InvalidRequestBodyError } from '../../errors/requestErrors';
import type { RelayedCall } from '../../domain/execute/relayedCall';
import type { DepositStepParams } from '../ChainAdapter';
import type { SignedDepositParams } from '../capabilities/GaslessRelayCapability';
import type { GasCalibration } from './calibrateGas';
import type { SimulatorContracts } from './deploySimulatorContracts';
import type { EvmDepositAddresses } from './EvmDepositAddresses';

/** How much more gas than measured a quote's step items carry. */
const USER_GAS_MARGIN_PERCENT = 150n;
/** A plain native transfer to an account without code. */
const NATIVE_TRANSFER_GAS = 21_000n;

interface TransactionStepParams {
  id: QuoteStep['id'];
  action: string;
  description: string;
  to: Address;
  data: Hex;
  value: bigint;
  gasUnits: bigint;
  withCheck: boolean;
}

/** How long a deposit authorization stays valid after the quote, in chain seconds. */
const AUTHORIZATION_VALIDITY_SECONDS = 3600n;

/** EIP-3009 `ReceiveWithAuthorization`: only the payee (the depository) may submit it. */
const RECEIVE_WITH_AUTHORIZATION_TYPES = {
  ReceiveWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** The quote steps a user sends on an EVM chain (SPEC §2.2): approve and deposit, or a transfer into a deposit address. */
export class EvmDepositSteps {
  constructor(
    private readonly deps: {
      chainId: number;
      client: PublicClient;
      contracts: SimulatorContracts;
      gas: GasCalibration;
      fees: () => { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
      depositAddresses: EvmDepositAddresses;
    },
  ) {}

  async buildDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    const { contracts, gas } = this.deps;
    const user = getAddress(params.user);
    if (params.currency.isNative) {
      return [
        this.transactionStep(user, {
          id: 'deposit',
          action: 'Confirm transaction in your wallet',
          description: `Depositing funds to the relayer to execute the request for ${params.currency.symbol}`,
          to: contracts.depository,
          data: encodeCall({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user, params.requestId] }),
          value: params.amount,
          gasUnits: gas.depositNative,
          withCheck: true,
        }),
      ];
    }

    const steps: QuoteStep[] = [];
    const allowance = await this.deps.client.readContract({
      address: params.currency.address,
      abi: stablecoinArtifact.abi,
      functionName: 'allowance',
      args: [user, contracts.depository],
    });
    if (allowance < params.amount) {
      steps.push(
        this.transactionStep(user, {
          id: 'approve',
          action: 'Approve token',
          description: `Allow the depository to move ${params.currency.symbol} from your wallet`,
          to: params.currency.address,
          data: encodeCall({ abi: stablecoinArtifact.abi, functionName: 'approve', args: [contracts.depository, params.amount] }),
          value: 0n,
          gasUnits: gas.approve,
          withCheck: false,
        }),
      );
    }
    steps.push(
      this.transactionStep(user, {
        id: 'deposit',
        action: 'Confirm transaction in your wallet',
        description: `Depositing ${params.currency.symbol} to the relayer to execute the request`,
        to: contracts.depository,
        data: encodeCall({
          abi: depositoryArtifact.abi,
          functionName: 'depositErc20',
          args: [user, params.currency.address, params.amount, params.requestId],
        }),
        value: 0n,
        gasUnits: gas.depositErc20,
        withCheck: true,
      }),
    );
    return steps;
  }

  openDepositAddress(params: DepositStepParams): { address: string; steps: QuoteStep[] } {
    const address = this.deps.depositAddresses.open(params.requestId);
    const step = this.transactionStep(getAddress(params.user), {
      id: 'deposit',
      action: 'Confirm transaction in your wallet',
      description: `Send ${params.currency.symbol} to the deposit address of this request`,
      ...(params.currency.isNative
        ? { to: address, data: '0x' as Hex, value: params.amount, gasUnits: NATIVE_TRANSFER_GAS }
        : {
            to: params.currency.address,
            data: encodeCall({ abi: erc20Abi, functionName: 'transfer', args: [address, params.amount] }),
            value: 0n,
            // a bare token transfer to a fresh account, as measured for refunds, without their call overhead
            gasUnits: this.deps.gas.refundErc20,
          }),
      withCheck: true,
    });
    return { address, steps: [{ ...step, depositAddress: address }] };
  }

  /**
   * SPEC §1.6 gasless swaps (`usePermit`): one signature step. The user signs an EIP-3009
   * `ReceiveWithAuthorization` of the stablecoin to the depository (nonce = the request id, so it
   * pays this request only); the SDK posts the signature to `/execute/permits`, and the relayer
   * pulls the tokens with it (`depositErc20WithAuthorization`). No approval, no transaction.
   */
  async buildSignedDepositSteps(params: DepositStepParams): Promise<QuoteStep[]> {
    const { contracts, chainId, client } = this.deps;
    const latest = await client.getBlock({ blockTag: 'latest' });
    const validBefore = latest.timestamp + AUTHORIZATION_VALIDITY_SECONDS;
    return [
      {
        id: 'deposit',
        action: 'Confirm signature in your wallet',
        description: `Authorize the deposit of ${params.currency.symbol} by signature; the relayer submits it and pays the gas`,
        kind: 'signature',
        items: [
          {
            status: 'incomplete',
            withCheck: true,
            data: {
              sign: {
                signatureKind: 'eip712',
                domain: { name: STABLECOIN.name, version: '2', chainId, verifyingContract: params.currency.address },
                types: RECEIVE_WITH_AUTHORIZATION_TYPES,
                primaryType: 'ReceiveWithAuthorization',
                value: {
                  from: getAddress(params.user),
                  to: contracts.depository,
                  value: params.amount.toString(),
                  validAfter: '0',
                  validBefore: validBefore.toString(),
                  nonce: params.requestId,
                },
              },
              post: {
                endpoint: '/execute/permits',
                method: 'POST',
                body: { kind: 'eip3009', requestId: params.requestId, validAfter: '0', validBefore: validBefore.toString() },
              },
            },
          },
        ],
      },
    ];
  }

  /** The relayer's call that pulls a signed deposit into the depository. */
  signedDepositCall(params: SignedDepositParams): RelayedCall {
    let parts: ReturnType<typeof parseSignature>;
    try {
      parts = parseSignature(params.signature as Hex);
    } catch {
      throw new InvalidRequestBodyError('signature is not a 65-byte ECDSA signature');
    }
    const { v, r, s, yParity } = parts;
    return {
      to: this.deps.contracts.depository,
      value: 0n,
      data: encodeCall({
        abi: depositoryArtifact.abi,
        functionName: 'depositErc20WithAuthorization',
        args: [getAddress(params.user), params.currency.address, params.amount, params.requestId, params.validAfter, params.validBefore, Number(v ?? BigInt(27 + yParity)), r, s],
      }),
    };
  }

  /** One transaction step of one item, ready to send from the user (SPEC §2.2). */
  private transactionStep(user: Address, step: TransactionStepParams): QuoteStep {
    const fees = this.deps.fees();
    return {
      id: step.id,
      action: step.action,
      description: step.description,
      kind: 'transaction',
      items: [
        {
          status: 'incomplete',
          withCheck: step.withCheck,
          data: {
            from: user,
            to: step.to,
            data: step.data,
            value: step.value.toString(),
            chainId: this.deps.chainId,
            gas: ((step.gasUnits * USER_GAS_MARGIN_PERCENT) / 100n).toString(),
            maxFeePerGas: fees.maxFeePerGas.toString(),
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
          },
        },
      ],
    };
  }
}
