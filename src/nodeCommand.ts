import { validateMnemonic } from '@scure/bip39';
import { wordlist as englishWordlist } from '@scure/bip39/wordlists/english';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { EmbeddedNodeOptions } from './nodes/embeddedNodeOptions';
import type { StartedNode } from './nodes/StartedNode';
import { assertSupportedPlatform } from './process/supportedPlatform';
import { watchAncestors } from './process/watchAncestors';

const NODE_KINDS = ['svm', 'bitcoin', 'exchange'] as const;
type NodeKind = (typeof NODE_KINDS)[number];

/** How each kind of node starts alone, through the node's face, optionally forking the upstream at `forkUrl` (each kind names it its own way); each kind's code loads only when asked for. */
const NODE_STARTS: Record<NodeKind, (options: EmbeddedNodeOptions, forkUrl: string | undefined) => Promise<StartedNode>> = {
  svm: async (options, forkUrl) => {
    assertSupportedPlatform(); // LiteSVM publishes no build for the others
    return (await import('./nodes/svm')).startSvmNode({ ...options, ...(forkUrl ? { fork: { url: forkUrl } } : {}) });
  },
  bitcoin: async (options, forkUrl) => (await import('./nodes/bvm')).startBvmNode({ ...options, ...(forkUrl ? { fork: { esploraUrl: forkUrl } } : {}) }),
  exchange: async (options, forkUrl) => (await import('./nodes/lvm')).startLvmNode({ ...options, ...(forkUrl ? { fork: { apiUrl: forkUrl } } : {}) }),
};

/** Starts one embedded node alone. */
function startNodeOfKind(kind: NodeKind, options: EmbeddedNodeOptions, forkUrl: string | undefined): Promise<StartedNode> {
  return NODE_STARTS[kind](options, forkUrl);
}

/** An upstream's URL as the summary shows it: its origin only (a provider's URL often holds an API key in its path or query). */
function shownUpstream(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
}

const NODE_TITLES: Record<NodeKind, { title: string; keys: string }> = {
  svm: { title: 'Solana node (LiteSVM, Solana JSON-RPC)', keys: 'secret keys in base58 (Keypair.fromSecretKey)' },
  bitcoin: { title: 'Bitcoin regtest node (Bitcoin Core JSON-RPC)', keys: 'private keys in WIF' },
  exchange: { title: 'Lighter exchange node (its HTTP API)', keys: 'API keys (header x-api-key)' },
};

/** What `intentsim node <kind>` prints when the node is up. */
export function formatNodeSummary(node: StartedNode & { wsUrl?: string; stablecoinMint?: string; esploraUrl?: string; forkOf?: string }): string {
  const { title, keys } = NODE_TITLES[node.kind];
  const lines = [`intentsim ${title}, chain ${node.chainId}`, `RPC URL:   ${node.rpcUrl}`];
  if (node.forkOf) lines.push(`Fork of:   ${node.forkOf}   (what it does not hold is read from there when first asked, as it is then)`);
  if (node.wsUrl) lines.push(`Websocket: ${node.wsUrl}`);
  if (node.stablecoinMint) lines.push(`USDC mint: ${node.stablecoinMint}`);
  if (node.esploraUrl) lines.push(`Esplora:   ${node.esploraUrl}`);
  lines.push('', `Funded accounts (${keys}):`);
  node.fundedAccounts.forEach((account, index) => {
    const owner = account.owner ? `  owner ${account.owner}` : '';
    lines.push(`(${index}) ${account.address}  ${account.balance}${owner}`, `    ${account.privateKey}`);
  });
  lines.push('', 'Ctrl-C stops it.', '');
  return lines.join('\n');
}

function parseInteger(text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
  return value;
}

function parseHttpUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new InvalidArgumentError('expected an http(s) URL');
  return text;
}

function parseMnemonic(text: string): string {
  const mnemonic = text.trim();
  if (!validateMnemonic(mnemonic, englishWordlist)) throw new InvalidArgumentError('must be a BIP-39 mnemonic (English words, valid checksum)');
  return mnemonic;
}

/** `intentsim node svm|bitcoin|exchange`: one embedded node alone, until Ctrl-C. */
export function nodeCommand(): Command {
  return new Command('node')
    .description('start one embedded node alone (no intent service): print its RPC URL and funded accounts, run until Ctrl-C')
    .addArgument(new Command().createArgument('<kind>', 'which node').choices(NODE_KINDS))
    .addOption(new Option('--host <host>', 'where its RPC listens').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'its RPC port (svm: the websocket takes the next one; default: a free port)').argParser((text) => parseInteger(text, 1, 65_534)))
    .addOption(new Option('--mnemonic <words>', "the accounts' mnemonic (default: Anvil's, as intentsim start)").argParser(parseMnemonic))
    .addOption(new Option('--accounts <count>', 'how many funded test accounts').default(10).argParser((text) => parseInteger(text, 1, 100)))
    .addOption(new Option('--chain-id <id>', "the chain id its keys and hashes are derived for (default: the simulator's id for that chain)").argParser((text) => parseInteger(text, 1, Number.MAX_SAFE_INTEGER)))
    .addOption(new Option('--fork <url>', "run as a fork of another node of the kind (svm: a Solana JSON-RPC; bitcoin: an Esplora; exchange: a Lighter API), reading what it does not hold from there when first asked (docs/forking-solana.md, docs/forking-bitcoin-lighter.md)").argParser(parseHttpUrl))
    .addOption(new Option('--json', 'print one JSON line when ready instead of the summary'))
    .action(async (kind: NodeKind, flags: { host: string; port?: number; mnemonic?: string; accounts: number; chainId?: number; fork?: string; json?: boolean }) => {
      const node = await startNodeOfKind(kind, {
        host: flags.host,
        accountCount: flags.accounts,
        ...(flags.port !== undefined ? { port: flags.port } : {}),
        ...(flags.mnemonic ? { mnemonic: flags.mnemonic } : {}),
        ...(flags.chainId !== undefined ? { chainId: flags.chainId } : {}),
      }, flags.fork);
      const shutdown = () => {
        node.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`[intentsim] stop failed: ${String(error)}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
      process.once('SIGHUP', shutdown);
      // npx does not pass signals on: stop when whatever started us goes away
      watchAncestors((why) => {
        process.stderr.write(`[intentsim] ${why}; stopping\n`);
        shutdown();
      });
      const extra: StartedNode & { wsUrl?: string; stablecoinMint?: string; esploraUrl?: string; forkOf?: string } = { ...node, ...(flags.fork ? { forkOf: shownUpstream(flags.fork) } : {}) };
      const printed = flags.json
        ? `${JSON.stringify({ kind: node.kind, chainId: node.chainId, rpcUrl: node.rpcUrl, ...(extra.forkOf ? { forkOf: extra.forkOf } : {}), ...(extra.wsUrl ? { wsUrl: extra.wsUrl, stablecoinMint: extra.stablecoinMint } : {}), ...(extra.esploraUrl ? { esploraUrl: extra.esploraUrl } : {}), fundedAccounts: node.fundedAccounts })}\n`
        : formatNodeSummary(extra);
      process.stdout.write(printed);
    });
}
