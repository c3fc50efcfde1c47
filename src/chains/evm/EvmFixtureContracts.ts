import { getAddress, type Hex, type PrivateKeyAccount, type PublicClient } from 'viem';
import type { Currency } from '../../domain/chain/currency';
import type { ContractAbiRef, ContractSignature, FixtureContractsCapability } from '../capabilities/FixtureContractsCapability';
import type { UserSendOptions, UserTransaction } from '../capabilities/UserWallet';
import { deployFixtureContract, FIXTURE_CONTRACT_NAMES, FixtureDeploymentError, type FixtureContractName } from './deployFixtureContract';
import type { SimulatorContracts } from './deploySimulatorContracts';
import type { EvmUserWallet } from './EvmUserWallet';
import { ContractCallError, encodeFixtureCall, fixtureConstructorArgs, signContractMessage } from './fixtureContractCalls';

/**
 * An EVM chain's `fixtureContracts` capability: the fixture contracts a user deploys and drives
 * (the targets of Call requests in scenarios), and the blocklist of the simulator's stablecoin,
 * whose issuer (owner) is the simulator's deployer.
 */
export class EvmFixtureContracts implements FixtureContractsCapability {
  constructor(
    private readonly deps: {
      chainId: number;
      /** What users get: deployments go through the chain's front, as any user's do. */
      rpcUrl: () => string;
      client: () => PublicClient;
      contracts: () => SimulatorContracts;
      userWallet: EvmUserWallet;
      deployer: () => PrivateKeyAccount;
    },
  ) {}

  async deploy(privateKey: string, name: string, args: readonly unknown[]): Promise<string> {
    if (!(FIXTURE_CONTRACT_NAMES as readonly string[]).includes(name)) throw new FixtureDeploymentError(`no fixture contract ${name} (one of ${FIXTURE_CONTRACT_NAMES.join(', ')})`);
    // the arguments are checked against the constructor's ABI here, then encoded by deployFixtureContract
    return deployFixtureContract(this.deps.rpcUrl(), privateKey as Hex, name as FixtureContractName, fixtureConstructorArgs(name, args) as never);
  }

  encodeContractCall(contract: ContractAbiRef, functionName: string, args: readonly unknown[]): string {
    return encodeFixtureCall(this.abiNameOf(contract), functionName, args);
  }

  signContractMessage(privateKey: string, contract: { fixture: string; address: string }, type: string, message: Record<string, unknown>): Promise<ContractSignature> {
    return signContractMessage({ client: this.deps.client(), chainId: this.deps.chainId }, privateKey, contract, type, message);
  }

  /** The stablecoin's owner is the simulator's deployer: it signs the blocklist change. */
  async setBlockedByIssuer(currency: Currency, account: string, blocked: boolean, options: UserSendOptions = {}): Promise<UserTransaction> {
    if (currency.address.toLowerCase() !== this.deps.contracts().stablecoin.toLowerCase()) {
      throw new ContractCallError(`${currency.symbol} on ${this.deps.chainId} has no issuer blocklist (only the stablecoin has one)`);
    }
    const data = encodeFixtureCall('Stablecoin', 'setBlocked', [account, blocked]);
    return this.deps.userWallet.send(this.deps.deployer(), { to: getAddress(currency.address), data, value: 0n }, options);
  }

  /** The contract whose ABI a call uses: the fixture named, or the simulator's own token contract of a currency. */
  private abiNameOf(contract: ContractAbiRef): string {
    if ('fixture' in contract) return contract.fixture;
    const address = contract.currency.address.toLowerCase();
    const { stablecoin, wrappedNative } = this.deps.contracts();
    if (address === stablecoin.toLowerCase()) return 'Stablecoin';
    if (address === wrappedNative.toLowerCase()) return 'WrappedNative';
    throw new ContractCallError(`${contract.currency.symbol} on ${this.deps.chainId} has no contract to call`);
  }
}
