// npm runs a package's `prepare` when it is installed from a clone (`npm ci` builds dist/ so), but a
// packed tarball already holds dist/ and not scripts/, so its `prepare` could not run, and npm warns of
// it on every install of the tarball. npm packs package.json as it is on disk, so `prepack` writes it
// without `prepare` (keeping the exact text aside) and `postpack` puts the text back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
/** The exact text while a pack runs: not in `files`, so never packed; a pack that died leaves it. */
const KEPT = '.package.json.packing';

const [step] = process.argv.slice(2);
if (step === 'strip') strip();
else if (step === 'restore') restore();
else throw new Error(`usage: node scripts/packed-manifest.mjs strip|restore (given ${step})`);

function strip() {
  // A pack killed between the two steps left the manifest stripped: put it back before anything else.
  restore();
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare === undefined) return;
  delete manifest.scripts.prepare;
  writeFileSync(KEPT, text);
  writeFileSync(`${MANIFEST}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${MANIFEST}.tmp`, MANIFEST);
}

function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
}
