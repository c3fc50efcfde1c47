/**
 * `npm run coverage-doc`: writes docs/coverage.md, the SPEC items and the tests and scenarios
 * that declare they cover them (docs/TESTING.md, "Coverage of SPEC items").
 *
 * SPEC items come from ../shared/SPEC.md (the repository's parent directory):
 * - endpoint: every `METHOD /path` in a §4 heading, every method + path named in §4.7 and §9;
 *   operation: §4.7's "Other named operations with no shape given" (named, no path), by name
 *   a bare path in §9 (`/intents/status`) takes the method of the endpoint it is a version of
 *   (`GET /intents/status/v3`), when that method is unambiguous
 * - status: the rows of the §3 state table
 * - transition: `TRANSITIONS` of src/domain/request/transitions.ts, as `<from>-><to>`
 * - failReason: the §7.3 list; refundFailReason: the §7.4 list
 * - errorCode: the first column of the §7.1 table
 * - limit: the §8 table rows, as `<Limit> @ <Applies to>`
 * - field: the request record's top-level fields, the first `Field` table of §2.3 (`user, recipient` is two)
 *
 * Annotations: a line comment `// covers: kind:item, kind:item` anywhere in `test/**\/*.test.ts`,
 * or a top-level `covers:` list of `kind:item` strings in `scenarios/**\/*.yaml`.
 *
 * A status or a transition counts only where a running simulator reaches it: in a scenario, or
 * in a test file that starts a simulator (`drivesSimulator`), and there the vitest setup
 * `test/support/reachedTransitions.setup.ts` fails the file when an annotated status or transition
 * was not reached during its run. Tests of the table itself count for nothing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { TRANSITIONS, UNREACHED_TRANSITIONS } from '../src/domain/request/transitions';
import { allChecks, type ConformanceCheck } from '../conformance';
import { allDeviations } from '../test/conformance/deviations';

export const COVERAGE_KINDS = ['endpoint', 'operation', 'status', 'transition', 'failReason', 'refundFailReason', 'errorCode', 'limit', 'field'] as const;
export type CoverageKind = (typeof COVERAGE_KINDS)[number];

export type SpecItems = Record<CoverageKind, string[]>;

export interface SourceFile {
  /** Repository-relative path with forward slashes. */
  path: string;
  text: string;
}

export interface Annotation {
  /** The annotation as written, e.g. `status:success`. */
  raw: string;
  kind: string;
  item: string;
  file: string;
}

const KIND_TITLES: Record<CoverageKind, string> = {
  endpoint: 'Endpoints',
  operation: 'Named operations without a path (§4.7)',
  status: 'Statuses (§3)',
  transition: 'Transitions (src/domain/request/transitions.ts)',
  failReason: 'failReason values (§7.3)',
  refundFailReason: 'refundFailReason values (§7.4)',
  errorCode: 'Error codes (§7.1)',
  limit: 'Limits (§8)',
  field: 'Request record fields (§2.3)',
};

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const METHOD_PATH = new RegExp(`\\b(${HTTP_METHODS.join('|')})\\s+(/[A-Za-z0-9_\\-./{}]*[A-Za-z0-9_}])`, 'g');

// ---------------------------------------------------------------------------------------------
// SPEC parsing

interface Heading {
  line: number;
  level: number;
  number: string | undefined;
  text: string;
}

