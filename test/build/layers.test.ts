import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The shape of src/, checked: no import cycle between files, and no module imports one of a layer above
// it. A module's layer comes from the first rule below that matches its path, lowest first.

const SRC = path.join(import.meta.dirname, '..', '..', 'src');

const LAYERS: Array<[name: string, matches: RegExp]> = [
  ['entry', /^(main|run-process|cli)\.ts$/],
  // One folder per command (docs/architecture.md, "How to add"), and the files they share beside them.
  ['command', /^commands\//],
  // The work the commands share, and what it is built on.
  ['work', /^(agents|alert|poll|posting|backtest|sandbox|schedule|history|record)\/|^analysis\/load\.ts$/],
  ['session', /^(context|session)\.ts$/],
  ['parts', /^(analysis|settings|service|state|http)\//],
  ['base', /^(domain|output)\/|^errors\.ts$/],
];

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, matches]) => matches.test(file));
  if (index === -1) throw new Error(`${file} belongs to no layer: add it to LAYERS`);
  // Lower index: higher layer.
  return LAYERS.length - index;
}

function* modules(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(file);
    else if (entry.name.endsWith('.ts')) yield path.relative(SRC, file);
  }
}

// Static and dynamic imports alike: a lazy import() is still a dependency. Type-only imports count too,
// since they tie one module's meaning to another's.
const IMPORT = /(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g;

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) =>
    path.normalize(path.join(path.dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
  );
}

const graph = new Map([...modules(SRC)].map((file) => [file, importsOf(file)]));

describe('the import graph of src/', () => {
  it('resolves every relative import to a module', () => {
    const missing = [...graph].flatMap(([file, deps]) =>
      deps.filter((dep) => !graph.has(dep)).map((dep) => `${file} -> ${dep}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const dep of graph.get(file) ?? []) visit(dep, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("keeps each command in its own folder: none imports another command's", () => {
    const folder = (file: string) => /^commands\/([^/]+)\//.exec(file)?.[1];
    const crossing = [...graph].flatMap(([file, deps]) =>
      deps
        .filter((dep) => folder(file) !== undefined && folder(dep) !== undefined && folder(dep) !== folder(file))
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(crossing).toEqual([]);
  });

  it('imports only from its own layer or below', () => {
    const upward = [...graph].flatMap(([file, deps]) =>
      deps
        .filter((dep) => graph.has(dep) && layerOf(dep) > layerOf(file))
        .map(
          (dep) =>
            `${file} (${LAYERS[LAYERS.length - layerOf(file)]![0]}) -> ${dep} (${LAYERS[LAYERS.length - layerOf(dep)]![0]})`,
        ),
    );
    expect(upward).toEqual([]);
  });
});
