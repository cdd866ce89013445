// docs/architecture.md, checked against the code it describes: every claim a reader could
// act on and code can answer (dependencies, spawn options, modes, states, tool actions and
// parameters, error codes, limits). What the page marks as prose is left to review; what it
// marks as checked is read here from its source, never from a copy in this test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as coreTypes from '@procmux/core-types';
import { EXEC_PARAMETERS, MAX_WAIT_MS, PROCESS_PARAMETERS } from '@procmux/tools';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** The text of one `## ` section, heading excluded. */
function section(title: string): string {
  const start = page.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`docs/architecture.md has no section "## ${title}"`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}

/** The paragraph that starts with `**lead**` (after a blank line), up to the next blank line. */
function paragraph(text: string, lead: string): string {
  const start = text.indexOf(`\n\n**${lead}**`);
  if (start === -1) throw new Error(`no paragraph **${lead}**`);
  const end = text.indexOf('\n\n', start + 2);
  return text.slice(start + 2, end === -1 ? undefined : end).replace(/\s*\n\s*/g, ' ');
}

/** Rows of the markdown table whose header line starts with `header`, cells trimmed. */
function tableRows(text: string, header: string): string[][] {
  const start = text.indexOf(header);
  if (start === -1) throw new Error(`no table with header ${header}`);
  const rows: string[][] = [];
  for (const line of text.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** Backticked names in a piece of text, in order. */
const ticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

function sourceFile(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.ES2022, true);
}

/** The string literals of `export type <name> = 'a' | 'b'`. */
function unionLiterals(path: string, name: string): string[] {
  for (const statement of sourceFile(path).statements) {
    if (
      ts.isTypeAliasDeclaration(statement) &&
      statement.name.text === name &&
      ts.isUnionTypeNode(statement.type)
    ) {
      return statement.type.types.map((member) => {
        if (ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal)) return member.literal.text;
        throw new Error(`${name} in ${path} has a member that is not a string literal`);
      });
    }
  }
  throw new Error(`${path} declares no union type ${name}`);
}

/** The member names of `interface <name>`, with the members of what it extends in the same file. */
function interfaceMembers(path: string, name: string, from = sourceFile(path)): string[] {
  for (const statement of from.statements) {
    if (!ts.isInterfaceDeclaration(statement) || statement.name.text !== name) continue;
    return statement.members.flatMap((member) =>
      member.name !== undefined && ts.isIdentifier(member.name) ? [member.name.text] : [],
    );
  }
  throw new Error(`${path} declares no interface ${name}`);
}

/** `'a'|'b'` after `key: ` in a text: the values it lists. */
function listedValues(text: string, key: string): string[] {
  const match = new RegExp(`${key}: ((?:'[^']+'\\|?)+)`).exec(text);
  if (!match) throw new Error(`no "${key}: 'a'|'b'" in ${text.slice(0, 80)}…`);
  return match[1]!.split('|').map((value) => value.replaceAll("'", ''));
}

/** What this test reads of a tool's JSON Schema. */
interface ToolSchema {
  properties: Record<string, { description?: string; enum?: readonly string[] }>;
}

const sorted = (values: Iterable<string>) => [...values].sort();