function headingsOf(lines: string[]): Heading[] {
  const out: Heading[] = [];
  lines.forEach((line, index) => {
    const match = /^(#{1,6})\s+(.*)$/.exec(line);
    if (!match) return;
    const text = match[2]!.trim();
    const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(text)?.[1];
    out.push({ line: index, level: match[1]!.length, number, text });
  });
  return out;
}

/** The body of section `number` (e.g. "3", "4.7"), up to the next heading of the same or a higher level. */
export function sectionText(specText: string, number: string): string {
  const lines = specText.split(/\r?\n/);
  const headings = headingsOf(lines);
  const index = headings.findIndex((h) => h.number === number);
  if (index === -1) throw new Error(`SPEC has no section ${number}`);
  const heading = headings[index]!;
  const next = headings.slice(index + 1).find((h) => h.level <= heading.level);
  return lines.slice(heading.line + 1, next ? next.line : lines.length).join('\n');
}

/** Headings nested under section `number` (any depth). */
function subHeadings(specText: string, number: string): Heading[] {
  const lines = specText.split(/\r?\n/);
  const headings = headingsOf(lines);
  const index = headings.findIndex((h) => h.number === number);
  if (index === -1) throw new Error(`SPEC has no section ${number}`);
  const heading = headings[index]!;
  const out: Heading[] = [];
  for (const h of headings.slice(index + 1)) {
    if (h.level <= heading.level) break;
    out.push(h);
  }
  return out;
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** The markdown tables of a text, as header + rows of cells. */
function tablesOf(text: string): Array<{ header: string[]; rows: string[][] }> {
  const lines = text.split(/\r?\n/);
  const tables: Array<{ header: string[]; rows: string[][] }> = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.trim().startsWith('|') || !/^\s*\|?\s*:?-{3,}/.test(lines[i + 1]!)) continue;
    const header = splitRow(lines[i]!);
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && lines[j]!.trim().startsWith('|'); j++) rows.push(splitRow(lines[j]!));
    tables.push({ header, rows });
    i = j - 1;
  }
  return tables;
}

function tableWithHeader(text: string, section: string, firstColumn: string): { header: string[]; rows: string[][] } {
  const table = tablesOf(text).find((t) => t.header[0]?.toLowerCase() === firstColumn.toLowerCase());
  if (!table) throw new Error(`SPEC §${section} has no table whose first column is "${firstColumn}"`);
  return table;
}

