/**
 * @module testing/csp
 * Reading a response's Content-Security-Policy in tests: its directives, its
 * script nonce, and the script tags of a page that do not carry that nonce (and
 * so would not run).
 */

/** The directives of the response's CSP header, by name. */
export function cspDirectives(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name as string, sources]),
  );
}

/** The nonce `script-src` allows, if any. */
export function cspNonceOf(response: Response): string | undefined {
  const source = cspDirectives(response)
    .get('script-src')
    ?.find((s) => s.startsWith("'nonce-"));
  return source?.slice("'nonce-".length, -1);
}

/** Every `<script …>` tag of `html` that does not carry `nonce` (expected: none). */
export function scriptTagsWithoutNonce(html: string, nonce: string | undefined): string[] {
  const tags = html.match(/<script\b[^>]*>/gi) ?? [];
  return tags.filter((tag) => nonce === undefined || !tag.includes(`nonce="${nonce}"`));
}
