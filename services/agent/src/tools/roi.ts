/**
 * @module tools/roi
 * The `estimateAiRoi` formula. A department has a share of its working time that
 * AI assistance typically takes over; that share of every person's paid hours is
 * the saving. Against it stand a monthly AI cost per person and a one-off setup.
 *
 *   hoursSavedPerMonth = headcount × 176 h × share
 *   vndSavedPerMonth   = headcount × avgMonthlySalaryVnd × share
 *   vndSavedPerYear    = 12 × vndSavedPerMonth
 *   netVndPerMonth     = vndSavedPerMonth − headcount × 500,000 VND
 *   paybackMonths      = 50,000,000 VND ÷ netVndPerMonth (none when the net is not positive)
 */
import { z } from '@xv/platform';

export const WORKING_HOURS_PER_MONTH = 176;
export const AI_COST_PER_PERSON_VND_PER_MONTH = 500_000;
export const SETUP_COST_VND = 50_000_000;

/** Share of working time AI assistance takes over, by department. */
export const AUTOMATABLE_SHARE = {
  customer_support: 0.3,
  marketing: 0.25,
  finance: 0.25,
  sales: 0.2,
  hr: 0.2,
  operations: 0.2,
  legal: 0.15,
  engineering: 0.15,
  other: 0.1,
} as const;
export type Department = keyof typeof AUTOMATABLE_SHARE;

const ALIASES: Record<string, Department> = {
  support: 'customer_support',
  customer_service: 'customer_support',
  cs: 'customer_support',
  cskh: 'customer_support',
  accounting: 'finance',
  kế_toán: 'finance',
  human_resources: 'hr',
  people: 'hr',
  nhân_sự: 'hr',
  ops: 'operations',
  it: 'engineering',
  tech: 'engineering',
  kinh_doanh: 'sales',
};

export const roiInput = z.object({
  department: z
    .string()
    .trim()
    .min(1)
    .max(80)
    .describe('Department, e.g. sales, marketing, customer_support'),
  headcount: z.coerce.number().int().min(1).max(1_000_000).describe('People in the department'),
  avgMonthlySalaryVnd: z.coerce
    .number()
    .positive()
    .max(10_000_000_000)
    .describe('Average gross monthly salary per person, in VND'),
});
export type RoiInput = z.infer<typeof roiInput>;

export function departmentOf(name: string): Department {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (key in AUTOMATABLE_SHARE) return key as Department;
  return ALIASES[key] ?? 'other';
}

export function estimateAiRoi({ department, headcount, avgMonthlySalaryVnd }: RoiInput) {
  const matched = departmentOf(department);
  const share = AUTOMATABLE_SHARE[matched];
  const vndSavedPerMonth = Math.round(headcount * avgMonthlySalaryVnd * share);
  const aiCostPerMonthVnd = headcount * AI_COST_PER_PERSON_VND_PER_MONTH;
  const netVndPerMonth = vndSavedPerMonth - aiCostPerMonthVnd;
  return {
    department: matched,
    headcount,
    avgMonthlySalaryVnd,
    automatableShare: share,
    hoursSavedPerMonth: Math.round(headcount * WORKING_HOURS_PER_MONTH * share * 10) / 10,
    vndSavedPerMonth,
    vndSavedPerYear: vndSavedPerMonth * 12,
    aiCostPerMonthVnd,
    setupCostVnd: SETUP_COST_VND,
    netVndPerMonth,
    paybackMonths: netVndPerMonth > 0 ? Math.ceil((SETUP_COST_VND / netVndPerMonth) * 10) / 10 : null,
  };
}