describe('docs/architecture.md', () => {
  it('marks every section as checked or as prose', () => {
    const sections = [...page.matchAll(/\n## ([^\n]+)\n\n([^\n]*)/g)];
    expect(sections.length).toBeGreaterThan(5);
    for (const [, title, firstLine] of sections) {
      expect(firstLine, `section "${title}"`).toMatch(/^_(Checked: |Prose: not checked by a test\._)/);
    }
  });

  it('lists every package with its runtime dependencies from package.json, each below what it uses', () => {
    const rows = tableRows(section('Layers'), '| package ');
    const listed = rows.map(([cell, , deps]) => {
      const name = /^\[([^\]]+)\]\(\.\.\/packages\/\1\)$/.exec(cell!)?.[1];
      if (name === undefined) throw new Error(`package cell ${cell} is not [name](../packages/name)`);
      const optional = /\(([^)]*)\)/.exec(deps!)?.[1] ?? '';
      const required = deps!.replace(/\([^)]*\)/, '');
      const split = (text: string) =>
        text
          .split(',')
          .map((dep) => dep.trim())
          .filter((dep) => dep !== '' && dep !== 'none');
      return { name, required: split(required), optional: split(optional) };
    });
    const packages = readdirSync(join(root, 'packages')).filter((dir) =>
      existsSync(join(root, 'packages', dir, 'package.json')),
    );
    expect(sorted(listed.map((row) => row.name))).toEqual(sorted(packages));
    const short = (deps: Record<string, string> | undefined) =>
      sorted(Object.keys(deps ?? {}).map((dep) => dep.replace(/^@procmux\//, '')));
    for (const row of listed) {
      const manifest = JSON.parse(readFileSync(join(root, 'packages', row.name, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        optionalDependencies?: Record<string, string>;
      };
      expect(sorted(row.required), `${row.name}'s dependencies`).toEqual(short(manifest.dependencies));
      expect(sorted(row.optional), `${row.name}'s optional dependencies`).toEqual(
        short(manifest.optionalDependencies),
      );
    }
    // Bottom-up: a package's own dependencies are all in rows above it.
    const seen = new Set<string>();
    for (const row of listed) {
      for (const dep of [...row.required, ...row.optional]) {
        if (packages.includes(dep))
          expect(seen.has(dep), `${row.name} uses ${dep}, listed below it`).toBe(true);
      }
      seen.add(row.name);
    }
  });

  it("names the supervisor's spawn options, stdio and stdin modes as their sources declare them", () => {
    const supervisor = paragraph(section('Contracts'), 'Supervisor.');
    const spawnList = /`spawn\(\{([^}]+)\}\)`/.exec(supervisor)?.[1];
    if (spawnList === undefined) throw new Error('no spawn({...}) list in the Supervisor paragraph');
    const documented = spawnList
      .split(',')
      .flatMap((entry) =>
        entry
          .split(':')[0]!
          .trim()
          .split(/\s*\|\s*|\+/),
      )
      .map((name) => name.trim())
      .filter((name) => name !== '');
    const declared = [
      ...interfaceMembers('packages/supervisor/src/spawn-options.ts', 'SpawnOptions'),
      ...interfaceMembers('packages/core-types/src/process.ts', 'SpawnTarget'),
    ];
    expect(sorted(documented)).toEqual(sorted(declared));
    expect(listedValues(supervisor, 'mode')).toEqual(
      unionLiterals('packages/core-types/src/process.ts', 'StdioMode'),
    );
    expect(listedValues(supervisor, 'stdin')).toEqual(
      unionLiterals('packages/core-types/src/process.ts', 'StdinMode'),
    );
    // ptyFallback's values are written inline in SpawnOptions.
    const spawnOptions = readFileSync(join(root, 'packages/supervisor/src/spawn-options.ts'), 'utf8');
    const inline = /ptyFallback\?: ((?:'[^']+'(?: \| )?)+);/.exec(spawnOptions)?.[1];
    expect(listedValues(supervisor, 'ptyFallback')).toEqual(
      inline?.split(' | ').map((v) => v.replaceAll("'", '')),
    );
  });

  it('lists the session states of core-types', () => {
    const sessions = paragraph(section('Contracts'), 'Sessions');
    const states = /States: `([^`]+)`/
      .exec(sessions)?.[1]
      ?.split('|')
      .map((state) => state.trim());
    expect(states).toEqual(unionLiterals('packages/core-types/src/session.ts', 'SessionState'));
  });

  it("lists exec's modes and parameters and process's actions and parameters as the tool schemas do", () => {
    const tools = paragraph(section('Contracts'), 'Tools.');
    // Old spellings are in the schemas (still accepted), described as such, and not listed.
    const current = (schema: ToolSchema) =>
      Object.entries(schema.properties)
        .filter(([, property]) => !String(property.description).startsWith('Old name of'))
        .map(([name]) => name);
    const enumOf = (schema: ToolSchema, key: string) => schema.properties[key]?.enum;
    const between = (from: string, to: string) => {
      const start = tools.indexOf(from);
      const end = tools.indexOf(to, start + from.length);
      if (start === -1 || end === -1) throw new Error(`no "${from}" … "${to}" in the Tools paragraph`);
      return ticked(tools.slice(start + from.length, end));
    };
    expect(between('`exec` with modes', 'and parameters').filter((word) => !word.includes(' '))).toEqual(
      enumOf(EXEC_PARAMETERS as ToolSchema, 'mode'),
    );
    expect(between('and parameters', '`process` with actions')).toEqual(
      current(EXEC_PARAMETERS as ToolSchema),
    );
    expect(between('`process` with actions', ', and parameters')).toEqual(
      enumOf(PROCESS_PARAMETERS as ToolSchema, 'action'),
    );
    expect(
      between('`process` with actions', '(each action').slice(
        enumOf(PROCESS_PARAMETERS as ToolSchema, 'action')!.length,
      ),
    ).toEqual(current(PROCESS_PARAMETERS as ToolSchema));
  });

  it('lists exactly the error codes of core-types', () => {
    const rows = tableRows(section('Errors'), '| code ');
    const codes = rows.flatMap(([cell]) => {
      const names = ticked(cell!);
      const prefix = names[0]!.split('_').slice(0, 2).join('_');
      return names.map((name) => (name.startsWith('_') ? prefix + name : name));
    });
    expect(sorted(codes)).toEqual(sorted(coreTypes.ERROR_CODES));
  });

  it("gives every limit of core-types with its default and hard cap, and poll's clamp as the tools apply it", () => {
    const text = section('Options and limits');
    const rows = tableRows(text, '| limit ');
    const units: Record<string, number> = {
      KiB: 1024,
      MiB: 1024 ** 2,
      GiB: 1024 ** 3,
      s: 1000,
      h: 3_600_000,
      bytes: 1,
    };
    const value = (cell: string) => {
      const match = /^([\d,]+)(?: (\w+))?$/.exec(cell);
      if (!match) throw new Error(`limit value "${cell}" is not "<number> [unit]"`);
      return Number(match[1]!.replaceAll(',', '')) * (match[2] === undefined ? 1 : units[match[2]]!);
    };
    const limits = Object.entries(coreTypes).filter(([name]) => name.endsWith('_LIMIT'));
    expect(sorted(rows.map(([, constant]) => ticked(constant!)[0]!))).toEqual(
      sorted(limits.map(([name]) => name)),
    );
    for (const [, constantCell, defaultCell, hardCell] of rows) {
      const name = ticked(constantCell!)[0]!;
      const limit = (coreTypes as unknown as Record<string, coreTypes.Limit>)[name]!;
      // A row's unit is written on its default; the hard cap without one shares it.
      const unit = / (\w+)$/.exec(defaultCell!)?.[1];
      const hard = /^[\d,]+$/.test(hardCell!) && unit !== undefined ? `${hardCell} ${unit}` : hardCell!;
      expect({ name, default: value(defaultCell!), hard: value(hard) }).toEqual({
        name,
        default: limit.default,
        hard: limit.hard,
      });
    }
    const clamp = /`timeout` is clamped to 0 – ([\d,]+) ms/.exec(text.replace(/\s*\n\s*/g, ' '))?.[1];
    expect(Number(clamp?.replaceAll(',', ''))).toBe(MAX_WAIT_MS);
  });
});
