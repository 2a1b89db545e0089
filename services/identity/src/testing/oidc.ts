/**
 * @module @xv/identity/testing/oidc
 * A small cookie-keeping browser for tests of "Sign in with XV": it follows redirects and the "continuing"
 * page's meta refresh and posts forms, and `approveDevice` plays the person's part of a device sign-in.
 */

/** Keeps cookies by name (enough for one identity origin) and follows the provider's hops. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(cookie?: string) {
    for (const pair of (cookie ?? '').split('; ').filter(Boolean)) this.keep(pair);
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One request with this browser's cookies; the cookies it sets are kept, cleared ones dropped. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line) || pair.endsWith('=');
      if (expired) this.cookies.delete(pair.slice(0, pair.indexOf('=')));
      else this.keep(pair);
    }
    return response;
  }

  /**
   * Follows redirects and "continuing" pages from `url` until the browser is sent to `stopAt` (answered
   * with that URL), or lands on a page (answered with its response and URL).
   */
  async follow(
    url: string,
    stopAt = 'http://127.0.0.1:9/',
  ): Promise<{ url: string; response?: Response; html?: string }> {
    let current = url;
    for (let hop = 0; hop < 20; hop += 1) {
      if (current.startsWith(stopAt)) return { url: current };
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        current = new URL(location, current).href;
        continue;
      }
      const html = await response.text();
      const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
      if (refresh) {
        current = new URL(refresh[1]!.replaceAll('&amp;', '&'), current).href;
        continue;
      }
      return { url: current, response, html };
    }
    throw new Error('too many hops');
  }

  /** Posts a form as the page at `pageUrl` would, then follows on. */
  async submit(pageUrl: string, action: string, fields: Record<string, string>) {
    const target = new URL(action.replaceAll('&amp;', '&'), pageUrl).href;
    const response = await this.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(pageUrl).origin },
      body: new URLSearchParams(fields).toString(),
    });
    const location = response.headers.get('location');
    if (location) return this.follow(new URL(location, target).href);
    const html = await response.text();
    const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(html);
    if (refresh) return this.follow(new URL(refresh[1]!.replaceAll('&amp;', '&'), target).href);
    return { url: target, response, html };
  }

  private keep(pair: string) {
    const at = pair.indexOf('=');
    if (at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** The `action` of the page's form (the first one, or the one whose action contains `hint`). */
export function formAction(html: string, hint = ''): string {
  for (const match of html.matchAll(/<form[^>]*action="([^"]+)"/g))
    if (match[1]!.includes(hint)) return match[1]!.replaceAll('&amp;', '&');
  throw new Error(`no form with ${hint} on the page`);
}

/** The hidden fields of a page's form, as the browser would post them. */
export function hiddenInputs(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [
      match[1]!,
      match[2]!,
    ]),
  );
}

/**
 * The person's part of a device sign-in (RFC 8628) with the session of `cookie` (which must meet the level
 * the device asked for): opens the link with the code, confirms it, allows the app. Answers the last page.
 */
export async function approveDevice(cookie: string, verificationUriComplete: string) {
  const browser = new Browser(cookie);
  const autoPost = await browser.follow(verificationUriComplete);
  const confirm = await browser.submit(
    autoPost.url,
    formAction(autoPost.html ?? ''),
    hiddenInputs(autoPost.html ?? ''),
  );
  const consent = await browser.submit(
    confirm.url,
    formAction(confirm.html ?? ''),
    hiddenInputs(confirm.html ?? ''),
  );
  if (!consent.html?.includes('/consent')) return consent;
  return browser.submit(consent.url, formAction(consent.html, '/consent'), { decision: 'allow' });
}
