// `npm run docs`: rewrites the generated sections of the docs from the program (generate.ts). npm runs it
// in the repository's root.
import fs from 'node:fs';
import path from 'node:path';
import { documents, regenerate, sections } from './generate.js';

const ROOT = process.cwd();

const made = sections();
for (const file of documents(ROOT)) {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const next = regenerate(file, text, made);
  if (next !== text) {
    fs.writeFileSync(path.join(ROOT, file), next);
    console.log(`rewrote ${file}`);
  }
}
