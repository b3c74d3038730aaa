import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documents, regenerate, sections } from '../../scripts/docs/generate.js';

// The reference parts of the docs are made from the program (scripts/docs/generate.ts): a change to a
// command, an exit code, a setting or a help topic that forgets `npm run docs` fails here, as npm's do.
const root = path.resolve(import.meta.dirname, '..', '..');
const made = sections();

describe('the generated sections of the docs', () => {
  it.each(documents(root))('%s is as `npm run docs` writes it', (file) => {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    expect(regenerate(file, text, made), 'run npm run docs').toBe(text);
  });

  it('every section is included somewhere, and the markers pair up', () => {
    const all = documents(root).map((file) => fs.readFileSync(path.join(root, file), 'utf8'));
    const included = all.flatMap((text) => [...text.matchAll(/^<!-- generated: ([^>]+?) -->$/gm)].map((m) => m[1]));
    expect([...made.keys()].filter((name) => !included.includes(name))).toEqual([]);
    for (const text of all)
      expect(text.match(/^<!-- generated: /gm)?.length ?? 0).toBe(
        text.match(/^<!-- end generated -->$/gm)?.length ?? 0,
      );
  });

  it('a stale section is rewritten, and an unknown one is refused', () => {
    const stale = '# x\n<!-- generated: exit-codes -->\nold text\n<!-- end generated -->\nafter\n';
    const fresh = regenerate('x.md', stale, made);
    expect(fresh).toContain('| 130 | interrupted');
    expect(fresh).not.toContain('old text');
    expect(fresh.endsWith('<!-- end generated -->\nafter\n')).toBe(true);
    expect(() => regenerate('x.md', '<!-- generated: nosuch -->\n<!-- end generated -->', made)).toThrow(
      /x\.md.*nosuch/,
    );
  });
});
