// The subcommands other than `start` load their modules when they run (dynamic imports below):
// every `intentsim start` would otherwise compile the scenario runner and the conformance suite.
import { Command, InvalidArgumentError, Option } from 'commander';
import { CONFIG_FLAGS, type ConfigFlag } from './config/configFlags';
import { configDefaults } from './config/simulatorConfig';
import { formatStartSummary, startSummaryJson } from './formatStartSummary';
import { startSimulator, type StartSimulatorOptions } from './simulator';
import { watchAncestors } from './process/watchAncestors';
import { loadSimulatorConfig } from './config/simulatorConfig';
import { parseChainUrl, parseNonNegativeInteger } from './config/configFlags';
import { conformanceCommand } from './conformanceCommand';
import { parseShardFlag, SHARD_FLAG_HELP } from './shardFlag';
import type { Shard } from '../conformance/shard';
import { nodeCommand } from './nodeCommand';
import { readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_STEP_BOUNDS } from './scenario/stepBounds';
import { ConfigurationError } from './errors/IntentsimError';

/** Help text of a flag: what it does, its environment variable and its default (from the config schema). */
function helpOf(flag: ConfigFlag, defaults: Record<string, unknown>): string {
  const value = defaults[flag.key];
  const defaultText = flag.defaultLabel ?? (value === undefined ? undefined : String(value));
  return [flag.help, flag.env ? `[env: ${flag.env}]` : undefined, defaultText ? `(default: ${defaultText})` : undefined].filter(Boolean).join(' ');
}

/** The `start` options, every one from the flag table (`src/config/configFlags.ts`). */
export function startOptions(): Option[] {
  const defaults = configDefaults() as unknown as Record<string, unknown>;
  return CONFIG_FLAGS.filter((flag) => flag.flag !== undefined).map((flag) => {
    const option = new Option(flag.flag!, helpOf(flag, defaults));
    const parse = flag.parse;
    if (parse) {
      option.argParser((text: string, previous: unknown) => {
        try {
          // a repeatable flag's values are merged (`--fork 1=… --fork 8453=…`)
          return flag.repeatable ? { ...(previous as object | undefined), ...(parse(text) as object) } : parse(text);
        } catch (error) {
          throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
        }
      });
    }
    return option;
  });
}

