import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_PORT } from './config/simulatorConfig';
import { checkWebhookReceiver, formatWebhookCheckReport } from './events/webhooks/checkWebhookReceiver';
import { formatStartSummary } from './formatStartSummary';
import { startSimulator, type StartSimulatorOptions } from './simulator';

function parseInteger(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('must be a non-negative integer');
  return Number(value);
}

function parseChainIds(value: string): number[] {
  const ids = value.split(',').map((part) => part.trim());
  if (ids.some((id) => !/^[0-9]+$/.test(id) || Number(id) === 0)) throw new InvalidArgumentError('must be comma-separated chain ids, e.g. 1,8453,42161');
  return ids.map(Number);
}

/** One flag table: each flag has its default, its environment variable and its help. */
export function buildCli(): Command {
  const program = new Command('intentsim').description('Local, deterministic simulator of a cross-chain intent execution service');
  program
    .command('start')
    .description('start local chains, the solver and the HTTP API; Ctrl-C stops everything')
    .addOption(new Option('--port <n>', `HTTP port (0 = any free port)`).argParser(parseInteger).env('INTENTSIM_PORT').default(DEFAULT_PORT))
    .addOption(new Option('--host <host>', 'HTTP host to bind').default('127.0.0.1'))
    .addOption(new Option('--db <file>', 'SQLite file; with it, requests and chain state survive a restart (default: a fresh temporary file)').env('INTENTSIM_DB'))
    .addOption(new Option('--seed <n>', 'seed of the simulator RNG and request ids').argParser(parseInteger).env('INTENTSIM_SEED').default(1))
    .addOption(new Option('--chains <ids>', 'comma-separated EVM chain ids to run').argParser(parseChainIds).default([1, 8453, 42161], '1,8453,42161'))
    .addOption(new Option('--config <file>', 'YAML or JSON config file (flags win over it)'))
    .addOption(new Option('--data-dir <dir>', 'where chain logs and chain state go').env('INTENTSIM_DATA_DIR'))
    .addOption(new Option('--json', 'print one JSON line when ready instead of the human summary'))
    .action(async (flags: { port: number; host: string; db?: string; seed: number; chains: number[]; config?: string; dataDir?: string; json?: boolean }, command: Command) => {
      const explicit = (name: string) => command.getOptionValueSource(name) !== 'default';
      const options: StartSimulatorOptions = {
        ...(explicit('port') ? { port: flags.port } : {}),
        ...(explicit('host') ? { host: flags.host } : {}),
        ...(flags.db ? { dbPath: flags.db } : {}),
        ...(explicit('seed') ? { seed: flags.seed } : {}),
        ...(explicit('chains') ? { chains: flags.chains.map((id) => ({ id, resetOnStart: false })) } : {}),
        ...(flags.config ? { configFile: flags.config } : {}),
        ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
      };
      await runStart(options, flags.json === true);
    });
  program
    .command('webhook-check')
    .description("send signed, forged and malformed webhook deliveries to your receiver; exit 0 only if it accepts just the valid one")
    .requiredOption('--url <url>', 'your webhook receiver (it must answer 2xx to a delivery it accepts)')
    .addOption(new Option('--api-key <key>', 'the API key your receiver verifies with (the HMAC secret)').env('INTENTSIM_API_KEY').makeOptionMandatory())
    .addOption(new Option('--json', 'print the report as one JSON object'))
    .action(async (flags: { url: string; apiKey: string; json?: boolean }) => {
      const report = await checkWebhookReceiver({ url: flags.url, apiKey: flags.apiKey });
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatWebhookCheckReport(report));
      process.exitCode = report.ok ? 0 : 1;
    });
  return program;
}

async function runStart(options: StartSimulatorOptions, json: boolean): Promise<void> {
  const sim = await startSimulator(options);
  const shutdown = (code: number) => {
    sim.stop().then(
      () => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`[intentsim] stop failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown(0));
  process.once('SIGTERM', () => shutdown(0));
  void sim.fatal.then(() => process.exit(1));

  if (json) {
    process.stdout.write(`${JSON.stringify({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, chains: sim.chains, accounts: sim.accounts })}\n`);
  } else {
    process.stdout.write(formatStartSummary(sim));
  }
}

buildCli()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`intentsim: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
