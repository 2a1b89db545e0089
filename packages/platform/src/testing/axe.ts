/**
 * @module testing/axe
 * axe-core in the page, injected from node_modules (the test's browser contexts
 * bypass the pages' CSP for it): the serious and critical violations of the page
 * as it is now.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  await page.addScriptTag({ path: AXE_SCRIPT });
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