/** The CLI: `start` (flags from the one flag table), `webhook-check`, `scenario`, `conformance` and `node` (one embedded node alone). */
export function buildCli(): Command {
  const program = new Command('intentsim').description('Local, deterministic simulator of a cross-chain intent execution service');
  const start = program.command('start').description('start local chains, the solver and the HTTP API; Ctrl-C stops everything');
  for (const option of startOptions()) start.addOption(option);
  start
    .addOption(new Option('--config <file>', 'YAML or JSON config file (the environment and flags win over it)'))
    .addOption(new Option('--json', 'print one JSON line when ready instead of the human summary'))
    .action(async (flags: Record<string, unknown> & { config?: string; json?: boolean }) => {
      // only what was given: defaults, the config file and the environment are merged by the config module
      const given = Object.fromEntries(
        CONFIG_FLAGS.filter((flag) => flag.flag !== undefined && flags[optionAttribute(flag.flag)] !== undefined).map((flag) => [flag.key, flags[optionAttribute(flag.flag!)]]),
      );
      const options: StartSimulatorOptions = { ...(given as Partial<StartSimulatorOptions>), ...(flags.config ? { configFile: flags.config } : {}) };
      await runStart(options, flags.json === true);
    });
  program
    .command('webhook-check')
    .description("send signed, forged and malformed webhook deliveries to your receiver; exit 0 only if it accepts just the valid one")
    .requiredOption('--url <url>', 'your webhook receiver (it must answer 2xx to a delivery it accepts)')
    .addOption(new Option('--api-key <key>', 'the API key your receiver verifies with (the HMAC secret)').env('INTENTSIM_API_KEY').makeOptionMandatory())
    .addOption(new Option('--json', 'print the report as one JSON object'))
    .action(async (flags: { url: string; apiKey: string; json?: boolean }) => {
      const { checkWebhookReceiver, formatWebhookCheckReport } = await import('./events/webhooks/checkWebhookReceiver');
      const report = await checkWebhookReceiver({ url: flags.url, apiKey: flags.apiKey });
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatWebhookCheckReport(report));
      process.exitCode = report.ok ? 0 : 1;
    });
  const scenario = program.command('scenario').description('replay scenario files (YAML): the same timeline, byte for byte, every run');
  scenario
    .command('run')
    .description('run every scenario file under the paths; exit 1 if any expectation is not met')
    .argument('<paths...>', 'scenario files or directories (searched for *.yaml, *.yml)')
    .addOption(new Option('--seed <n>', "seed of every scenario that names none in its file (default 1)").argParser(parseNonNegativeInteger))
    .addOption(new Option('--out <dir>', 'write one timeline file per scenario here'))
    .addOption(new Option('--shard <i/n>', `run only part i of n of the files (split by each file's path below the directory given); ${SHARD_FLAG_HELP}`).argParser(parseShardFlag))
    .addOption(new Option('--junit <file>', 'write a JUnit XML report here; with --shard, one file per shard (see --shard)'))
    .addOption(new Option('--update', 'rewrite each unmet expectation in its file with what happened'))
    .addOption(new Option('--json', 'print one JSON object with every result instead of progress lines'))
    .addOption(new Option('--step-timeout <seconds>', `real time one step may take, what it sets off settling included, before the scenario fails there naming what is pending (default ${DEFAULT_STEP_BOUNDS.wallSeconds}; wins over a file's stepBounds.wallSeconds)`).argParser(parsePositiveSeconds))
    .addOption(new Option('--step-clock-limit <seconds>', `virtual time one step may move the clock (default ${DEFAULT_STEP_BOUNDS.clockSeconds}, 7 days; wins over a file's stepBounds.clockSeconds)`).argParser(parsePositiveSeconds))
    .addOption(new Option('--verbose', 'print each step as it starts, on stderr (the timelines and --out are unchanged)'))
    .action(async (paths: string[], flags: { seed?: number; out?: string; shard?: Shard; junit?: string; update?: boolean; json?: boolean; stepTimeout?: number; stepClockLimit?: number; verbose?: boolean }) => {
      watchAncestors(() => process.exit(1));
      const { anvilPath, anvilSearchPath } = loadSimulatorConfig({});
      const { runScenarioFiles } = await import('./scenario/runScenarioFiles');
      const outcomes = await runScenarioFiles({
        paths,
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
        ...(flags.out ? { outDir: flags.out } : {}),
        ...(flags.junit ? { junitFile: flags.junit } : {}),
        ...(flags.shard ? { shard: flags.shard } : {}),
        update: flags.update === true,
        stepBounds: { ...(flags.stepTimeout === undefined ? {} : { wallSeconds: flags.stepTimeout }), ...(flags.stepClockLimit === undefined ? {} : { clockSeconds: flags.stepClockLimit }) },
        ...(flags.verbose ? { onStepStart: (line: string) => process.stderr.write(`▶ ${line}\n`) } : {}),
        anvilPath,
        anvilSearchPath,
        progress: flags.json ? () => undefined : (line) => process.stdout.write(`${line}\n`),
      });
      const failed = outcomes.filter((outcome) => !outcome.result?.passed);
      if (flags.json) {
        const results = outcomes.map((outcome) => ({
          name: outcome.relativeName,
          file: outcome.file,
          passed: outcome.result?.passed ?? false,
          error: outcome.loadError ?? outcome.result?.error ?? null,
          mismatches: (outcome.result?.mismatches ?? []).map(({ step, line, what, expected, actual, waits }) => ({ step, line, what, expected, actual, ...(waits ? { waits } : {}) })),
        }));
        process.stdout.write(`${JSON.stringify({ passed: outcomes.length - failed.length, failed: failed.length, results })}\n`);
      } else {
        process.stdout.write(`\n${outcomes.length - failed.length} passed, ${failed.length} failed\n`);
      }
      process.exitCode = failed.length === 0 ? 0 : 1;
    });
  scenario
    .command('from-record')
    .description('turn a request record (SPEC §2.3, as GET /requests/v3 returns it from any deployment) into a scenario that takes the same path locally, on any chain kind (EVM, Solana, Bitcoin, Lighter)')
    .argument('<record.json>', 'one record, or a GET /requests/v3 answer (its first record)')
    .addOption(new Option('-o, --output <file>', 'write the scenario here instead of printing it'))
    .addOption(
      new Option(
        '--fork [chain=url]',
        "write a scenario whose fork: section forks the record's chains where it happened (as replay does: EVM at the block before the deposit; Solana, Bitcoin and Lighter as they are now), deposits as the record's user and stands the solver where the upstream's stood; a value forks that chain from this RPC URL (a Bitcoin chain's: its Esplora API) (repeatable; put --fork after the file) (docs/forking.md)",
      )
        .preset('')
        .argParser((text: string, previous: Record<number, string> | undefined) => {
          if (text === '') return { ...previous };
          try {
            return { ...previous, ...(parseChainUrl(text) as Record<number, string>) };
          } catch (error) {
            throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
          }
        }),
    )
    .addOption(new Option('--from <baseUrl>', "with --fork: the deployment the record comes from, whose GET /chains names each chain's RPC URL and solver"))
    .action(async (file: string, flags: { output?: string; fork?: Record<number, string>; from?: string }) => {
      const input = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (flags.from !== undefined && flags.fork === undefined) throw new ConfigurationError('--from is read with --fork only (scenario from-record FILE --fork --from URL)');
      let yaml: string;
      if (flags.fork === undefined) {
        const { scenarioFromRecord } = await import('./scenario/scenarioFromRecord');
        yaml = scenarioFromRecord(input);
      } else {
        const { forkedScenarioFromRecord } = await import('./scenario/forkedScenarioFromRecord');
        yaml = await forkedScenarioFromRecord({ input, forks: flags.fork, ...(flags.from === undefined ? {} : { from: flags.from }) });
      }
      if (flags.output) writeFileSync(flags.output, yaml);
      else process.stdout.write(yaml);
    });
  program
    .command('replay')
    .description("replay a request of another deployment where it happened: its chains forked at the deposit's block (Solana, Bitcoin and Lighter as they are now), the deposit made again as its user, this simulator's solver standing where the upstream's stood; exit 0 when the outcome agrees, 1 when it differs, 2 on bad input (docs/forking.md)")
    .argument('<requestId>', 'the request to replay (0x and 64 hex digits)')
    .requiredOption('--from <baseUrl>', 'the deployment the request was made on (its GET /requests/v3 and GET /chains are read)')
    .addOption(new Option('--api-key <key>', "the x-api-key GET /requests/v3 needs there").env('INTENTSIM_REPLAY_API_KEY'))
    .addOption(
      new Option('--fork <chain=url>', "fork that chain from this URL instead of the deployment's httpRpcUrl (repeatable; an archive node for old blocks; a Bitcoin chain's Esplora API)").argParser((text: string, previous: Record<number, string> | undefined) => {
        try {
          return { ...previous, ...(parseChainUrl(text) as Record<number, string>) };
        } catch (error) {
          throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
        }
      }),
    )
    .addOption(new Option('--json', 'print one JSON object: original, replayed, forks, same'))
    .action(async (requestId: string, flags: { from: string; apiKey?: string; fork?: Record<number, string>; json?: boolean }) => {
      watchAncestors(() => process.exit(1));
      const { anvilPath, anvilSearchPath } = loadSimulatorConfig({});
      const { replayRequest, formatReplayReport } = await import('./scenario/replay/replayRequest');
      const report = await replayRequest({
        requestId,
        from: flags.from,
        ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
        ...(flags.fork ? { forks: flags.fork } : {}),
        startOptions: { ...(anvilPath ? { anvilPath } : {}), ...(anvilSearchPath ? { anvilSearchPath } : {}) },
      });
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatReplayReport(report));
      // the simulator it ran is stopped: nothing else is left to wait for
      process.exit(report.same ? 0 : 1);
    });
  program.addCommand(conformanceCommand());
  program.addCommand(nodeCommand());
  return program;
}

