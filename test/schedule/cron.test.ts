import { describe, expect, it } from 'vitest';
import {
  commandLength,
  cronLine,
  entrySettings,
  findEntry,
  MAX_COMMAND_CHARS,
  markerLine,
  withEntry,
  withoutEntry,
} from '../../src/schedule/cron.js';
import { uncarriable } from '../../src/schedule/carriable.js';
import { shellWord } from '../../src/output/shell-word.js';
import { systemdUnits, timerInterval, unitName } from '../../src/schedule/systemd.js';

const command = {
  node: '/usr/bin/node',
  script: '/opt/agent/bin/agent.cjs',
  configDir: '/home/me/.config/prediction-agent',
};
const line = cronLine(command, 5, '/home/me/.config/prediction-agent/poll.log');
const USER = '# my jobs\nMAILTO=me@example.com\n0 3 * * * /usr/local/bin/backup --quiet  # nightly\n';

describe('the crontab line', () => {
  it('runs one poll with absolute paths and this config dir, which writes its log itself: no shell redirection', () => {
    expect(line).toBe(
      '*/5 * * * * /usr/bin/node /opt/agent/bin/agent.cjs --config-dir /home/me/.config/prediction-agent poll --log /home/me/.config/prediction-agent/poll.log',
    );
  });

  it('quotes what the shell would split or expand', () => {
    const odd = cronLine({ ...command, configDir: "/home/o'brien/my agent" }, 10, '/tmp/a log');
    expect(odd).toContain(`--config-dir '/home/o'\\''brien/my agent' poll --log '/tmp/a log'`);
    expect(odd.startsWith('*/10 * * * * ')).toBe(true);
    expect(shellWord('$(rm -rf /)')).toBe("'$(rm -rf /)'");
  });

  it('names what a path holds that the line cannot carry: line ends, "%" (cron\'s newline), control characters', () => {
    expect(uncarriable('/home/me/a\nb')).toBe('a newline');
    expect(uncarriable('/home/me/a\rb')).toBe('a carriage return');
    expect(uncarriable('/home/me/100%')).toBe('a "%"');
    expect(uncarriable('/home/me/x\\%y')).toBe('a "%"');
    expect(uncarriable('/home/me/a\tb')).toBe('a control character');
    expect(uncarriable("/home/o'brien/my agent $(x) \\ ü")).toBeUndefined();
  });
});

describe("cron's limit on a command", () => {
  it('counts the command after the five time fields, escapes included', () => {
    expect(commandLength('*/5 * * * * echo 100\\%')).toBe('echo 100\\%'.length);
    expect(commandLength(line)).toBeLessThan(MAX_COMMAND_CHARS);
    const dir = `/home/me/${'d'.repeat(250)}/${'e'.repeat(250)}`;
    const deep = cronLine({ ...command, configDir: dir }, 5, `${dir}/poll.log`);
    expect(commandLength(deep)).toBeGreaterThan(MAX_COMMAND_CHARS);
  });
});

