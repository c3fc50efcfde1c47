import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { startTestSimulator } from '../support/startTestSimulator';

/** The README's examples run as written (a review found one that did not). */
function codeBlockAfter(heading: string, language: string): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const open = section.indexOf('```' + language + '\n');
  return section.slice(open + language.length + 4, section.indexOf('\n```', open) + 1);
}

describe('README snippets', () => {
  let sim: RunningSimulator;
  let dir: string;
  beforeAll(async () => {
    sim = await startTestSimulator();
    // a directory of the user's own: the snippet file, and the packages it imports
    dir = mkdtempSync(join(tmpdir(), 'intentsim-readme-'));
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  });
  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('"With the official SDK": the snippet, unedited, bridges through the simulator to success', async () => {
    const snippet = codeBlockAfter('### With the official SDK', 'ts');
    expect(snippet).toContain("from '@relayprotocol/relay-sdk'");
    const file = join(dir, 'sdk-bridge.mts');
    writeFileSync(file, snippet);
    const { stdout } = await promisify(execFile)(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), file], {
      cwd: dir,
      env: { ...process.env, INTENTSIM_URL: sim.baseUrl },
      timeout: 60_000,
    });
    const requestId = /done: (0x[0-9a-f]{64})/.exec(stdout)?.[1];
    expect(requestId, stdout).toBeDefined();
    expect(sim.control.requests.get(requestId!)?.status).toBe('success');
    expect(stdout).toContain('deposit');
  }, 90_000);
});

describe('README scenario example', () => {
  it('is a scenario of the library, word for word', () => {
    const snippet = codeBlockAfter('## Scenarios', 'yaml scenario');
    expect(snippet).toBe(readFileSync('scenarios/bridge/native-bridge-success.yaml', 'utf8'));
  });
});

describe('README "Checking a deployment"', () => {
  let sim: RunningSimulator;
  let dir: string;
  beforeAll(async () => {
    sim = await startTestSimulator();
    dir = mkdtempSync(join(tmpdir(), 'intentsim-readme-conformance-'));
  });
  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('each command runs as written against the simulator and exits 0; the JUnit and JSON files are written', async () => {
    const commands = codeBlockAfter('## Checking a deployment', 'sh')
      .split('\n')
      .filter((line) => line.startsWith('npx intentsim conformance'));
    expect(commands).toHaveLength(3);
    for (const command of commands) {
      // the user's shell would expand these; the port is the test simulator's
      const args = command
        .replace('npx intentsim ', '')
        .replaceAll('http://127.0.0.1:4646', sim.baseUrl)
        .replaceAll('"$KEY"', sim.apiKey)
        .replaceAll('"$PRIVATE_KEY"', sim.accounts[4]!.privateKey)
        .split(' ');
      const { stdout } = await promisify(execFile)(process.execPath, [resolve('bin/intentsim.js'), ...args], { cwd: dir, timeout: 120_000 });
      expect(stdout, command).toMatch(/\d+ passed, 0 failed, \d+ skipped in/);
    }
    const junit = readFileSync(join(dir, 'conformance.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="intentsim conformance" tests="\d+" failures="0"/);
    expect(junit).toContain('classname="SPEC §7.1"');
    // --only 7.1,listing: the JSON report holds those checks and no others
    const json = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { passed: boolean; results: Array<{ id: string; section: string }> };
    expect(json.passed).toBe(true);
    expect(json.results.length).toBeGreaterThan(0);
    expect(json.results.filter((result) => !(result.section === '7.1' || result.section.startsWith('7.1.') || result.id.startsWith('listing.'))).map((r) => r.id)).toEqual([]);
  }, 300_000);
});
