import { describe, expect, it } from 'vitest';
import { chunkMarkdown, parseDocument } from './chunker.js';

describe('chunkMarkdown', () => {
  it('gives each section the chain of headings above it', () => {
    const chunks = chunkMarkdown(
      '# Handbook\n\nIntro.\n\n## Leave\n\nTwenty days.\n\n### Sick leave\n\nTen days.\n\n## Travel\n\nEconomy.',
    );
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([
      ['Handbook', 'Intro.'],
      ['Handbook > Leave', 'Twenty days.'],
      ['Handbook > Leave > Sick leave', 'Ten days.'],
      ['Handbook > Travel', 'Economy.'],
    ]);
  });

  it('keeps text before the first heading and skips empty sections', () => {
    const chunks = chunkMarkdown('Preamble.\n\n# A\n\n# B\n\nBody of B.');
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([
      ['', 'Preamble.'],
      ['B', 'Body of B.'],
    ]);
  });

  it('drops front matter but takes its title', () => {
    const markdown = '---\ntitle: "Onboarding guide"\ntags: [hr]\n---\n# Welcome\n\nHello.';
    expect(parseDocument(markdown).title).toBe('Onboarding guide');
    const chunks = chunkMarkdown(markdown);
    expect(chunks).toEqual([{ ordinal: 0, headingPath: 'Welcome', text: 'Hello.' }]);
  });

  it('does not take a # inside a code block for a heading', () => {
    const chunks = chunkMarkdown('# Script\n\n```bash\n# not a heading\necho hi\n```\n\nAfter.');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingPath).toBe('Script');
    expect(chunks[0]!.text).toContain('# not a heading');
  });

  it('cuts long sections into windows that overlap', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30).trim()}.`);
    const chunks = chunkMarkdown(`# Long\n\n${paragraphs.join('\n\n')}`, {
      maxChars: 500,
      overlapChars: 200,
    });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(500);
      expect(chunk.headingPath).toBe('Long');
    }
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrevious = chunks[i - 1]!.text.split('\n\n').pop()!;
      expect(chunks[i]!.text.startsWith(lastOfPrevious)).toBe(true);
    }
    const all = chunks.map((c) => c.text).join('\n');
    for (const p of paragraphs) expect(all).toContain(p);
  });

  it('splits a single enormous paragraph at sentence or word boundaries', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const chunks = chunkMarkdown(sentence.repeat(100), { maxChars: 300, overlapChars: 50 });
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(300);
  });
});
