import { expect, it } from 'vitest';
import { departmentOf, estimateAiRoi, roiInput } from './roi.js';

it('follows the documented formula', () => {
  expect(
    estimateAiRoi({ department: 'customer support', headcount: 4, avgMonthlySalaryVnd: 10_000_000 }),
  ).toEqual({
    department: 'customer_support',
    headcount: 4,
    avgMonthlySalaryVnd: 10_000_000,
    automatableShare: 0.3,
    hoursSavedPerMonth: 211.2,
    vndSavedPerMonth: 12_000_000,
    vndSavedPerYear: 144_000_000,
    aiCostPerMonthVnd: 2_000_000,
    setupCostVnd: 50_000_000,
    netVndPerMonth: 10_000_000,
    paybackMonths: 5,
  });
});

it('has no payback when the saving does not cover the cost', () => {
  expect(
    estimateAiRoi({ department: 'other', headcount: 1, avgMonthlySalaryVnd: 1_000_000 }).paybackMonths,
  ).toBeNull();
});

it('knows common department names and falls back to "other"', () => {
  expect(departmentOf('Kế toán')).toBe('finance');
  expect(departmentOf('IT')).toBe('engineering');
  expect(departmentOf('Astrology')).toBe('other');
});

it('rejects impossible inputs', () => {
  expect(roiInput.safeParse({ department: 'sales', headcount: 0, avgMonthlySalaryVnd: 1 }).success).toBe(
    false,
  );
  expect(roiInput.safeParse({ department: '', headcount: 1, avgMonthlySalaryVnd: 1 }).success).toBe(false);
  expect(roiInput.safeParse({ department: 'sales', headcount: 1.5, avgMonthlySalaryVnd: 1 }).success).toBe(
    false,
  );
});
