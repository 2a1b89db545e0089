/**
 * @module oidc/levels
 * `acr` values are XV's assurance levels themselves (`AAL1`, `AAL2`, `AAL3`): what the ID token's `acr`
 * states is the level the session had proved, and `acr_values` asks for one. A list names levels in the
 * order the app prefers them (OpenID Connect Core §3.1.2.1): the first one XV knows is the one asked for.
 */
import type { AssuranceLevel } from '@xv/platform';
import { isLevel, LEVELS } from '../sessions/assurance.js';

export const ACR_VALUES = LEVELS;

/** The level an authorization request asks for through `acr_values`, AAL1 when none. */
export function wantedLevel(acrValues: unknown): AssuranceLevel {
  if (typeof acrValues !== 'string') return 'AAL1';
  return acrValues.split(' ').find(isLevel) ?? 'AAL1';
}
