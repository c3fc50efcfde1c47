import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseShard, shardReportPath } from '../../conformance/shard';

/**
 * The CI matrix example of docs/testing.md (docs/examples/github-actions-shards.yml, shown there
 * as an excerpt): each job's matrix lists every shard 1..n of the `--shard i/n` its command uses,
 * each shard writes its own report, and every flag it passes is one the CLI has.
 */
type Job = { strategy: { matrix: { shard: number[] } }; steps: Array<{ run?: string }> };
const workflow = parse(readFileSync('docs/examples/github-actions-shards.yml', 'utf8')) as { jobs: Record<string, Job> };

/** The intentsim commands of a job's steps, one per command (continued lines joined). */
function intentsimCommands(job: Job): string[] {
  return job.steps
    .flatMap((step) => (step.run ?? '').replace(/\\\n\s*/g, ' ').split('\n'))
    .filter((line) => /npx intentsim (scenario run|conformance)/.test(line) && line.includes('--shard'));
}

const helpOf = (command: string[]) => execFileSync(process.execPath, ['bin/intentsim.js', ...command, '--help'], { encoding: 'utf8' });

describe('the CI matrix example', () => {
  it('splits both the scenario library and the conformance suite', () => {
    expect(Object.keys(workflow.jobs).sort()).toEqual(['conformance', 'scenarios']);
  });

  for (const [name, job] of Object.entries(workflow.jobs)) {
    it(`${name}: the matrix runs shards 1..n of --shard i/n, each with its own JUnit file, with flags the CLI has`, () => {
      const shards = job.strategy.matrix.shard;
      const commands = intentsimCommands(job);
      expect(commands).toHaveLength(1);
      const command = commands[0]!;
      const count = Number(/--shard \$\{\{ matrix\.shard \}\}\/(\d+)/.exec(command)?.[1]);
      expect(shards).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      const junit = /--junit (\S+)/.exec(command)?.[1];
      expect(junit).toBeDefined();
      const files = shards.map((index) => shardReportPath(junit!, parseShard(command.replace('${{ matrix.shard }}', String(index)).match(/--shard (\S+)/)![1]!)));
      expect(new Set(files).size).toBe(shards.length);
      const help = helpOf(command.includes('scenario run') ? ['scenario', 'run'] : ['conformance']);
      for (const flag of command.match(/--[a-z-]+/g) ?? []) expect(help, flag).toContain(flag);
    });
  }
});
