import { writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Shard } from '../conformance/shard';
import { parseShardFlag, SHARD_FLAG_HELP } from './shardFlag';

function parseRpcUrl(text: string, previous: Record<number, string> = {}): Record<number, string> {
  const match = /^(\d+)=(.+)$/.exec(text);
  if (!match) throw new InvalidArgumentError('expected CHAIN_ID=URL, e.g. 1=http://127.0.0.1:8545');
  return { ...previous, [Number(match[1])]: match[2]! };
}

/** `intentsim conformance`: checks any deployment of the interface over HTTP against the SPEC. */
export function conformanceCommand(): Command {
  return new Command('conformance')
    .description('check a deployment (this simulator, a mock, the real service) against the SPEC over HTTP; exit 0 only if every selected check passes, 1 if one fails, 2 if the deployment does not answer')
    .requiredOption('--base-url <url>', 'the deployment to check, e.g. http://127.0.0.1:4646')
    .addOption(new Option('--api-key <key>', 'an API key of the deployment (listing, webhooks)').env('INTENTSIM_API_KEY'))
    .addOption(new Option('--mode <mode>', 'read-only never pays and never calls /admin; full pays deposits and uses the control plane where there is one').choices(['read-only', 'full']).default('read-only'))
    .addOption(new Option('--only <tags>', 'comma list of SPEC sections (7.1, 4), families (listing) or check ids'))
    .addOption(new Option('--private-key <hex>', 'full mode: a funded account on the target chains').env('INTENTSIM_CONFORMANCE_PRIVATE_KEY'))
    .addOption(new Option('--rpc <chainId=url>', 'full mode: a chain RPC URL, when /chains httpRpcUrl is not reachable (repeatable)').argParser(parseRpcUrl))
    .addOption(new Option('--shard <i/n>', `run only part i of n of the selected checks (split by check id); ${SHARD_FLAG_HELP}`).argParser(parseShardFlag))
    .addOption(new Option('--junit <file>', 'write a JUnit XML report (one test case per check, named by SPEC section); with --shard, one file per shard (see --shard)'))
    .addOption(new Option('--json <file>', 'write the whole report as JSON (with --shard, one file per shard, named as --junit)'))
    .action(async (flags: { baseUrl: string; apiKey?: string; mode: 'read-only' | 'full'; only?: string; privateKey?: `0x${string}`; rpc?: Record<number, string>; shard?: Shard; junit?: string; json?: string }) => {
      // loaded when this command runs: `intentsim start` does not pay for the suite at every start
      const { jsonReport, junitReport, probeBaseUrl, progressLine, runConformance, shardReportPath, terminalReport } = await import('../conformance');
      // a deployment that does not answer is one fact, not a failure of every check: say it, exit 2
      const unreachable = await probeBaseUrl(flags.baseUrl);
      if (unreachable) {
        process.stderr.write(`intentsim conformance: ${unreachable}; no check was run\n`);
        process.exitCode = 2;
        return;
      }
      const report = await runConformance({
        baseUrl: flags.baseUrl,
        mode: flags.mode,
        ...(flags.shard ? { shard: flags.shard } : {}),
        ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
        ...(flags.only ? { only: flags.only.split(',').map((tag) => tag.trim()).filter(Boolean) } : {}),
        ...(flags.privateKey ? { privateKey: flags.privateKey } : {}),
        ...(flags.rpc ? { rpcUrls: flags.rpc } : {}),
        onProgress: ({ index, total, result }) => {
          if (result) process.stdout.write(`${progressLine(index, total, result)}\n`);
        },
      });
      process.stdout.write(terminalReport(report));
      if (flags.junit) writeFileSync(shardReportPath(flags.junit, flags.shard), junitReport(report));
      if (flags.json) writeFileSync(shardReportPath(flags.json, flags.shard), jsonReport(report));
      process.exitCode = report.passed ? 0 : 1;
    });
}
