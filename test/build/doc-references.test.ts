import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The documents name files, functions and tests so a reader can go from a promise to its code and its
// proof. A rename that forgets them leaves a reader lost: each name is checked here.
const root = path.resolve(import.meta.dirname, '..', '..');
const DOCUMENTS = ['README.md', 'CHANGELOG.md', 'examples/README.md', ...listDocs()];
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
});
