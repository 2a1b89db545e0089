import { describe, expect, it } from 'vitest';
import {
  type BenchResult,
  recordedResults,
  renderSection,
  rewriteSections,
  updateDocument,
} from './report.js';

const context = {
  commit: 'abc1234',
  dirty: false,
  date: '2026-11-26T01:50:00.000Z',
  machine: { cores: 2, cpu: 'Test CPU', memoryGiB: 24, node: 'v20.20.0', os: 'Linux 6.1 x64' },
};

function result(
  name: string,
  figures: BenchResult['figures'],
  extra: Partial<BenchResult> = {},
): BenchResult {
  return {
    name,
    description: `what ${name} measures`,
    goals: [{ figure: 'ratio', atLeast: 0.6, says: `${name} vs /healthz` }],
    baselines: ['healthzRequestsPerSecond'],
    figures,
    seconds: 12,
    loadAverage: 0.5,
    context,
    ...extra,
  };
}

const document = [
  '# Benchmarks',
  '',
  'Intro the runner never touches.',
  '',
  '<!-- bench:begin summary -->',
  'old summary',
  '<!-- bench:end summary -->',
  '',
  '## alpha',
  '',
  'How alpha is measured, by hand.',
  '',
  '<!-- bench:begin alpha -->',
  '| old | table |',
  '<!-- bench:end alpha -->',
  '',
  'Closing words.',
  '',
].join('\n');

describe('rewriteSections', () => {
  it('replaces the text between the markers and keeps everything outside them', () => {
    const rewritten = rewriteSections(document, new Map([['alpha', 'new table']]));
    expect(rewritten).toContain('<!-- bench:begin alpha -->\nnew table\n<!-- bench:end alpha -->');
    expect(rewritten).not.toContain('| old | table |');
    expect(rewritten.replace('new table', '| old | table |')).toBe(document);
  });

  it('appends a section whose markers are missing, under a heading of its name', () => {
    const rewritten = rewriteSections(document, new Map([['beta', 'beta table']]));
    expect(rewritten.startsWith(document.trimEnd())).toBe(true);
    expect(
      rewritten.endsWith('## beta\n\n<!-- bench:begin beta -->\nbeta table\n<!-- bench:end beta -->\n'),
    ).toBe(true);
  });
});

describe('updateDocument', () => {
  it('writes each section with commit, machine, baselines and a judged table, and is idempotent', () => {
    const results = [result('alpha', { healthzRequestsPerSecond: 20000, ratio: 0.5 })];
    const once = updateDocument(document, results);
    expect(once).toContain(
      'commit `abc1234`, 2026-11-26 01:50 UTC; 2 cores (Test CPU), 24 GiB, Node v20.20.0',
    );
    expect(once).toContain('Same-run baselines: `healthzRequestsPerSecond` 20,000.');
    expect(once).toContain('| ratio | 0.5 | ≥ 0.6 (alpha vs /healthz) | **NOT met** |');
    expect(once).toContain('How alpha is measured, by hand.');
    expect(once).toContain('Closing words.');
    expect(updateDocument(once, results)).toBe(once);
  });

  it('builds the summary from every recorded section, including ones not run this time', () => {
    const first = updateDocument(document, [result('alpha', { ratio: 0.7, sizeGrowthRatio: 0.9 })]);
    const second = updateDocument(first, [
      result('beta', {}, { error: 'listen EADDRINUSE', context: { ...context, dirty: true } }),
    ]);
    const summary = second.slice(second.indexOf('bench:begin summary'), second.indexOf('bench:end summary'));
    expect(summary).toContain('| `alpha` | alpha vs /healthz | `ratio` ≥ 0.6 | 0.7 | met | `abc1234` |');
    expect(summary).toContain('| `beta` | beta vs /healthz | `ratio` ≥ 0.6 | – | no figure | `abc1234`+ |');
    expect(summary).toContain('`beta` (`abc1234`+): listen EADDRINUSE');
    expect(second).toContain('**Failed:** listen EADDRINUSE');
    expect([...recordedResults(second).keys()].sort()).toEqual(['alpha', 'beta']);
    expect(second).toContain('| `alpha` | sizeGrowthRatio | 0.9 | `abc1234` |');
  });

  it('keeps the recorded result readable even when a figure holds comment-ending text', () => {
    const tricky = result('alpha', { note: 'a --> b -- c' });
    const section = renderSection(tricky);
    const data = section.slice(section.indexOf('<!-- bench:data ') + 16, section.lastIndexOf(' -->'));
    expect(data).not.toContain('--');
    const recorded = recordedResults(updateDocument(document, [tricky])).get('alpha');
    expect(recorded?.figures.note).toBe('a --> b -- c');
  });
});
