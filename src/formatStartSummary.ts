import type { RunningSimulator } from './simulator';

/** The one summary printed after everything is ready: API, chains, contracts, accounts, logs. */
export function formatStartSummary(sim: RunningSimulator): string {
  const lines: string[] = [];
  lines.push('intentsim is ready', '', `API        ${sim.baseUrl}`, `API key    ${sim.apiKey}   (x-api-key for GET /requests/v3; HMAC key of webhooks)`, `Database   ${sim.dbPath}`, '', 'Chains');
  for (const chain of sim.chains) {
    const evm = sim.control.evmChain(chain.id);
    const described = evm.describe();
    lines.push(`  ${String(chain.id).padEnd(8)} ${described.displayName.padEnd(14)} ${chain.rpcUrl}   log: ${described.logFile}`);
  }
  const first = sim.chains[0];
  if (first) {
    const contracts = sim.control.evmChain(first.id).contractAddresses;
    lines.push('', 'Contracts (same address on every chain)');
    lines.push(`  depository        ${contracts.depository}`);
    lines.push(`  service receiver  ${contracts.serviceReceiver}`);
    lines.push(`  USDC (6 dec.)     ${contracts.stablecoin}`);
    lines.push(`  wrapped native    ${contracts.wrappedNative}`);
    lines.push(`  multicall3        ${contracts.multicall3}`);
    lines.push(`  deposit addresses ${contracts.depositAddressFactory}   (factory)`);
    lines.push(`  pool              ${contracts.pool}   (wrapped native / USDC, x·y=k, 0.3% fee)`);
    lines.push(`  solver wallet     ${sim.control.solverAddress}`);
  }
  lines.push('', 'Accounts (10000 ETH and 1,000,000 USDC on every chain)');
  sim.accounts.forEach((account, i) => lines.push(`  (${i}) ${account.address}  ${account.privateKey}`));
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}