const unquote = (cell: string) => cell.replace(/`/g, '').trim();

function firstParagraph(text: string): string {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return paragraphs[0] ?? '';
}

/** Enum values listed in a paragraph: UPPER_SNAKE identifiers and N/A. */
function enumValuesOf(paragraph: string): string[] {
  return [...paragraph.matchAll(/N\/A|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{2,}\b/g)].map((m) => m[0]);
}

function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText);
}

/** Case-insensitive order, then code-unit order: the same on every machine and locale. */
function compareText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function extractEndpoints(specText: string): string[] {
  const endpoints = new Map<string, string>(); // "METHOD /path" → method
  const add = (method: string, path: string) => endpoints.set(`${method} ${path}`, method);

  for (const heading of subHeadings(specText, '4')) {
    for (const match of heading.text.matchAll(METHOD_PATH)) add(match[1]!, match[2]!);
  }
  for (const section of ['4.7', '9']) {
    for (const match of sectionText(specText, section).matchAll(METHOD_PATH)) add(match[1]!, match[2]!);
  }

  // bare paths of §9 (`/intents/status`): the method of the endpoint they are a version of
  const known = [...endpoints.keys()].map((key) => {
    const [method, path] = key.split(' ') as [string, string];
    return { method, path };
  });
  const versionless = (path: string) => path.replace(/\/v\d+$/, '');
  for (const match of sectionText(specText, '9').matchAll(/`(\/[A-Za-z0-9_\-./{}]*)`/g)) {
    const path = match[1]!;
    if (known.some((e) => e.path === path)) continue;
    const family = known.filter((e) => versionless(e.path) === versionless(path));
    const methods = new Set(family.map((e) => e.method));
    if (methods.size === 1) add([...methods][0]!, path);
  }
  return uniqueSorted(endpoints.keys());
}

/** §4.7's list of operations it names without a path or shape ("… no shape given: a, b, c."); none when absent. */
function extractNamedOperations(specText: string): string[] {
  const match = /named operations with no shape given:\s*([^\n]*?)\.(?:\s|$)/.exec(sectionText(specText, '4.7'));
  if (!match) return [];
  return uniqueSorted(match[1]!.split(/,\s*/).map((name) => name.trim()).filter(Boolean));
}

/**
 * The SPEC items of every kind, sorted. Transitions come from the simulator's state machine
 * (the SPEC shows only one row of its table).
 */
export function extractSpecItems(
  specText: string,
  transitions: Readonly<Record<string, readonly string[]>> = TRANSITIONS,
): SpecItems {
  const statuses = tableWithHeader(sectionText(specText, '3'), '3', 'State').rows.map((row) => unquote(row[0]!));
  const errorCodes = tableWithHeader(sectionText(specText, '7.1'), '7.1', 'errorCode').rows.map((row) => unquote(row[0]!));
  const limitsTable = tableWithHeader(sectionText(specText, '8'), '8', 'Limit');
  const appliesTo = limitsTable.header.findIndex((cell) => cell.toLowerCase() === 'applies to');
  if (appliesTo === -1) throw new Error('SPEC §8 limits table has no "Applies to" column');
  const limits = limitsTable.rows.map((row) => `${unquote(row[0]!)} @ ${unquote(row[appliesTo] ?? '')}`);
  const fields = tableWithHeader(sectionText(specText, '2.3'), '2.3', 'Field').rows.flatMap((row) => unquote(row[0]!).split(/,\s*/));
  const failReasons = enumValuesOf(firstParagraph(sectionText(specText, '7.3')));
  const refundFailReasons = enumValuesOf(firstParagraph(sectionText(specText, '7.4')));
  for (const [section, values] of [['7.3', failReasons], ['7.4', refundFailReasons]] as const) {
    if (values.length === 0) throw new Error(`SPEC §${section} lists no values`);
  }

  return {
    endpoint: extractEndpoints(specText),
    operation: extractNamedOperations(specText),
    status: uniqueSorted(statuses),
    transition: uniqueSorted(Object.entries(transitions).flatMap(([from, tos]) => tos.map((to) => `${from}->${to}`))),
    failReason: uniqueSorted(failReasons),
    refundFailReason: uniqueSorted(refundFailReasons),
    errorCode: uniqueSorted(errorCodes),
    limit: uniqueSorted(limits),
    field: uniqueSorted(fields),
  };
}

// ---------------------------------------------------------------------------------------------
// Annotations

const KIND_PREFIX = /^([A-Za-z]+):(.*)$/;
/** Annotations are comma-separated, but an item may hold commas: split only before `kind:`. */
const ANNOTATION_SEPARATOR = /,\s*(?=[A-Za-z]+:)/;

function parseAnnotation(raw: string, file: string): Annotation {
  const text = raw.trim();
  const match = KIND_PREFIX.exec(text);
  if (!match) return { raw: text, kind: '', item: text, file };
  return { raw: text, kind: match[1]!, item: match[2]!.trim(), file };
}

/** Kinds that count only where a running simulator reaches them. */
export const REACHED_KINDS: readonly string[] = ['status', 'transition'];

/** A test file that starts a simulator (and so can reach statuses for real). */
export function drivesSimulator(file: SourceFile): boolean {
  return /\.ya?ml$/.test(file.path) || /\bstart(Test)?Simulator\(/.test(file.text);
}

/** Every `covers:` annotation of the given test files and scenario files. */
export function collectCoverage(files: readonly SourceFile[]): Annotation[] {
  const annotations: Annotation[] = [];
  for (const file of files) {
    if (/\.ya?ml$/.test(file.path)) {
      let parsed: unknown;
      try {
        parsed = parseYaml(file.text);
      } catch (error) {
        throw new Error(`${file.path}: not valid YAML (${error instanceof Error ? error.message : String(error)})`);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
      const covers = (parsed as Record<string, unknown>).covers;
      if (covers === undefined) continue;
      if (!Array.isArray(covers) || covers.some((entry) => typeof entry !== 'string')) {
        throw new Error(`${file.path}: "covers" must be a list of "kind:item" strings`);
      }
      for (const entry of covers as string[]) annotations.push(parseAnnotation(entry, file.path));
      continue;
    }
    for (const match of file.text.matchAll(/^[ \t]*\/\/[ \t]*covers:(.*)$/gm)) {
      for (const part of match[1]!.split(ANNOTATION_SEPARATOR)) {
        if (part.trim()) annotations.push(parseAnnotation(part, file.path));
      }
    }
  }
  return annotations;
}

// ---------------------------------------------------------------------------------------------
// Rendering

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** docs/coverage.md, from the SPEC items and the annotations. Deterministic: everything sorted. */
export function renderCoverageDoc(items: SpecItems, annotations: readonly Annotation[], unreached: Readonly<Record<string, string>> = {}): string {
  const coveredBy = new Map<string, Set<string>>();
  const unknown = new Map<string, Set<string>>();
  const known = new Set(COVERAGE_KINDS.flatMap((kind) => items[kind].map((item) => `${kind}:${item}`)));
  for (const annotation of annotations) {
    const key = `${annotation.kind}:${annotation.item}`;
    const target = known.has(key) ? coveredBy : unknown;
    const name = known.has(key) ? key : annotation.raw;
    if (!target.has(name)) target.set(name, new Set());
    target.get(name)!.add(annotation.file);
  }
  const files = (set: Set<string> | undefined) => [...(set ?? [])].sort(compareText).map((f) => `\`${f}\``).join(', ');

  const out: string[] = [];
  out.push('# SPEC coverage');
  out.push('');
  out.push('<!-- Generated by `npm run coverage-doc` (scripts/generate-coverage-doc.ts). Do not edit. -->');
  out.push('');
  out.push('Generated by `npm run coverage-doc` from `../shared/SPEC.md` and the `covers:` annotations of');
  out.push('`test/**/*.test.ts` and `scenarios/**/*.yaml` (see docs/TESTING.md). Do not edit by hand: change');
  out.push('the annotations and run `npm run coverage-doc`. Annotation names: `endpoint:<METHOD> <path>`, `operation:<name>`,');
  out.push('`status:<status>`, `transition:<from>-><to>`, `failReason:<value>`, `refundFailReason:<value>`,');
  out.push('`errorCode:<code>`, `limit:<Limit> @ <Applies to>` (the two columns of the §8 table), `field:<name>`');
  out.push('(a top-level field of the §2.3 request record, set by the behaviour the test drives). A status or a');
  out.push('transition counts only where a running simulator reaches it (a scenario, or a test that starts a');
  out.push('simulator and, at the end of its run, is checked to have reached every status and transition it names).');
  out.push('');
  out.push('## Summary');
  out.push('');
  out.push('| Kind | Covered | Total |');
  out.push('|---|---|---|');
  let coveredTotal = 0;
  let total = 0;
  for (const kind of COVERAGE_KINDS) {
    const covered = items[kind].filter((item) => coveredBy.has(`${kind}:${item}`)).length;
    coveredTotal += covered;
    total += items[kind].length;
    out.push(`| ${kind} | ${covered} | ${items[kind].length} |`);
  }
  out.push(`| **all** | **${coveredTotal}** | **${total}** |`);

  for (const kind of COVERAGE_KINDS) {
    out.push('');
    out.push(`## ${KIND_TITLES[kind]}`);
    out.push('');
    out.push('| Item | Covered by |');
    out.push('|---|---|');
    for (const item of items[kind]) {
      const by = coveredBy.get(`${kind}:${item}`);
      const notYet = kind === 'transition' ? unreached[item] : undefined;
      out.push(`| \`${escapeCell(item)}\` | ${by ? escapeCell(files(by)) : notYet ? `not reached yet (${escapeCell(notYet)})` : 'not covered'} |`);
    }
  }

  out.push('');
  out.push('## Annotations that match no SPEC item');
  out.push('');
  if (unknown.size === 0) {
    out.push('None.');
  } else {
    out.push('| Annotation | In |');
    out.push('|---|---|');
    for (const name of [...unknown.keys()].sort(compareText)) {
      out.push(`| \`${escapeCell(name)}\` | ${escapeCell(files(unknown.get(name)))} |`);
    }
  }
  out.push('');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// I/O

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The SPEC's path: `shared/SPEC.md` beside the repository. */
export function specPath(repoRoot: string = REPO_ROOT): string {
  return resolve(repoRoot, '..', 'shared', 'SPEC.md');
}

