import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli.js';

// The documents name files, functions and tests so a reader can go from a promise to its code and its
// proof. A rename that forgets them leaves a reader lost: each name is checked here.
const root = path.resolve(import.meta.dirname, '..', '..');
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'examples/README.md', ...listDocs()];
const REPO_PATH = /\b(?:src|test|scripts|bin|examples|docs)\/[\w./*-]+\.(?:ts|mjs|cjs|js|md|jsonl|json)\b/g;

function listDocs(): string[] {
  return fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
}

function read(file: string): string {
  return fs.readFileSync(path.join(root, file), 'utf8');
}

/** A path as written, `*` allowed in its last part (`src/analysis/lexicon-*.ts`). What a build writes
 *  (`test/.build/`) is not there before the build, and is not checked. */
function exists(cited: string): boolean {
  if (cited.includes('/.build/')) return true;
  if (!cited.includes('*')) return fs.existsSync(path.join(root, cited));
  const dir = path.dirname(cited);
  const pattern = new RegExp(`^${path.basename(cited).split('*').map(escapeRegExp).join('.*')}$`);
  return fs.existsSync(path.join(root, dir)) && fs.readdirSync(path.join(root, dir)).some((f) => pattern.test(f));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** The anchors of a Markdown file's headings, as GitHub makes them. */
function anchorsOf(file: string): Set<string> {
  const headings = read(file).match(/^#{1,6} .+$/gm) ?? [];
  return new Set(
    headings.map((heading) =>
      heading
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

/** Every file of the repository's own text: the documents, and the code and tests whose comments cite them. */
function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) yield* sourceFiles(file);
    } else if (/\.(ts|mjs|cjs|md)$/.test(entry.name)) yield file;
  }
}

describe('what the documents name exists', () => {
  it.each(DOCUMENTS.filter((doc) => fs.existsSync(path.join(root, doc))))('every path %s cites', (doc) => {
    const missing = [...new Set(read(doc).match(REPO_PATH) ?? [])].filter((cited) => !exists(cited));
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS.filter((doc) => fs.existsSync(path.join(root, doc))))(
    'every "`name` (`file`)" in %s: the name is in that file',
    (doc) => {
      const pairs = flat(read(doc)).matchAll(/`([A-Za-z_$][\w$.]*?)(?:\(\))?` \(`((?:src|test|scripts|bin)\/[^`]+)`/g);
      const missing = [...pairs]
        .filter(([, , file]) => file !== undefined && exists(file))
        .filter(([, name = '', file = '']) => !read(file).includes(name.split('.').pop() ?? name))
        .map(([, name, file]) => `${name} in ${file}`);
      expect(missing).toEqual([]);
    },
  );

  it('every test docs/guarantees.md quotes as a proof is a test of the file it names', () => {
    const proofs = read('docs/guarantees.md')
      .split(/\n\s*\n/)
      .filter((paragraph) => paragraph.startsWith('**Tests.**'));
    const missing: string[] = [];
    let quoted = 0;
    for (const paragraph of proofs) {
      let file: string | undefined;
      for (const [, cited, name] of flat(paragraph).matchAll(/`(test\/[^`]+\.test\.ts)`|"([^"]+)"/g)) {
        if (cited) file = cited;
        else if (file && name) {
          quoted++;
          if (!flat(read(file)).includes(name)) missing.push(`${file}: "${name}"`);
        }
      }
    }
    expect(quoted).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it.each(DOCUMENTS.filter((doc) => fs.existsSync(path.join(root, doc))))('every link in %s leads somewhere', (doc) => {
    const broken: string[] = [];
    for (const [, target = ''] of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file = '', anchor] = target.split('#');
      const cited = file === '' ? doc : path.normalize(path.join(path.dirname(doc), file));
      if (!fs.existsSync(path.join(root, cited))) broken.push(target);
      else if (anchor !== undefined && cited.endsWith('.md') && !anchorsOf(cited).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it('every "<file>.md#<section>" the code, tests and documents cite is a heading of that file', () => {
    const cites = [
      ...['src', 'test', 'scripts', 'docs', 'examples'].flatMap((dir) => [...sourceFiles(dir)]),
      'README.md',
    ]
      .filter((file) => !file.startsWith('test/fixtures/'))
      .flatMap((file) =>
        [...read(file).matchAll(/\b((?:docs\/)?[\w-]+\.md)#([a-z0-9-]+)/g)].map(([, cited = '', anchor = '']) => {
          const target = cited.startsWith('docs/') || cited === 'README.md' ? cited : `docs/${cited}`;
          return { file, target, anchor };
        }),
      );
    expect(cites.length).toBeGreaterThan(30);
    const broken = cites
      .filter(({ target, anchor }) => !fs.existsSync(path.join(root, target)) || !anchorsOf(target).has(anchor))
      .map(({ file, target, anchor }) => `${file}: ${target}#${anchor}`);
    expect(broken).toEqual([]);
  });

  it('no file cites a README section by name: the manual is in docs/, each section by its anchor', () => {
    const cites = [...['src', 'test', 'scripts', 'docs', 'examples'].flatMap((dir) => [...sourceFiles(dir)])]
      .filter((file) => !file.startsWith('test/fixtures/') && file !== 'test/build/doc-references.test.ts')
      .filter((file) => /README(?:\.md)?,? "|README\.md#|in the README \(/.test(read(file)));
    expect(cites).toEqual([]);
  });

  it('every command a document shows being typed is a command of the program', () => {
    const program = createProgram('0.0.0', () => async () => {});
    const commands = new Set(program.commands.flatMap((command) => [command.name(), ...command.aliases()]));
    const valued = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
    const unknown: string[] = [];
    let seen = 0;
    for (const doc of DOCUMENTS.filter((d) => fs.existsSync(path.join(root, d)) && d !== 'CHANGELOG.md')) {
      for (const block of read(doc).matchAll(/^```(?:sh|crontab)?\n([\s\S]*?)^```/gm)) {
        for (const line of (block[1] ?? '').split('\n')) {
          const words = line.trim().split(/\s+/);
          if (words[0] !== 'agent') continue;
          let i = 1;
          while (words[i]?.startsWith('-')) i += valued.has(words[i]) ? 2 : 1;
          const command = words[i];
          if (command === undefined || command.startsWith('#')) continue;
          seen++;
          if (!commands.has(command)) unknown.push(`${doc}: ${line.trim()}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(30);
    expect(unknown).toEqual([]);
  });
});

describe('the README is the front door', () => {
  const readme = read('README.md');

  it('stays short: the manual is in docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('tells a developer to run the test command CI runs', () => {
    expect(read('.ci/run')).toMatch(/^npm test$/m);
    expect(readme).toMatch(/^npm test +#/m);
    expect(JSON.parse(read('package.json')).scripts.test).toContain('vitest run');
  });

  it('keeps the dependencies, and why each is there, for every one package.json names', () => {
    const listed = read('CONTRIBUTING.md').split('## Dependencies, and why each is there')[1] ?? '';
    const { dependencies = {}, devDependencies = {} } = JSON.parse(read('package.json'));
    const missing = Object.keys({ ...dependencies, ...devDependencies }).filter(
      (name) => !new RegExp(`^\\| (?:[^|]*[ ,])?${escapeRegExp(name)}\\b`, 'm').test(listed),
    );
    expect(missing).toEqual([]);
  });
});
