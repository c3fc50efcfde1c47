import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md "Time and randomness": simulation time goes through the one VirtualClock and every
 * random choice through the one SeededRng; real time is used on purpose only in the files its table
 * lists. The table is the allow-list: a real-time call in a file it does not list fails here, and so
 * does a row naming a file that no longer uses real time.
 */
const root = join(__dirname, '..', '..');
const OWNERS = ['src/clock/', 'src/rng/'];

/** Calls that read or wait on the machine's clock, or draw randomness outside the seeded RNG. */
const REAL_TIME_CALLS = new Set(['Date.now', 'performance.now', 'setTimeout', 'setInterval', 'AbortSignal.timeout', 'Math.random']);

const EMBEDDED_REAL_TIME_CALL = /(?<![\w.$])(Date\.now|performance\.now|setTimeout|setInterval|AbortSignal\.timeout|Math\.random)\(/g;

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each real-time use in a source text: the call (or `new Date()`, or a `node:timers` import) and its line. */
export function realTimeUses(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const uses: string[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && REAL_TIME_CALLS.has(node.expression.getText(source))) uses.push(`${node.expression.getText(source)}() at line ${at(node)}`);
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'Date' && (node.arguments?.length ?? 0) === 0) uses.push(`new Date() at line ${at(node)}`);
    // code run elsewhere from a string (a child process's script) counts too
    if (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      for (const match of node.text.matchAll(EMBEDDED_REAL_TIME_CALL)) uses.push(`${match[1]}() in embedded code at line ${at(node)}`);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /^(node:)?timers(\/promises)?$/.test(node.moduleSpecifier.text)) uses.push(`import of ${node.moduleSpecifier.text} at line ${at(node)}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

/** The files the table lists: every backticked `src/….ts` path in its first column. */
function allowListedFiles(): Set<string> {
  const page = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
  const section = page.slice(page.indexOf('## Time and randomness'));
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)));
}

describe('real time only where ARCHITECTURE.md allows it', () => {
  const used = new Map(
    tsFilesUnder(join(root, 'src'))
      .map((path) => relative(root, path))
      .filter((path) => !OWNERS.some((owner) => path.startsWith(owner)))
      .map((path) => [path, realTimeUses(path, readFileSync(join(root, path), 'utf8'))] as const)
      .filter(([, uses]) => uses.length > 0),
  );
  const listed = allowListedFiles();

  it('every file that uses real time is in the table', () => {
    const unlisted = [...used].filter(([path]) => !listed.has(path)).map(([path, uses]) => `${path}: ${uses.join(', ')}`);
    expect(unlisted, 'use the VirtualClock, or add a row saying why real time is right there').toEqual([]);
  });

  it('every file in the table still uses real time (no stale row)', () => {
    expect([...listed].filter((path) => !used.has(path))).toEqual([]);
    expect(listed.size).toBeGreaterThan(5);
  });

  it('the check finds real time, and not the virtual clock', () => {
    const text = [
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'const a = Date.now(); const b = new Date(); const c = new Date(a);',
      'setTimeout(() => {}, 5); clock.setTimeout(() => {}, 5); // Date.now() in a comment',
      'const r = Math.random();',
      'const script = `setInterval(() => {}, 50);`;',
    ].join('\n');
    expect(realTimeUses('x.ts', text)).toEqual([
      'import of node:timers/promises at line 1',
      'Date.now() at line 2',
      'new Date() at line 2',
      'setTimeout() at line 3',
      'Math.random() at line 4',
      'setInterval() in embedded code at line 5',
    ]);
  });
});