describe('installing and removing, line by line', () => {
  it("adds the marker and the entry after the user's lines, which stay byte for byte", () => {
    const next = withEntry(USER, command.configDir, line);
    expect(next).toBe(`${USER}${markerLine(command.configDir)}\n${line}\n`);
    expect(findEntry(next, command.configDir)).toBe(line);
  });

  it('installing twice leaves one entry; a changed interval replaces it', () => {
    const once = withEntry(USER, command.configDir, line);
    expect(withEntry(once, command.configDir, line)).toBe(once);
    const every10 = cronLine(command, 10, '/home/me/.config/prediction-agent/poll.log');
    const changed = withEntry(once, command.configDir, every10);
    expect(changed.match(/prediction-agent: poll for/g)).toHaveLength(1);
    expect(findEntry(changed, command.configDir)).toBe(every10);
  });

  it("removing gives back exactly what was there before, another config dir's entry included", () => {
    const other = { ...command, configDir: '/home/me/second-agent' };
    const both = withEntry(withEntry(USER, other.configDir, cronLine(other, 5, '/tmp/l')), command.configDir, line);
    const removed = withoutEntry(both, command.configDir);
    expect(removed).toEqual({ text: withEntry(USER, other.configDir, cronLine(other, 5, '/tmp/l')), removed: 'entry' });
    expect(withoutEntry(removed.text, other.configDir)).toEqual({ text: USER, removed: 'entry' });
  });

  it("a config dir whose name starts another one's does not take the other's entry with it", () => {
    const longer = { ...command, configDir: `${command.configDir}-2` };
    const table = withEntry(USER, longer.configDir, cronLine(longer, 5, '/tmp/l'));
    expect(withoutEntry(table, command.configDir)).toEqual({ text: table, removed: 'nothing' });
  });

  it('a table without a final newline keeps it missing when nothing is removed, and gets one before an entry', () => {
    const bare = '0 3 * * * backup';
    expect(withoutEntry(bare, command.configDir)).toEqual({ text: bare, removed: 'nothing' });
    expect(withEntry(bare, command.configDir, line)).toBe(`${bare}\n${markerLine(command.configDir)}\n${line}\n`);
  });

  it("an entry last without its newline goes whole, and the user's last line keeps its own", () => {
    const table = withEntry(USER, command.configDir, line).slice(0, -1);
    expect(withoutEntry(table, command.configDir)).toEqual({ text: USER, removed: 'entry' });
  });

  it('a marker and entry saved with CRLF ends (listed by Debian as a backslash and "r") are still this entry', () => {
    const crlf = withEntry(USER, command.configDir, line).slice(USER.length).replaceAll('\n', '\r\n');
    const listed = `# mine\\r\n${crlf.replaceAll('\r', '\\r')}`;
    expect(findEntry(listed, command.configDir)).toBe(line);
    expect(withoutEntry(listed, command.configDir)).toEqual({ text: '# mine\r\n', removed: 'entry' });
    expect(withEntry(`${USER}${crlf}`, command.configDir, line)).toBe(withEntry(USER, command.configDir, line));
  });

  it('a marker whose entry was deleted by hand is removed alone, and the next line stays', () => {
    const table = `${markerLine(command.configDir)}\n0 3 * * * backup\n`;
    expect(withoutEntry(table, command.configDir)).toEqual({ text: '0 3 * * * backup\n', removed: 'marker' });
  });
});

describe('what an installed entry says', () => {
  it('its interval and log, from this version\'s line and from an earlier one (">>", "%" escaped for cron)', () => {
    expect(entrySettings(cronLine(command, 10, "/home/o'brien/my log"))).toEqual({
      every: 10,
      log: "/home/o'brien/my log",
    });
    const earlier = `*/7 * * * * /n /s --config-dir '/a/100\\% x' poll >> '/a/100\\% x/poll.log' 2>&1; if true; fi`;
    expect(entrySettings(earlier)).toEqual({ every: 7, log: '/a/100% x/poll.log' });
    expect(entrySettings('0 * * * * /n /s --config-dir /a poll')).toEqual({ every: undefined, log: undefined });
  });

  it("a timer's interval", () => {
    expect(timerInterval(systemdUnits(command, 15).timer)).toBe(15);
    expect(timerInterval('[Timer]\nOnCalendar=hourly\n')).toBeUndefined();
  });
});

describe('systemd units', () => {
  it('a oneshot service with the absolute command, and a timer every n minutes that catches up after a sleep', () => {
    const { service, timer } = systemdUnits(command, 5);
    expect(service).toContain(
      'ExecStart="/usr/bin/node" "/opt/agent/bin/agent.cjs" "--config-dir" "/home/me/.config/prediction-agent" "poll"',
    );
    expect(service).toContain('Type=oneshot');
    expect(timer).toContain('OnCalendar=*:0/5');
    expect(timer).toContain('Persistent=true');
    expect(timer).toContain('WantedBy=timers.target');
  });

  it("escapes systemd's specifiers and quotes, and names the units after the config dir", () => {
    const { service } = systemdUnits({ ...command, configDir: '/tmp/100% "x"' }, 5);
    expect(service).toContain('"/tmp/100%% \\"x\\""');
    expect(unitName('/a')).toMatch(/^prediction-agent-poll-[0-9a-f]{10}$/);
    expect(unitName('/a')).not.toBe(unitName('/b'));
  });
});
