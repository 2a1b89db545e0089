import { translator } from '@xv/platform/i18n';
import { describe, expect, it } from 'vitest';
import { en } from '../../messages/en.js';
import { messages } from '../../messages/index.js';
import { vi } from '../../messages/vi.js';
import { splitFrontMatter } from './front-matter.js';
import { errorText, highlight, historyAction, stateLabel } from './words.js';

const english = translator(messages, 'en');
const vietnamese = translator(messages, 'vi');

describe('words of the people’s pages', () => {
  it('names states in words, in the page’s language', () => {
    expect(stateLabel(english, 'under_review')).toBe('Waiting for review');
    expect(stateLabel(english, 'retired')).toBe('Retired');
    expect(stateLabel(vietnamese, 'under_review')).toBe('Đang chờ duyệt');
    expect(stateLabel(vietnamese, 'rejected')).toBe('Bị từ chối');
  });

  it('names history steps in words, keeping a step it does not know as written', () => {
    expect(historyAction(vietnamese, 'approve')).toBe('Đã duyệt');
    expect(historyAction(english, 'submit')).toBe('Submitted for review');
    expect(historyAction(vietnamese, 'archived_by_migration')).toBe('archived_by_migration');
  });

  it('words an API error from the catalogue, else with its own message', () => {
    expect(errorText(vietnamese, { code: 'revision_changed', message: 'x' })).toMatch(
      /^Tài liệu đã thay đổi/,
    );
    expect(errorText(vietnamese, { code: 'something_new', message: 'Its own words.' })).toBe(
      'Its own words.',
    );
  });

  it('has every Vietnamese message in NFC, and each placeholder of the English one', () => {
    for (const [key, english] of Object.entries(en)) {
      const translated = vi[key as keyof typeof en];
      expect(translated, key).toBe(translated.normalize('NFC'));
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(translated), key).toEqual(names(english));
    }
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
