import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// docs/setup.md: `npm pack` in a clone makes the tarball for a machine that only runs the command, and
// `npm ci` in a clone builds it. npm runs `prepare` for the clone, never for a tarball, and warns on
// every install of a tarball whose manifest still names one. The pack runs in a copy of the clone (it
// builds, and rewrites package.json for a moment), with npm's cache and the global install in temp dirs:
// nothing leaves the machine, and this checkout is not touched.

const root = path.join(import.meta.dirname, '..', '..');
const CLONE_FILES = ['package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'bin', 'examples', 'scripts', 'src'];
/** What scripts/packed-manifest.mjs keeps aside while a pack runs. */
const KEPT = '.package.json.packing';

let temp: string | undefined;
afterEach(() => {
  if (temp) fs.rmSync(temp, { recursive: true, force: true });
  temp = undefined;
});

function npm(args: string[], cwd: string, cache: string) {
  return spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_cache: cache,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
  });
}

describe('the packed tarball', () => {
  it('installs without a warning and runs, while the clone keeps the prepare that builds it', () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-pack-'));
    const clone = path.join(temp, 'clone');
    const cache = path.join(temp, 'npm-cache');
    for (const name of CLONE_FILES) fs.cpSync(path.join(root, name), path.join(clone, name), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(clone, 'node_modules'));
    const before = fs.readFileSync(path.join(clone, 'package.json'), 'utf8');
    const manifest = JSON.parse(before);
    expect(manifest.scripts.prepare, 'what `npm ci` runs in a clone').toBe('node scripts/build.mjs');

    const packed = npm(['pack', '--pack-destination', temp], clone, cache);
    expect(packed.status, packed.stderr).toBe(0);
    expect(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(clone, KEPT))).toBe(false);

    const tarball = path.join(temp, `prediction-agent-${manifest.version}.tgz`);
    const prefix = path.join(temp, 'global');
    const installed = npm(['install', '--global', '--prefix', prefix, tarball], temp, cache);
    expect(installed.status, installed.stderr).toBe(0);
    expect(installed.stderr).not.toMatch(/\bwarn/i);
    const version = execFileSync(path.join(prefix, 'bin', 'agent'), ['--version'], { encoding: 'utf8' });
    expect(version.trim()).toBe(manifest.version);
    // The same manifest but for `prepare`, whose scripts/ a tarball does not hold.
    const inside = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    const { prepare: _built, ...scripts } = manifest.scripts;
    expect(inside).toEqual({ ...manifest, scripts });
  }, 180_000);

  it('a pack that died between its two steps leaves the manifest to be put back by the next', () => {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-pack-'));
    const original = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
    fs.writeFileSync(path.join(temp, 'package.json'), '{"name":"stripped by a pack that died"}\n');
    fs.writeFileSync(path.join(temp, KEPT), original);
    const script = path.join(root, 'scripts', 'packed-manifest.mjs');
    execFileSync(process.execPath, [script, 'strip'], { cwd: temp });
    expect(JSON.parse(fs.readFileSync(path.join(temp, 'package.json'), 'utf8')).scripts.prepare).toBeUndefined();
    execFileSync(process.execPath, [script, 'restore'], { cwd: temp });
    expect(fs.readFileSync(path.join(temp, 'package.json'), 'utf8')).toBe(original);
    expect(fs.existsSync(path.join(temp, KEPT))).toBe(false);
  });
});
