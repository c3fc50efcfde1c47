import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_FLAGS, parseChainIdList, parseNonNegativeInteger } from '../../src/config/configFlags';
import { OPTIONS_DOC_PATH, renderOptionsDoc } from '../../scripts/generate-options-doc';
import { configDefaults, ENVIRONMENT_VARIABLES, loadSimulatorConfig } from '../../src/config/simulatorConfig';

/** The one flag table drives the CLI, the environment and docs/options.md. */
describe('the flag table', () => {
  const help = execFileSync(process.execPath, ['bin/intentsim.js', 'start', '--help'], { encoding: 'utf8' }).replace(/\s+/g, ' ');

  it('`intentsim start --help` lists every flag with its environment variable and its default from the schema', () => {
    const defaults = configDefaults() as unknown as Record<string, unknown>;
    for (const flag of CONFIG_FLAGS.filter((f) => f.flag)) {
      expect(help, flag.flag).toContain(flag.flag!);
      if (flag.env) expect(help, flag.flag).toContain(`[env: ${flag.env}]`);
      const shown = flag.defaultLabel ?? (defaults[flag.key] === undefined ? undefined : String(defaults[flag.key]));
      if (shown) expect(help, flag.flag).toContain(`(default: ${shown})`);
    }
  });

  it("every key with a flag is a config key (the schema's default parse knows it)", () => {
    const keys = new Set(Object.keys(configDefaults()).concat(['dbPath', 'dataDir', 'anvilPath', 'anvilSearchPath', 'clockStartMs', 'solanaTestValidatorPath', 'publicUrl']));
    for (const flag of CONFIG_FLAGS) expect(keys.has(flag.key), flag.key).toBe(true);
  });

  it('docs/options.md holds the table as the flag table says now (run `npm run options-doc`)', () => {
    const page = readFileSync(OPTIONS_DOC_PATH, 'utf8');
    expect(page, 'docs/options.md is stale: run `npm run options-doc`').toBe(renderOptionsDoc(page));
    for (const flag of CONFIG_FLAGS) {
      if (flag.flag) expect(page, flag.flag).toContain(`\`${flag.flag}\``);
      if (flag.env) expect(page, flag.env).toContain(`\`${flag.env}\``);
    }
  });

  it('the environment variables come from the table; values parse as the flags do', () => {
    expect(ENVIRONMENT_VARIABLES).toMatchObject({ INTENTSIM_PORT: 'port', INTENTSIM_ANVIL: 'anvilPath' });
    expect(loadSimulatorConfig({ env: { INTENTSIM_PORT: '7000', PATH: '/bin' } })).toMatchObject({ port: 7000, anvilSearchPath: '/bin' });
    expect(parseNonNegativeInteger('12')).toBe(12);
    expect(() => parseNonNegativeInteger('1e3')).toThrow(/non-negative integer/);
    expect(parseChainIdList('1, 8453')).toEqual([{ id: 1 }, { id: 8453 }]);
    expect(() => parseChainIdList('1,0')).toThrow(/chain ids/);
  });

  it('a bad flag value is refused by the CLI before anything starts', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, ['bin/intentsim.js', 'start', '--clock', 'sometimes'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      stderr = String((error as { stderr: string }).stderr);
    }
    expect(stderr).toMatch(/--clock <mode>.*must be one of real, manual/);
  });
});
