import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { compiledPatterns } from '../../src/analysis/compile-pattern.js';
import { lexicon } from '../../src/analysis/lexicon.js';

// Every regular expression the program can compile: the literals in src/, read with the TypeScript
// compiler so none is missed, and every pattern compiled from a string, read from compilePattern's record
// after loading the modules that compile them (and building the lexicon, which is compiled on first use).

export interface Pattern {
  /** Where it is written: `src/file.ts:line` for a literal, the module that compiled it otherwise. */
  readonly where: string;
  readonly source: string;
  readonly flags: string;
}

const SRC = path.resolve(import.meta.dirname, '../../src');
const COMPILER = 'analysis/compile-pattern.ts';
/** The one module that compiles patterns inside a function: the lexicon, built below by lexicon(). */
const LAZY = 'analysis/lexicon-rule.ts';

interface Scan {
  literals: Pattern[];
  /** Modules that call compilePattern: loading them compiles their patterns. */
  compiling: string[];
  /** Places that compile a pattern this enumeration cannot see. */
  refused: string[];
}

const insideFunction = (node: ts.Node): boolean => {
  for (let up = node.parent; up; up = up.parent) if (ts.isFunctionLike(up)) return true;
  return false;
};

export function scanSources(): Scan {
  const scan: Scan = { literals: [], compiling: [], refused: [] };
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files.map((f) => f.split(path.sep).join('/')).sort()) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node) => `src/${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    let compiles = false;
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText();
        const end = literal.lastIndexOf('/');
        scan.literals.push({ where: at(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
      }
      if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression)) {
        const name = node.expression.text;
        if (name === 'RegExp' && file !== COMPILER)
          scan.refused.push(`${at(node)}: RegExp() outside compilePattern, whose patterns the test reads`);
        if (name === 'compilePattern') {
          compiles = true;
          if (insideFunction(node) && file !== LAZY)
            scan.refused.push(`${at(node)}: compilePattern() inside a function runs later than the test looks`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (compiles) scan.compiling.push(file);
  }
  return scan;
}

/** Every pattern the program compiles, literals first; refused places are the scan's to report. */
export async function everyPattern(scan: Scan): Promise<Pattern[]> {
  const compiled: Pattern[] = [];
  const record = (where: string) => {
    for (const p of compiledPatterns().slice(compiled.length)) compiled.push({ where, ...p });
  };
  for (const file of scan.compiling) {
    await import(path.join(SRC, file.replace(/\.ts$/, '.js')));
    record(`compiled loading src/${file}`);
  }
  lexicon();
  record('compiled by lexicon() from src/analysis/lexicon-*.ts');
  const seen = new Set<string>();
  return [...scan.literals, ...compiled].filter((p) => {
    const key = `/${p.source}/${p.flags}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether the pattern repeats anything: `*`, `+` or `{n}`, `{n,}`, `{n,m}` outside a class and unescaped. */
export function repeats(source: string): boolean {
  const plain = source.replace(/\\[\s\S]/g, 'e').replace(/\[[^\]]*\]/g, 'c');
  return /[*+]|\{\d+(?:,\d*)?\}/.test(plain);
}
