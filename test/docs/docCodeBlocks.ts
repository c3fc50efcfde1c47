import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The fenced code blocks of README.md and docs/: each one either runs in a test or is marked as
 * output. The fence's info string says which, after the language:
 * - `output`: what a command prints or an answer holds (```text output, ```json output);
 * - `snippet=NAME`: run by the runner NAME of test/docs/docCodeBlocks.test.ts;
 * - `scenario=PATH`: the scenario file PATH of the library, word for word (the library runs in `npm test`);
 * - `excerpt=PATH`: lines of the file PATH, in order (a test or a scenario of the repository that runs).
 */
export interface DocCodeBlock {
  /** Repository-relative path with forward slashes. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  attributes: Record<string, string | true>;
  text: string;
}

export const BLOCK_KINDS = ['output', 'snippet', 'scenario', 'excerpt'] as const;

function parseInfo(info: string): { language: string; attributes: Record<string, string | true> } {
  const [language = '', ...words] = info.trim().split(/\s+/);
  const attributes: Record<string, string | true> = {};
  for (const word of words) {
    const [key, value] = word.split('=', 2) as [string, string | undefined];
    attributes[key] = value ?? true;
  }
  return { language, attributes };
}

export function codeBlocksOf(file: string, text: string): DocCodeBlock[] {
  const blocks: DocCodeBlock[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let close = index + 1;
    for (; close < lines.length && !lines[close]!.startsWith(`${indent}\`\`\``); close++) body.push(lines[close]!.slice(indent.length));
    blocks.push({ file, line: index + 1, ...parseInfo(open[2]!), text: body.length ? `${body.join('\n')}\n` : '' });
    index = close;
  }
  return blocks;
}

/** README.md and every Markdown page under docs/, repository-relative and sorted. */
export function documentationFiles(root: string): string[] {
  const pages = (readdirSync(join(root, 'docs'), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
  return ['README.md', ...pages.sort()];
}

export function documentationBlocks(root: string): DocCodeBlock[] {
  return documentationFiles(root).flatMap((file) => codeBlocksOf(file, readFileSync(join(root, file), 'utf8')));
}

/** What a block is, by its attributes; undefined when it says nothing (which the test refuses). */
export function blockKind(block: DocCodeBlock): (typeof BLOCK_KINDS)[number] | undefined {
  const kinds = BLOCK_KINDS.filter((kind) => block.attributes[kind] !== undefined);
  return kinds.length === 1 ? kinds[0] : undefined;
}

/** Whether every line of `excerpt` stands in `text`, in the same order (ends of lines trimmed). */
export function isExcerptOf(excerpt: string, text: string): boolean {
  const lines = text.split('\n').map((line) => line.trimEnd());
  let at = 0;
  for (const wanted of excerpt.split('\n').map((line) => line.trimEnd()).filter(Boolean)) {
    const found = lines.indexOf(wanted, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
}

/** Relative links of a Markdown page (`[text](path)` and `[text](path#anchor)`), without web links. */
export function relativeLinksOf(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!);
}
