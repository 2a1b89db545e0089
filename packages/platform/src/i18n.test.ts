import { describe, expect, it } from 'vitest';
import { defineMessages, formatDate, localeOfTag, negotiateLocale, translator } from './i18n.js';
import { en } from './messages/en.js';
import { vi } from './messages/vi.js';

const messages = defineMessages(
  { greeting: 'Hello, {name}', 'documents.one': '{count} document', 'documents.other': '{count} documents' },
  {
    greeting: 'Xin chào, {name}',
    'documents.one': '{count} tài liệu',
    'documents.other': '{count} tài liệu',
  },
);

describe('language negotiation', () => {
  it('prefers the highest weight among supported languages, whatever the region', () => {
    expect(negotiateLocale('vi-VN,vi;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('vi');
    expect(negotiateLocale('fr-FR,en;q=0.5,vi;q=0.8')).toBe('vi');
    expect(negotiateLocale('en-GB,vi;q=0.9')).toBe('en');
    expect(negotiateLocale('fr,de')).toBeUndefined();
    expect(negotiateLocale('')).toBeUndefined();
  });

  it('treats q=0 as a refusal and ignores malformed weights', () => {
    expect(negotiateLocale('vi;q=0, en;q=0.1')).toBe('en');
    expect(negotiateLocale('vi;q=abc')).toBeUndefined();
    expect(negotiateLocale('*')).toBeUndefined();
  });

  it('reads a language tag by its primary subtag', () => {
    expect(localeOfTag('VI-vn')).toBe('vi');
    expect(localeOfTag('en_US')).toBe('en');
    expect(localeOfTag('x')).toBeUndefined();
  });
});

describe('translation', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translator(messages, 'vi')('greeting', { name: 'Lan' })).toBe('Xin chào, Lan');
    expect(translator(messages, 'en')('greeting')).toBe('Hello, {name}');
  });

  it('chooses plural forms by the language’s rules and formats the count', () => {
    const t = translator(messages, 'en');
    expect(t.plural('documents', 1)).toBe('1 document');
    expect(t.plural('documents', 1200)).toBe('1,200 documents');
    expect(translator(messages, 'vi').plural('documents', 1200)).toBe('1.200 tài liệu');
  });

  it('writes dates as a reader of the language does', () => {
    const moment = Date.UTC(2026, 10, 25, 14, 30);
    expect(formatDate(moment, 'en', 'date', 'UTC')).toBe('Nov 25, 2026');
    expect(formatDate(moment, 'vi', 'date', 'UTC')).toMatch(/25.*11.*2026/);
    expect(formatDate('not a date', 'en')).toBe('not a date');
  });

  it('has every shell message in Vietnamese, and none left in English', () => {
    expect(Object.keys(vi).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) expect(vi[key]).not.toBe(en[key]);
  });
});
