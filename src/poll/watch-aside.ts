import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { writePrivateFile } from '../state/private-file.js';
import { readRegularFile } from '../state/regular-file.js';
import { hasProc, identify, isWatchCommand, PROC } from './process-identity.js';
import { dirIdentity, type Watcher } from './watch-marker.js';

/**
 * `poll --watch --all` sets an agent aside after an error no wait fixes, and removes its marker so that
 * cron polls for it do the work. Nothing would then tell `list` or `doctor` that the watcher no longer
 * polls it: this note does, for as long as that watcher lives and keeps it aside.
 */
const NOTE = 'watch-aside';

export interface SetAside {
  /** The watcher that set it aside. */
  pid: number;
  /** When, and why (the error, masked), with the exit code a poll would end with. */
  since: string;
  code: number;
  reason: string;
}

interface Note extends SetAside {
  startTime?: string;
  dirId?: string;
}

/** Atomic and private, as the marker is. */
export function writeAsideNote(dir: string, watcher: Watcher, aside: Omit<SetAside, 'pid'>): void {
  const note: Note = {
    pid: watcher.pid,
    ...aside,
    ...(watcher.startTime === undefined ? {} : { startTime: watcher.startTime }),
    ...(watcher.dirId === undefined ? {} : { dirId: watcher.dirId }),
  };
  writePrivateFile(path.join(dir, NOTE), JSON.stringify(note));
}

export function removeAsideNote(dir: string, pid: number): void {
  if (readNote(dir)?.pid === pid) fs.rmSync(path.join(dir, NOTE), { force: true });
}

/**
 * The watcher that keeps this dir aside, believed as its marker is (watch-marker.ts `otherWatcher`): alive,
 * and where there is a /proc the very process that wrote it, running `poll --watch`, for this very dir.
 */
export function setAsideBy(
  dir: string,
  { isAlive, procRoot = PROC }: { isAlive: (pid: number) => boolean; procRoot?: string },
): SetAside | undefined {
  const note = readNote(dir);
  if (!note || note.pid <= 1 || !isAlive(note.pid)) return undefined;
  if (note.dirId === undefined || note.dirId !== dirIdentity(dir)) return undefined;
  if (hasProc(procRoot)) {
    const holder = identify(note.pid, procRoot);
    if (!holder || holder.start !== note.startTime || !isWatchCommand(holder.argv)) return undefined;
  }
  return { pid: note.pid, since: note.since, code: note.code, reason: note.reason };
}

const NoteSchema = z.object({
  pid: z.int(),
  since: z.string(),
  code: z.int(),
  reason: z.string(),
  startTime: z.optional(z.string()),
  dirId: z.optional(z.string()),
});

function readNote(dir: string): Note | undefined {
  try {
    const found = readRegularFile(path.join(dir, NOTE), "the watcher's set-aside note");
    if (!found) return undefined;
    const parsed = NoteSchema.safeParse(JSON.parse(found.text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // anything else there names no watcher
  }
}
