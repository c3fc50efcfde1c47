import { encodeDeployData, encodeFunctionData, erc20Abi, getContractAddress, maxUint256, parseEther, type Address, type PublicClient, type TestClient } from 'viem';
import {
  batchExecutorArtifact,
  constantProductPoolArtifact,
  depositAddressFactoryArtifact,
  depositoryArtifact,
  multicall3Artifact,
  serviceReceiverArtifact,
  stablecoinArtifact,
  wrappedNativeArtifact,
} from '../../../fixtures/contracts/artifacts.generated';
import { POOL_FEE_BPS, poolSeedReserves, SOLVER_WRAPPED_NATIVE_UNITS } from '../../../fixtures/pools';
import { RELAYER_NATIVE_BALANCE, SOLVER_NATIVE_BALANCE, SOLVER_STABLECOIN_BALANCE, STABLECOIN, TEST_ACCOUNT_STABLECOIN_BALANCE, WRAPPED_NATIVE_NAME_PREFIX } from '../../../fixtures/tokens';
import { sendRawTransactions } from './sendRawTransactions';
import type { SimulatorAccounts } from '../../keys/simulatorAccounts';

export interface SimulatorContracts {
  multicall3: Address;
  stablecoin: Address;
  wrappedNative: Address;
  depository: Address;
  serviceReceiver: Address;
  /** Deploys and sweeps per-request deposit addresses (SPEC §1.6). */
  depositAddressFactory: Address;
  /** The wrapped-native / stablecoin constant-product pool (token0 = wrapped native). */
  pool: Address;
}

/**
 * The deployer's nonces fix the addresses, so they are the same on every chain: six contracts,
 * one stablecoin mint per test account and the solver, then the pool.
 */
export function simulatorContractAddresses(deployer: Address, testAccountCount: number): SimulatorContracts {
  const at = (nonce: number) => getContractAddress({ from: deployer, nonce: BigInt(nonce) });
  return {
    multicall3: at(0),
    stablecoin: at(1),
    wrappedNative: at(2),
    depository: at(3),
    serviceReceiver: at(4),
    depositAddressFactory: at(5),
    pool: at(6 + testAccountCount + 1),
  };
}

const DEPLOY_GAS = 3_000_000n;
const CALL_GAS = 200_000n;
const SETUP_MAX_FEE = 50_000_000_000n;
const SETUP_PRIORITY_FEE = 1_000_000_000n;

/**
 * Deploys the simulator's contracts on a fresh chain and funds the accounts: the solver and
 * deployer get native currency, every test account and the solver get the stablecoin, and the
 * solver approves the receiver (for stablecoin fills) and the depository (for gas calibration).
 * On a chain reloaded from saved state the contracts are already there and nothing is sent.
 */
/**
 * The state the deployment starts from that no transaction makes: the deployer's and the solver's
 * native balances, and the gasless relayer's (Anvil cheat calls). A chain rebuilt from its journal sets them again first.
 */
/**
 * Every value the deployment on a chain of `nativeSymbol` is made of, beside the accounts and the
 * node: the contracts' bytecode (the batch executor installed first included) and the amounts
 * funded, minted and seeded. A kept deployment is named by them (`keptDeployment.ts`).
 */
export function deploymentInputs(nativeSymbol: string): { bytecode: string[]; amounts: Record<string, unknown> } {
  return {
    bytecode: [batchExecutorArtifact.deployedBytecode, multicall3Artifact.bytecode, stablecoinArtifact.bytecode, wrappedNativeArtifact.bytecode, depositoryArtifact.bytecode, serviceReceiverArtifact.bytecode, depositAddressFactoryArtifact.bytecode, constantProductPoolArtifact.bytecode],
    amounts: {
      pool: poolSeedReserves(nativeSymbol, STABLECOIN.symbol, STABLECOIN.decimals),
      POOL_FEE_BPS,
      SOLVER_WRAPPED_NATIVE_UNITS,
      RELAYER_NATIVE_BALANCE,
      SOLVER_NATIVE_BALANCE,
      SOLVER_STABLECOIN_BALANCE,
      TEST_ACCOUNT_STABLECOIN_BALANCE,
      STABLECOIN,
      WRAPPED_NATIVE_NAME_PREFIX,
    },
  };
}

export async function fundDeployerAndSolver(params: { testClient: TestClient; nativeSymbol: string; accounts: SimulatorAccounts }): Promise<void> {
  const reserves = poolSeedReserves(params.nativeSymbol, STABLECOIN.symbol, STABLECOIN.decimals);
  const solverWrapped = SOLVER_WRAPPED_NATIVE_UNITS * 10n ** 18n;
  await Promise.all([
    params.testClient.setBalance({ address: params.accounts.deployer.address, value: parseEther('1000') + reserves.wrappedNative }),
    params.testClient.setBalance({ address: params.accounts.solver.address, value: SOLVER_NATIVE_BALANCE + solverWrapped }),
    params.testClient.setBalance({ address: params.accounts.relayer.address, value: RELAYER_NATIVE_BALANCE }),
  ]);
}