/** A number of seconds above zero (`--step-timeout 2.5`). */
function parsePositiveSeconds(text: string): number {
  const seconds = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || !(seconds > 0)) throw new InvalidArgumentError('must be a number of seconds above 0');
  return seconds;
}

/** Commander's attribute name of a flag: `--data-dir <dir>` → `dataDir`. */
function optionAttribute(flag: string): string {
  return new Option(flag).attributeName();
}

async function runStart(options: StartSimulatorOptions, json: boolean): Promise<void> {
  // npx does not pass signals on: stop when whatever started us goes away — watched from the first
  // moment, since it may go while the chains start (its pid is only known now: later it is init's)
  let stopServing: ((code: number) => void) | undefined;
  watchAncestors((why) => {
    process.stderr.write(`[intentsim] ${why}; stopping\n`);
    // still starting: exiting is all it takes (the chain processes die with this one, by the parent-death signal)
    if (stopServing) stopServing(0);
    else process.exit(1);
  });
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
  process.once('SIGHUP', () => shutdown(0));
  stopServing = shutdown;
  void sim.fatal.then(() => process.exit(1));
  // a reader that took the summary and closed the pipe (`intentsim start --json | head -1`) is
  // not a reason to stop serving; any other stdout failure is
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') shutdown(1);
  });

  if (json) {
    process.stdout.write(`${JSON.stringify(startSummaryJson(sim))}\n`);
  } else {
    process.stdout.write(formatStartSummary(sim));
  }
}

buildCli()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    process.stderr.write(`intentsim: ${error instanceof Error ? error.message : String(error)}\n`);
    // bad input (a setting, a flag, an upstream that is not what it was said to be) is exit code 2
    process.exit(error instanceof ConfigurationError ? 2 : 1);
  });