export function readSpec(repoRoot: string = REPO_ROOT): string {
  const path = specPath(repoRoot);
  if (!existsSync(path)) {
    throw new Error(`SPEC not found at ${path}: coverage-doc reads ../shared/SPEC.md relative to the repository root (${repoRoot})`);
  }
  return readFileSync(path, 'utf8');
}

function listFiles(root: string, directory: string, accept: (name: string) => boolean): string[] {
  const base = join(root, directory);
  if (!existsSync(base)) return [];
  return (readdirSync(base, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && accept(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').includes('node_modules'))
    .sort(compareText);
}

/** The test and scenario files that can carry annotations, repository-relative and sorted. */
export function readAnnotatedFiles(repoRoot: string = REPO_ROOT): SourceFile[] {
  const paths = [
    ...listFiles(repoRoot, 'test', (name) => name.endsWith('.test.ts')),
    ...listFiles(repoRoot, 'scenarios', (name) => name.endsWith('.yaml')),
  ];
  return paths.map((path) => ({ path, text: readFileSync(join(repoRoot, path), 'utf8') }));
}

/** What docs/coverage.md should hold now. */
export function buildCoverageDoc(repoRoot: string = REPO_ROOT): string {
  const doc = renderCoverageDoc(extractSpecItems(readSpec(repoRoot)), countedAnnotations(readAnnotatedFiles(repoRoot)), UNREACHED_TRANSITIONS);
  return `${doc}\n${renderConformanceSection(allChecks, allDeviations)}`;
}

/**
 * The conformance suite by SPEC section: its checks (id, mode) and how many injected deviations
 * (test/conformance/deviations/) the deviation test shows it catching there.
 */
export function renderConformanceSection(checks: readonly ConformanceCheck[], deviations: readonly { section: string }[]): string {
  const sectionKey = (section: string) => section.split('.').map((part) => part.padStart(3, '0')).join('.');
  const sections = uniqueSorted(checks.map((check) => check.section)).sort((a, b) => compareText(sectionKey(a), sectionKey(b)));
  const lines = [
    '## Conformance checks by SPEC section',
    '',
    'The checks of `conformance/` (`npx intentsim conformance`), and the number of deviations the',
    'deviation test (`test/conformance/deviations.test.ts`) injects in each section, every one caught there.',
    '',
    '| Section | Checks | Deviations caught |',
    '|---|---|---|',
  ];
  for (const section of sections) {
    const ids = checks.filter((check) => check.section === section).map((check) => `\`${check.id}\`${check.mode === 'full' ? ' (full)' : ''}`);
    const caught = deviations.filter((deviation) => deviation.section === section).length;
    lines.push(`| §${section} | ${ids.join(', ')} | ${caught} |`);
  }
  lines.push('', `${checks.length} checks, ${deviations.length} deviations.`, '');
  return lines.join('\n');
}

/** The annotations that count: statuses and transitions only from files that drive a simulator. */
export function countedAnnotations(files: readonly SourceFile[]): Annotation[] {
  return files.flatMap((file) => collectCoverage([file]).filter((a) => !REACHED_KINDS.includes(a.kind) || drivesSimulator(file)));
}

export function coverageDocPath(repoRoot: string = REPO_ROOT): string {
  return join(repoRoot, 'docs', 'coverage.md');
}

function main(): void {
  try {
    const doc = buildCoverageDoc();
    writeFileSync(coverageDocPath(), doc);
    const unknownSection = doc.split('## Annotations that match no SPEC item')[1] ?? '';
    process.stdout.write(`wrote ${relative(process.cwd(), coverageDocPath()) || coverageDocPath()}\n`);
    if (!unknownSection.includes('None.')) {
      process.stderr.write('warning: some annotations match no SPEC item; see the last section of docs/coverage.md\n');
    }
  } catch (error) {
    process.stderr.write(`coverage-doc: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