export async function deploySimulatorContracts(params: {
  publicClient: PublicClient;
  testClient: TestClient;
  chainId: number;
  nativeSymbol: string;
  accounts: SimulatorAccounts;
}): Promise<{ contracts: SimulatorContracts; deployedNow: boolean }> {
  const { publicClient, testClient, chainId, accounts } = params;
  const contracts = simulatorContractAddresses(accounts.deployer.address, accounts.testAccounts.length);
  const reserves = poolSeedReserves(params.nativeSymbol, STABLECOIN.symbol, STABLECOIN.decimals);
  const solverWrapped = SOLVER_WRAPPED_NATIVE_UNITS * 10n ** 18n;
  const existing = await publicClient.getCode({ address: contracts.pool });
  if (existing && existing !== '0x') return { contracts, deployedNow: false };

  await fundDeployerAndSolver({ testClient, nativeSymbol: params.nativeSymbol, accounts });

  const approveFor = (token: Address, spender: Address) => ({
    to: token,
    data: encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'approve', args: [spender, maxUint256] }),
    gas: CALL_GAS,
  });
  const approve = (spender: Address) => approveFor(contracts.stablecoin, spender);
  const mint = (to: Address, amount: bigint) => ({
    to: contracts.stablecoin,
    data: encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'mint', args: [to, amount] }),
    gas: CALL_GAS,
  });
  await sendRawTransactions({
    client: publicClient,
    account: accounts.deployer,
    chainId,
    startNonce: await publicClient.getTransactionCount({ address: accounts.deployer.address }),
    maxFeePerGas: SETUP_MAX_FEE,
    maxPriorityFeePerGas: SETUP_PRIORITY_FEE,
    transactions: [
      { data: multicall3Artifact.bytecode, gas: DEPLOY_GAS },
      {
        data: encodeDeployData({ abi: stablecoinArtifact.abi, bytecode: stablecoinArtifact.bytecode, args: [STABLECOIN.name, STABLECOIN.symbol, accounts.deployer.address] }),
        gas: DEPLOY_GAS,
      },
      {
        data: encodeDeployData({
          abi: wrappedNativeArtifact.abi,
          bytecode: wrappedNativeArtifact.bytecode,
          args: [`${WRAPPED_NATIVE_NAME_PREFIX}${params.nativeSymbol === 'ETH' ? 'Ether' : params.nativeSymbol}`, `W${params.nativeSymbol}`],
        }),
        gas: DEPLOY_GAS,
      },
      { data: encodeDeployData({ abi: depositoryArtifact.abi, bytecode: depositoryArtifact.bytecode, args: [accounts.solver.address] }), gas: DEPLOY_GAS },
      { data: encodeDeployData({ abi: serviceReceiverArtifact.abi, bytecode: serviceReceiverArtifact.bytecode, args: [accounts.solver.address] }), gas: DEPLOY_GAS },
      {
        data: encodeDeployData({
          abi: depositAddressFactoryArtifact.abi,
          bytecode: depositAddressFactoryArtifact.bytecode,
          args: [accounts.solver.address, contracts.depository],
        }),
        gas: DEPLOY_GAS,
      },
      ...accounts.testAccounts.map((test) => mint(test.address, TEST_ACCOUNT_STABLECOIN_BALANCE)),
      mint(accounts.solver.address, SOLVER_STABLECOIN_BALANCE),
      // appended after the original deployments, so the addresses above never move
      {
        data: encodeDeployData({
          abi: constantProductPoolArtifact.abi,
          bytecode: constantProductPoolArtifact.bytecode,
          args: [contracts.wrappedNative, contracts.stablecoin, POOL_FEE_BPS],
        }),
        gas: DEPLOY_GAS,
      },
      { to: contracts.wrappedNative, data: encodeFunctionData({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }), value: reserves.wrappedNative, gas: CALL_GAS },
      mint(accounts.deployer.address, reserves.stablecoin),
      approveFor(contracts.wrappedNative, contracts.pool),
      approveFor(contracts.stablecoin, contracts.pool),
      {
        to: contracts.pool,
        data: encodeFunctionData({ abi: constantProductPoolArtifact.abi, functionName: 'addLiquidity', args: [reserves.wrappedNative, reserves.stablecoin] }),
        gas: CALL_GAS,
      },
    ],
  });

  await sendRawTransactions({
    client: publicClient,
    account: accounts.solver,
    chainId,
    startNonce: await publicClient.getTransactionCount({ address: accounts.solver.address }),
    maxFeePerGas: SETUP_MAX_FEE,
    maxPriorityFeePerGas: SETUP_PRIORITY_FEE,
    transactions: [
      approve(contracts.serviceReceiver),
      approve(contracts.depository),
      // wrapped-native inventory for swaps and unwraps, spendable by the receiver's fills
      { to: contracts.wrappedNative, data: encodeFunctionData({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }), value: solverWrapped, gas: CALL_GAS },
      approveFor(contracts.wrappedNative, contracts.serviceReceiver),
    ],
  });
  return { contracts, deployedNow: true };
}

/**
 * Whether the state at `blockNumber` holds the simulator's whole setup: its last step is the
 * solver's wrapped-native allowance to the service receiver (above), so a block with it has every
 * contract, the pool's liquidity and the solver's approvals.
 */
export async function setupCompleteAt(chain: { client: PublicClient; contracts: SimulatorContracts; solver: Address }, blockNumber: bigint): Promise<boolean> {
  const { client, contracts, solver } = chain;
  const allowance = await client.readContract({ address: contracts.wrappedNative, abi: erc20Abi, functionName: 'allowance', args: [solver, contracts.serviceReceiver], blockNumber }).catch(() => 0n);
  return allowance > 0n;
}
