import { getContractAddress, type Address, type Hex, type PublicClient, type TestClient } from 'viem';
import { ConfigurationError } from '../../errors/IntentsimError';
import type { SimulatorAccounts } from '../../keys/simulatorAccounts';
import { simulatorContractAddresses } from './deploySimulatorContracts';

/** A fork whose block runs rules older than the simulator's contracts need (bad input: the CLI exits 2). */
export class ForkTooOldError extends ConfigurationError {}

/** Creation code that stores with TSTORE and copies with MCOPY (Cancun's opcodes, which the fixtures' code uses), then stops. */
const CANCUN_PROBE: Hex = '0x600160005d60206000600053600060005e00';

/**
 * A fork runs its upstream's rules at the fork block's time (an OP chain's upgrades, Ethereum's):
 * the simulator's contracts are compiled for Cancun, so a block before the chain's Cancun upgrade
 * is refused in one line instead of a deployment that reverts `NotActivated`.
 */
async function assertCancunRules(client: PublicClient, chainId: number): Promise<void> {
  const failed = await client.call({ data: CANCUN_PROBE }).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (failed === undefined) return;
  const block = await client.getBlock({ blockTag: 'latest' });
  throw new ForkTooOldError(
    `chain ${chainId}: the fork block ${block.number} (${new Date(Number(block.timestamp) * 1000).toISOString()}) runs the chain's rules before its Cancun upgrade; the simulator's contracts need Cancun (TSTORE, MCOPY): fork a later block`,
    { cause: failed },
  );
}

/**
 * Makes a forked chain ready for the simulator's own deployment, with cheat calls (local only,
 * nothing is sent upstream). The upstream may already use the simulator's keys (they derive from a
 * public test mnemonic): the deployer's nonce goes back to 0, so the contracts land at the same
 * addresses as on every other chain; whatever code sits at those addresses, or at the simulator's
 * own accounts (an EIP-7702 delegation on a well-known key), is cleared. The accounts' balances are
 * set by the deployment's funding (deployer, solver, relayer) and by Anvil's genesis (test accounts).
 * First, the fork block's rules must run the simulator's contracts (assertCancunRules).
 */
export async function prepareForkedChain(params: { client: PublicClient; testClient: TestClient; accounts: SimulatorAccounts; chainId: number }): Promise<void> {
  const { client, testClient, accounts } = params;
  await assertCancunRules(client, params.chainId);
  const deployer = accounts.deployer.address;
  const { pool } = simulatorContractAddresses(deployer, accounts.testAccounts.length);
  const created: Address[] = [];
  for (let nonce = 0n; ; nonce++) {
    const address = getContractAddress({ from: deployer, nonce });
    created.push(address);
    if (address === pool) break;
  }
  const own = [deployer, accounts.solver.address, accounts.relayer.address, ...accounts.testAccounts.map((account) => account.address)];
  await testClient.setNonce({ address: deployer, nonce: 0 });
  await Promise.all(
    [...created, ...own].map(async (address) => {
      const code = await client.getCode({ address });
      if (code === undefined || code === '0x') return;
      await testClient.setCode({ address, bytecode: '0x' });
      // a contract's nonce starts at 1: a creation there would collide (EIP-684)
      if (created.includes(address)) await testClient.setNonce({ address, nonce: 0 });
    }),
  );
}
