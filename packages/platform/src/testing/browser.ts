/**
 * @module testing/browser
 * A real browser for end-to-end tests: Debian's Chromium (never a downloaded
 * build) driven by playwright-core, and screenshots kept as test artifacts under
 * `test-results/` (git-ignored).
 *
 * ```ts
 * describe.runIf(hasChromium())('…', () => {
 *   const browser = await launchBrowser();
 *   const shoot = screenshots('journey/sqlite');
 *   await shoot(page, 'register');   // test-results/journey/sqlite/01-register.png
 * });
 * ```
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The flags every XV browser test uses: headless, and nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** Whether Chromium is installed (CI installs it; a test is skipped without it). */
export function hasChromium(): boolean {
  return existsSync(CHROMIUM);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** One report of the page's Content-Security-Policy refusing something. */
export interface CspViolation {
  /** The directive that refused it: `script-src-elem` for a `<script>`, `script-src-attr` for `onclick="…"`. */
  directive: string;
  /** What was refused: `inline`, or an address. */
  blocked: string;
  /** The page it happened on. */
  url: string;
}

/**
 * Collects every CSP violation `page` reports from now on, across navigations,
 * in the returned array: a page test asserts it stays empty, an attack test that
 * its injection shows up in it.
 */
export async function recordCspViolations(page: Page): Promise<CspViolation[]> {
  const violations: CspViolation[] = [];
  await page.exposeFunction('__xvCspViolation', (violation: CspViolation) => {
    violations.push(violation);
  });
  // Init scripts run in every document before its own scripts, and the policy does not apply to them.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __xvCspViolation(v: CspViolation): void }).__xvCspViolation({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        url: event.documentURI,
      });
    });
  });
  return violations;
}

/**
 * A camera for one test run: each call saves a full-page screenshot as
 * `test-results/<folder>/<NN>-<name>.png`, numbered in the order taken. The
 * folder is emptied first, so it holds only the latest run's pictures.
 */
export function screenshots(folder: string): (page: Page, name: string) => Promise<string> {
  const dir = join(root, 'test-results', folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let taken = 0;
  return async (page, name) => {
    taken++;
    const path = join(dir, `${String(taken).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path, fullPage: true });
    return path;
  };
}
