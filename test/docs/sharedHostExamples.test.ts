import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chainKindFacts } from '../../src/chains/chainKinds';
import { parseChainPorts } from '../../src/config/configFlags';
import { resolveChainPorts } from '../../src/config/resolveChainPorts';
import { ENVIRONMENT_VARIABLES, loadSimulatorConfig, resolveChains, type SimulatorConfig } from '../../src/config/simulatorConfig';

/**
 * The examples of docs/shared-host.md (docs/examples/: the image, the CI service, `docker run`):
 * each maps every port its simulator listens on, one to one, and uses only flags and variables
 * `intentsim start` has.
 */
const dockerfile = readFileSync('docs/examples/intentsim.Dockerfile', 'utf8');
const dockerRun = readFileSync('docs/examples/docker-run.sh', 'utf8').replace(/\\\n\s*/g, ' ');
const workflow = parse(readFileSync('docs/examples/github-actions-service.yml', 'utf8')) as {
  jobs: Record<string, { services: { intentsim: { ports?: string[]; env?: Record<string, string> } } }>;
};
const startHelp = execFileSync(process.execPath, ['bin/intentsim.js', 'start', '--help'], { encoding: 'utf8' });

/** Every port a simulator of this config listens on: the API's and each chain's servers'. */
function listeningPorts(config: SimulatorConfig): number[] {
  const first = resolveChainPorts(config, (vm) => chainKindFacts(vm).clientServers);
  const chains = resolveChains(config);
  expect(Object.keys(first).map(Number).sort(), 'every chain has a fixed port').toEqual(chains.map((chain) => chain.id).sort());
  return [config.port, ...chains.flatMap((chain) => chainKindFacts(chain.vm).clientServers.map((_, offset) => first[chain.id]! + offset))].sort((a, b) => a - b);
}

/** `-p A-B:A-B` and `-p A:A` of a docker run: the host ports, each the same as its container port. */
function publishedPorts(command: string): number[] {
  return [...command.matchAll(/-p (\d+)(?:-(\d+))?:(\d+)(?:-(\d+))?/g)].flatMap((match) => {
    expect(match[1], match[0]).toBe(match[3]);
    expect(match[2], match[0]).toBe(match[4]);
    const [from, to] = [Number(match[1]), Number(match[2] ?? match[1])];
    return Array.from({ length: to - from + 1 }, (_, index) => from + index);
  });
}

describe('the shared-host examples', () => {
  const imageEnv = Object.fromEntries([...dockerfile.matchAll(/^ENV (\w+)=(\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
  const imageCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
  const imageConfig = loadSimulatorConfig({ env: imageEnv, options: { port: Number(imageCommand[imageCommand.indexOf('--port') + 1]) } });
  const ports = listeningPorts(imageConfig);

  it('the image listens on every interface and exposes each port its simulator listens on', () => {
    expect(imageCommand.slice(0, 2)).toEqual(['intentsim', 'start']);
    expect(imageCommand[imageCommand.indexOf('--host') + 1]).toBe('0.0.0.0');
    const exposed = /^EXPOSE (.*)$/m.exec(dockerfile)![1]!.split(/\s+/).map(Number);
    expect(exposed.sort((a, b) => a - b)).toEqual(ports);
    for (const name of Object.keys(imageEnv)) expect(ENVIRONMENT_VARIABLES[name], name).toBeDefined();
    for (const flag of imageCommand.filter((word) => word.startsWith('--'))) expect(startHelp, flag).toContain(flag);
  });

  it('the CI service maps each of those ports one to one; its environment is one intentsim reads', () => {
    const mapped = workflow.jobs['on-the-runner']!.services.intentsim.ports!.map((mapping) => {
      const [host, container] = mapping.split(':');
      expect(host, mapping).toBe(container);
      return Number(host);
    });
    expect(mapped.sort((a, b) => a - b)).toEqual(ports);
    const env = workflow.jobs['in-a-container']!.services.intentsim.env ?? {};
    for (const name of Object.keys(env)) expect(ENVIRONMENT_VARIABLES[name], name).toBeDefined();
    expect(loadSimulatorConfig({ env })).toBeDefined();
  });

  it('docker run fixes the same ports with --chain-port and publishes each of them', () => {
    const given = [...dockerRun.matchAll(/--chain-port (\S+)/g)].reduce((all, match) => ({ ...all, ...parseChainPorts(match[1]!) }), {});
    expect(given).toEqual(imageConfig.chainPorts);
    const port = Number(/ --port (\d+)/.exec(dockerRun)![1]);
    expect(listeningPorts(loadSimulatorConfig({ env: {}, options: { port, chainPorts: given } }))).toEqual(ports);
    expect(publishedPorts(dockerRun).sort((a, b) => a - b)).toEqual(ports);
    for (const flag of dockerRun.slice(dockerRun.indexOf('intentsim start')).match(/--[a-z-]+/g) ?? []) expect(startHelp, flag).toContain(flag);
  });
});
