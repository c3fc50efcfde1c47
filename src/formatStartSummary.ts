import type { RunningSimulator } from './simulator';
import { formatAmount } from './domain/money/formatAmount';
import type { ChainDescription } from './domain/chain/chainDescription';

/** The URLs a chain's clients need beside its RPC URL, named as in --json: its websocket (`wsRpcUrl`, "" when it has none) and the chain's own (`clientUrls`). */
function clientUrlsOf(described: ChainDescription): Record<string, string> {
  return { wsRpcUrl: described.wsRpcUrl, ...described.clientUrls };
}

/** The one summary printed after everything is ready: API, chains, contracts, accounts, logs. */
export function formatStartSummary(sim: RunningSimulator): string {
  const lines: string[] = [];
  lines.push('intentsim is ready', '', `API        ${sim.baseUrl}`, `Explorer   ${sim.baseUrl}/   (every request live, timelines, transaction pages)`, `API key    ${sim.apiKey}   (x-api-key for GET /requests/v3; HMAC key of webhooks)`, `Database   ${sim.dbPath}`, '', 'Chains');
  const idWidth = Math.max(8, ...sim.chains.map((chain) => String(chain.id).length));
  for (const chain of sim.chains) {
    const described = sim.control.chain(chain.id).describe();
    lines.push(`  ${String(chain.id).padEnd(idWidth)} ${described.displayName.padEnd(14)} ${chain.rpcUrl}   log: ${described.logFile}`);
    // the other URLs its clients need, by the name --json gives each (a chain without a websocket has none to show)
    for (const [name, url] of Object.entries(clientUrlsOf(described)).filter(([, url]) => url !== '')) lines.push(`  ${''.padEnd(idWidth)} ${name.padEnd(14)} ${url}`);
    if (described.fork) lines.push(`  ${''.padEnd(idWidth)} ${'fork of'.padEnd(14)} ${described.fork.url}   (${described.fork.note})`);
  }
  // the simulator's contracts are on the chains that share the top-level accounts (the EVM chains)
  const first = sim.chains.find((chain) => chain.accounts === undefined);
  if (first) {
    lines.push('', 'Contracts (same address on every chain)');
    for (const contract of sim.control.chain(first.id).describe().summaryContracts) {
      lines.push(`  ${contract.label.padEnd(17)} ${contract.address}${contract.note ? `   ${contract.note}` : ''}`);
    }
    lines.push(`  solver wallet     ${sim.control.solverAddress}`);
  }
  lines.push('', 'Solver inventory (pays any route whose destination has no pool for the currency; GET /chains/liquidity)');
  for (const chain of sim.chains) {
    const held = chain.solverInventory.map((entry) => formatAmount(BigInt(entry.balance), entry)).join(' · ');
    lines.push(`  ${String(chain.id).padEnd(idWidth)} ${sim.control.chain(chain.id).describe().displayName.padEnd(14)} ${held}`);
  }
  lines.push('', 'Accounts (10000 ETH and 1,000,000 USDC on every chain)');
  sim.accounts.forEach((account, i) => lines.push(`  (${i}) ${account.address}  ${account.privateKey}`));
  for (const chain of sim.chains) {
    if (!chain.accounts) continue;
    const described = sim.control.chain(chain.id).describe();
    lines.push('', `${described.displayName} accounts (chain ${chain.id}${described.fundedAccountsNote ? `: ${described.fundedAccountsNote}` : ''})`);
    const addressWidth = Math.max(...chain.accounts.map((account) => account.address.length));
    chain.accounts.forEach((account, i) => lines.push(`  (${i}) ${account.address.padEnd(addressWidth)}  ${account.privateKey}${account.owner ? `  ${account.owner}` : ''}`));
    for (const contract of described.summaryContracts) lines.push(`  ${contract.label.padEnd(17)} ${contract.address}${contract.note ? `   ${contract.note}` : ''}`);
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  return lines.join('\n');
}

/** The one JSON line of `intentsim start --json`: what the summary shows, for programs. */
export function startSummaryJson(sim: RunningSimulator): Record<string, unknown> {
  return {
    baseUrl: sim.baseUrl,
    apiKey: sim.apiKey,
    solverAddress: sim.control.solverAddress,
    chains: sim.chains.map((chain) => {
      const described = sim.control.chain(chain.id).describe();
      return {
        ...chain,
        ...clientUrlsOf(described),
        logFile: described.logFile,
        ...(described.fork ? { fork: described.fork } : {}),
        depository: described.depository,
        contracts: Object.fromEntries(described.summaryContracts.map((contract) => [contract.label, contract.address])),
        currencies: [described.nativeCurrency, ...described.erc20Currencies].map((currency) => ({
          symbol: currency.symbol,
          address: currency.address,
          decimals: currency.decimals,
        })),
      };
    }),
    accounts: sim.accounts,
  };
}
