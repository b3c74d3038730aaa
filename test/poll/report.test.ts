import { describe, expect, it } from 'vitest';
import { renderPoll, type PollReport } from '../../src/poll/report.js';
import { makeOutput } from '../support/streams.js';

const REPORT: PollReport = {
  posted: [{ threadId: 't-1', conviction: 1.3, text: 'Bullish on c/bitcoin: ETF inflows.', predictionId: 'c-1' }],
  skipped: [{ threadId: 't-2', reason: 'locked', skipKind: 'locked' }],
  failed: [{ threadId: 't-3', error: 'the service failed (503): \u001b[31mbusy\u001b[0m' }],
  cursor: { timestamp: '2025-06-01T12:00:00.000Z', id: 't-2' },
};
const EMPTY: PollReport = { posted: [], skipped: [], failed: [], cursor: null };
const run = { dryRun: false, elapsedMs: 1234 };

describe('renderPoll', () => {
  it('--json: exactly the document of docs/cli.md on stdout; failures still on stderr', () => {
    const { output, stdout, stderr } = makeOutput({ json: true });
    renderPoll(REPORT, output, run);
    expect(JSON.parse(stdout.text)).toEqual(REPORT);
    expect(stderr.text).toBe('agent: thread t-3: the service failed (503): busy\n');
  });

  it('under cron, one line per distinct failure: a broken analyzer on many threads is one line of mail', () => {
    const broken = 'analysis failed: the analyzer command exited with code 3';
    const failed = ['a', 'b', 'c', 'd', 'e'].map((threadId) => ({ threadId, error: broken }));
    const { output, stdout, stderr } = makeOutput();
    renderPoll(
      {
        ...EMPTY,
        failed: [
          ...failed,
          { threadId: 'f', error: 'the service failed (503): busy' },
          { threadId: 'g', error: broken },
        ],
      },
      output,
      run,
    );
    expect(stdout.text).toBe('');
    expect(stderr.text).toBe(
      `agent: 6 threads (a, b, c, …): ${broken}\nagent: thread f: the service failed (503): busy\n`,
    );
  });

  it('a terminal: a line per thread and a summary', () => {
    const { output, stdout } = makeOutput({ stdoutTTY: true });
    renderPoll(REPORT, output, run);
    const lines = stdout.text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^posted\s+\+1\.3%\s+t-1\s+Bullish on c\/bitcoin: ETF inflows\.$/);
    expect(lines[1]).toMatch(/^skipped\s+t-2\s+locked$/);
    expect(lines[2]).toBe('1 posted, 1 skipped, 1 failed in 1.2 s');
  });

  it('a terminal, nothing new', () => {
    const { output, stdout, stderr } = makeOutput({ stdoutTTY: true });
    renderPoll(EMPTY, output, run);
    expect(stdout.text).toBe('Nothing new.\n');
    expect(stderr.text).toBe('');
  });

  it('a dry run says "would post" and that nothing changed', () => {
    const { output, stdout } = makeOutput({ stdoutTTY: true });
    renderPoll({ ...REPORT, failed: [] }, output, { dryRun: true, elapsedMs: 0 });
    expect(stdout.text).toContain('would post');
    expect(stdout.text).toContain('(dry run: nothing sent, state unchanged)');
  });

  it.each([
    ['cron: silent on success', {}, EMPTY, '', ''],
    [
      'cron --verbose: one summary line',
      { verbose: true },
      EMPTY,
      '',
      'agent poll: 0 posted, 0 skipped, 0 failed in 1.2 s\n',
    ],
    ['cron: failures on stderr', {}, REPORT, '', 'agent: thread t-3: the service failed (503): busy\n'],
    [
      'cron --quiet: failures still on stderr',
      { quiet: true },
      REPORT,
      '',
      'agent: thread t-3: the service failed (503): busy\n',
    ],
  ])('%s', (_what, mode, report, out, err) => {
    const { output, stdout, stderr } = makeOutput(mode);
    renderPoll(report, output, run);
    expect(stdout.text).toBe(out);
    expect(stderr.text).toBe(err);
  });

  it('server text in reasons reaches the terminal clean', () => {
    const { output, stdout } = makeOutput({ stdoutTTY: true });
    renderPoll(
      {
        ...EMPTY,
        skipped: [{ threadId: 't\u001b[2J', reason: 'malformed \u001b]0;x\u0007thread\nhere', skipKind: 'malformed' }],
      },
      output,
      run,
    );
    expect(stdout.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(stdout.text).toContain('malformed thread here');
  });
});
