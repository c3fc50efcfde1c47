import { getContractAddress, type Address, type PublicClient, type TestClient } from 'viem';
import type { SimulatorAccounts } from '../../keys/simulatorAccounts';
import { simulatorContractAddresses } from './deploySimulatorContracts';

/**
 * Makes a forked chain ready for the simulator's own deployment, with cheat calls (local only,
 * nothing is sent upstream). The upstream may already use the simulator's keys (they derive from a
 * public test mnemonic): the deployer's nonce goes back to 0, so the contracts land at the same
 * addresses as on every other chain; whatever code sits at those addresses, or at the simulator's
 * own accounts (an EIP-7702 delegation on a well-known key), is cleared. The accounts' balances are
 * set by the deployment's funding (deployer, solver, relayer) and by Anvil's genesis (test accounts).
 */
export async function prepareForkedChain(params: { client: PublicClient; testClient: TestClient; accounts: SimulatorAccounts }): Promise<void> {
  const { client, testClient, accounts } = params;
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
