/**
 * `npm run interface-items -- PATH/TO/SPEC.md`: reads the interface's SPEC (a document that lives
 * outside this repository) and writes what the project needs from it as the project's own data,
 * `docs/interface-items.json`: the SPEC's section titles and its items of every kind the coverage doc
 * counts (docs/interface.md says what each kind is). Run it when the SPEC changes; nothing else reads
 * the SPEC, so a clone of this repository alone has everything it needs.
 *
 * Items, by kind:
 * - endpoint: every `METHOD /path` in a §4 heading, every method + path named in §4.7 and §9;
 *   a bare path in §9 (`/intents/status`) takes the method of the endpoint it is a version of
 *   (`GET /intents/status/v3`), when that method is unambiguous
 * - operation: §4.7's "Other named operations with no shape given" (named, no path), by name
 * - status: the rows of the §3 state table
 * - failReason: the §7.3 list; refundFailReason: the §7.4 list
 * - errorCode: the first column of the §7.1 table
 * - limit: the §8 table rows, as `<Limit> @ <Applies to>`
 * - field: the request record's top-level fields, the first `Field` table of §2.3 (`user, recipient` is two)
 * Transitions are not the SPEC's to list (it shows one row of its table): the coverage doc takes them
 * from src/domain/request/transitions.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const INTERFACE_ITEM_KINDS = ['endpoint', 'operation', 'status', 'failReason', 'refundFailReason', 'errorCode', 'limit', 'field'] as const;
export type InterfaceItemKind = (typeof INTERFACE_ITEM_KINDS)[number];

export type InterfaceItems = Record<InterfaceItemKind, string[]> & {
  /** The SPEC's numbered sections, `"4.7"` → its title. */
  sections: Record<string, string>;
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

export function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText);
}

/** Case-insensitive order, then code-unit order: the same on every machine and locale. */
export function compareText(a: string, b: string): number {
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

/** The SPEC's numbered sections (`"4.7"` → its title), for the section numbers the project cites. */
function extractSections(specText: string): Record<string, string> {
  const sections: Record<string, string> = {};
  for (const heading of headingsOf(specText.split(/\r?\n/))) {
    if (heading.number) sections[heading.number] = heading.text.slice(heading.number.length).replace(/^\.?\s*/, '').replace(/`/g, '');
  }
  return sections;
}

/** The interface's items of every kind the SPEC lists, sorted, and its section titles. */
export function extractInterfaceItems(specText: string): InterfaceItems {
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
    sections: extractSections(specText),
    endpoint: extractEndpoints(specText),
    operation: extractNamedOperations(specText),
    status: uniqueSorted(statuses),
    failReason: uniqueSorted(failReasons),
    refundFailReason: uniqueSorted(refundFailReasons),
    errorCode: uniqueSorted(errorCodes),
    limit: uniqueSorted(limits),
    field: uniqueSorted(fields),
  };
}

export const INTERFACE_ITEMS_PATH = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'docs', 'interface-items.json');

/** docs/interface-items.json as written: two-space JSON, a final newline. */
export function renderInterfaceItems(items: InterfaceItems): string {
  return `${JSON.stringify(items, null, 2)}\n`;
}

function main(): void {
  const specFile = process.argv[2];
  if (!specFile) {
    process.stderr.write('usage: npm run interface-items -- PATH/TO/SPEC.md\n');
    process.exitCode = 2;
    return;
  }
  try {
    writeFileSync(INTERFACE_ITEMS_PATH, renderInterfaceItems(extractInterfaceItems(readFileSync(specFile, 'utf8'))));
    process.stdout.write(`wrote ${INTERFACE_ITEMS_PATH}\n`);
  } catch (error) {
    process.stderr.write(`interface-items: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
