import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from './front-matter.js';
import { formatDate, highlight, readerLocale, stateLabel } from './words.js';

describe('words of the people’s pages', () => {
  it('names states in words', () => {
    expect(stateLabel('under_review')).toBe('Waiting for review');
    expect(stateLabel('retired')).toBe('Retired');
  });

  it('takes the first language it can format dates in', () => {
    expect(readerLocale('xx-invalid-@@, de-DE;q=0.8')).toBe('de-DE');
    expect(readerLocale(undefined)).toBe('en');
    expect(formatDate('2026-03-04T10:00:00.000Z', 'de-DE')).toBe('04.03.2026');
  });

  it('highlights whole words of the query, case-insensitively, leaving the rest as text', () => {
    expect(highlight('Trains <b>and</b> trainspotting', 'train TRAINS')).toEqual([
      { text: 'Trains', hit: true },
      { text: ' <b>and</b> trainspotting', hit: false },
    ]);
    expect(highlight('Nghỉ phép năm', 'phép')).toEqual([
      { text: 'Nghỉ ', hit: false },
      { text: 'phép', hit: true },
      { text: ' năm', hit: false },
    ]);
  });

  it('splits front matter into entries and lists', () => {
    const { entries, body } = splitFrontMatter(
      '---\ntitle: "Leave"\ntags:\n  - hr\n  - time\n---\n# Leave\n',
    );
    expect(entries).toEqual([
      { key: 'title', value: 'Leave' },
      { key: 'tags', value: 'hr, time' },
    ]);
    expect(body).toBe('# Leave\n');
    expect(splitFrontMatter('# No front matter\n---\n').entries).toEqual([]);
  });
});
