// `npm run eval -- --external <file>`: any labelled file, to measure the analyzer on text the project did
// not write. Two shapes are read: a `text,label` CSV (quoted fields, CRLF or LF line ends; labels
// 0 bearish / 1 bullish / 2 neutral, as in the finance-news tweets, or up / down / none) and JSON lines
// with `text` and `label` (up, down or none), as the corpora in test/fixtures/eval/ are written.
import fs from 'node:fs';
import path from 'node:path';
import type { Entry, Label } from './run.js';

const CSV_LABELS: Readonly<Record<string, Label>> = {
  '0': 'down',
  '1': 'up',
  '2': 'none',
  down: 'down',
  up: 'up',
  none: 'none',
};

export function loadExternal(file: string): Entry[] {
  const body = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const name = path.basename(file);
  const rows = body.trimStart().startsWith('{') ? jsonRows(body, name) : csvRows(body, name);
  if (rows.length === 0) throw new Error(`${name}: no labelled text`);
  return rows.map(([text, label], i) => ({
    id: `${name}:${i + 1}`,
    source: name,
    split: 'external',
    family: 'external',
    label,
    text,
    reason: 'labelled outside the project',
  }));
}

function jsonRows(body: string, name: string): Array<[string, Label]> {
  return body
    .split('\n')
    .map((line, i) => [line, i + 1] as const)
    .filter(([line]) => line.trim() !== '')
    .map(([line, n]) => {
      const record: unknown = JSON.parse(line);
      const { text, label } = (record ?? {}) as { text?: unknown; label?: unknown };
      if (typeof text !== 'string' || text.trim() === '') throw new Error(`${name}:${n}: no text`);
      if (label !== 'up' && label !== 'down' && label !== 'none') throw new Error(`${name}:${n}: label ${label}`);
      return [text, label];
    });
}

function csvRows(body: string, name: string): Array<[string, Label]> {
  const [header, ...records] = parseCsv(body);
  const columns = (header ?? []).map((c) => c.trim().toLowerCase());
  const textAt = columns.indexOf('text');
  const labelAt = columns.indexOf('label');
  if (textAt < 0 || labelAt < 0) throw new Error(`${name}: the header must name the columns text and label`);
  return records
    .filter((r) => r.some((field) => field.trim() !== ''))
    .map((r, i) => {
      const text = r[textAt] ?? '';
      const label = CSV_LABELS[(r[labelAt] ?? '').trim().toLowerCase()];
      // Line 1 is the header; a record with a line break inside a quoted field is still one record.
      if (label === undefined || text.trim() === '') throw new Error(`${name}: record ${i + 1}: ${r.join(',')}`);
      return [text, label];
    });
}

/** RFC 4180: fields split on commas, quoted fields may hold commas, line breaks and doubled quotes. */
export function parseCsv(body: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else quoted = false;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}
