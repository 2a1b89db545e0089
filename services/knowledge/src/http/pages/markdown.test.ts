import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeHref } from './markdown.js';

describe('renderMarkdown', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror="alert(1)">',
    '<iframe src="https://evil.example"></iframe>',
    '<svg onload="alert(1)"><script>alert(2)</script></svg>',
    'inline <b onmouseover="alert(1)">bold</b> html',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](java\tscript:alert(1))',
    '[click](&#106;avascript:alert(1))',
    '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '<javascript:alert(1)>',
    '![x](javascript:alert(1))',
    '![pixel](https://tracker.example/p.gif)',
    '[x](https://ok.example "t\\" onmouseover=\\"alert(1)")',
  ];

  for (const markdown of hostile) {
    it(`never emits active content for ${JSON.stringify(markdown)}`, () => {
      const html = renderMarkdown(markdown);
      expect(html).not.toMatch(/<(script|iframe|svg|img|object|embed)\b/i);
      // Event handler attributes outside quoted (escaped) attribute values.
      expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]+\son\w+\s*=/i);
      expect(html).not.toMatch(/href="\s*(javascript|data|vbscript):/i);
    });
  }

  it('keeps ordinary Markdown', () => {
    const html = renderMarkdown(
      '# Title\n\n**bold** and [link](https://example.com) and `code`\n\n```js\nconst a = "<b>";\n```',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('&lt;b&gt;');
  });

  it('shows raw HTML as text', () => {
    expect(renderMarkdown('<script>alert(1)</script>')).toContain('&lt;script&gt;');
  });
});

describe('safeHref', () => {
  it('allows web, mail and relative links only', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHref('mailto:a@b.example')).toBe('mailto:a@b.example');
    expect(safeHref('../other.md')).toBe('../other.md');
    expect(safeHref('#section')).toBe('#section');
    expect(safeHref(' javascript:alert(1)')).toBeUndefined();
    expect(safeHref('vbscript:x')).toBeUndefined();
    expect(safeHref('jav&#x61;script:alert(1)')).toBeUndefined();
  });
});
