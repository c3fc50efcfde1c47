import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC_PATH, readImportRules, renderArchitectureDoc } from '../../scripts/generate-architecture-doc';
import { readablePath, renderImportRulesTable } from '../../scripts/docs/importRulesTable';

describe('ARCHITECTURE.md says what the build enforces', () => {
  it('its import-rule table is the one .dependency-cruiser.cjs gives now (run `npm run architecture-doc`)', () => {
    const page = readFileSync(ARCHITECTURE_DOC_PATH, 'utf8');
    expect(page, 'ARCHITECTURE.md is stale: run `npm run architecture-doc`').toBe(renderArchitectureDoc(page));
    expect(readImportRules().length).toBeGreaterThan(20);
  });

  it('rule paths read as paths', () => {
    expect(readablePath('^src/(simulator|index|cli)\\.ts$')).toBe('src/{simulator,index,cli}.ts');
    expect(readablePath('^src/nodes/([^/]+)/')).toBe('src/nodes/*/');
    expect(readablePath('^src/chains/$1/')).toBe('src/chains/<the same>/');
  });

  it('a rule without its reason is refused', () => {
    expect(() => renderImportRulesTable([{ name: 'x', from: { path: '^src/' }, to: { path: '^web/' } }])).toThrow(/every rule says why/);
  });
});
