import { createPublicClient, createWalletClient, encodeDeployData, http, type Abi, type Address, type ContractConstructorArgs, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { contractArtifacts } from '../../../fixtures/contracts/artifacts.generated';
import { ChainError } from '../../errors/IntentsimError';
import { waitForReceipt } from './waitForReceipt';

/**
 * The contracts of fixtures/contracts that integrators' destination calls target (a Call
 * request's `txs`). The simulator never deploys them at start; tests and scenarios deploy the
 * ones they need, by name.
 */
export const FIXTURE_CONTRACT_NAMES = [
  'CallRecorder',
  'DexRouter',
  'EditionMint1155',
  'MarketplaceOrderBook',
  'MinimalAccount',
  'MinimalEntryPoint',
  'PausableBadge',
  'PermitToken',
] as const;
export type FixtureContractName = (typeof FIXTURE_CONTRACT_NAMES)[number];

type FixtureAbi<N extends FixtureContractName> = (typeof contractArtifacts)[N]['abi'];

/** Constructor arguments of fixture contract `N`, typed from its ABI. */
export type FixtureConstructorArgs<N extends FixtureContractName> = ContractConstructorArgs<FixtureAbi<N>>;

export class FixtureDeploymentError extends ChainError {}

/**
 * Deploys fixture contract `name` with `args` from the account of `deployerKey` on the EVM node
 * at `rpcUrl` (automining), and returns its address once mined.
 */
export async function deployFixtureContract<N extends FixtureContractName>(
  rpcUrl: string,
  deployerKey: Hex,
  name: N,
  args: FixtureConstructorArgs<N>,
): Promise<Address> {
  const artifact = contractArtifacts[name];
  const transport = http(rpcUrl);
  const client = createPublicClient({ transport });
  const wallet = createWalletClient({ account: privateKeyToAccount(deployerKey), transport });
  // the arguments are typed by the caller's N; encoded against the artifact's ABI
  const data = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args: args as readonly unknown[] });
  const hash = await wallet.sendTransaction({ data, chain: null });
  const receipt = await waitForReceipt(client, hash);
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new FixtureDeploymentError(`${name} was not deployed (transaction ${hash} ${receipt.status})`);
  return receipt.contractAddress;
}
