/**
 * @module seal/policy
 * Which sign-in a seal needs: tier 1 any session; tier 2 and above (high-value
 * records) a phishing-resistant one, AAL3 (a passkey).
 */

export const MAX_TIER = 3;

export function needsStepUp(tier: number, authLevel: string): boolean {
  return tier >= 2 && authLevel !== 'AAL3';
}
