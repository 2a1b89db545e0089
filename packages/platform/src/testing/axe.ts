/**
 * @module testing/axe
 * axe-core in the page, evaluated from node_modules through the browser's debugging
 * protocol (not a script tag, so the page's CSP stays in force): the serious and
 * critical violations of the page as it is now.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

let axeSource: string | undefined;
const axeScript = () => {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
};

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(axeScript());
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
    type AxeResults = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    };
    const results = await axe.run(document);
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation, for an assertion message. */
export function describeFindings(where: string, findings: AxeFinding[]): string[] {
  return findings.map((v) => `${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
}
