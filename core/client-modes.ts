/**
 * The resource modes a lock client can serve, from what its ready line
 * announces: its token kind (a fence needs a monotonic token, the cas modes
 * any token) and its features (version and for-update need `transactions`,
 * whatever the token). One function answers it, `clientModes`; client-check
 * lists its answer, and every refusal of a mode (a run's 254, a compare
 * cell or a scenario variant marked not applicable) says why and suggests
 * exactly those modes, so the listing and the hints cannot disagree.
 */
import type { ClientFeature, ClientTokenKind } from './client-protocol.js';
import { DB_CONTROL_MODES, RESOURCE_MODES, type ResourceMode } from './vocabulary.js';

/** What a client announced that decides its modes (a ready line, or a named client's known facts). */
export interface Announced {
  token: ClientTokenKind;
  /** Absent: none (a ready line without `features`). */
  features?: readonly ClientFeature[] | undefined;
}

/** Why this token kind cannot serve the mode, or undefined. */
function tokenReason(kind: ClientTokenKind, resource: ResourceMode): string | undefined {
  if (kind !== 'monotonic' && (resource === 'fence' || resource === 'fence-claim'))
    return `announces ${kind === 'none' ? 'no token' : `${kind} tokens`}, and the resource mode ${resource} needs a monotonic fencing token`;
  if (kind === 'none' && resource !== 'none' && !DB_CONTROL_MODES.includes(resource)) return `announces no token, and the resource mode ${resource} needs one`;
  return undefined;
}

/** Why these features cannot serve the mode, or undefined: the database's own modes need transactions. */
function featureReason(features: readonly ClientFeature[] | undefined, resource: ResourceMode): string | undefined {
  if (!DB_CONTROL_MODES.includes(resource) || (features ?? []).includes('transactions')) return undefined;
  return `does not announce the feature \`transactions\` in its ready line, and the resource mode ${resource} needs it (transaction statements, rollback on failure, the version column in answers)`;
}

/** The modes such a client serves, in RESOURCE_MODES' order (`none` always). */
export function clientModes(a: Announced): ResourceMode[] {
  return RESOURCE_MODES.filter((m) => tokenReason(a.token, m) === undefined && featureReason(a.features, m) === undefined);
}

/** `none, cas-unique or cas-unique-nonatomic`. */
export function modeList(modes: readonly ResourceMode[]): string {
  return modes.length <= 1 ? modes.join('') : `${modes.slice(0, -1).join(', ')} or ${modes.at(-1)!}`;
}

const use = (a: Announced): string => ` (use ${modeList(clientModes(a))})`;

/** Why the client's token kind cannot serve `resource`, with the modes it can, or undefined. */
export function tokenKindExcludes(a: Announced, resource: ResourceMode): string | undefined {
  const why = tokenReason(a.token, resource);
  return why === undefined ? undefined : why + use(a);
}

/** Why the client's features cannot serve `resource` (version, for-update: `transactions`), with the modes it can, or undefined. */
export function featureMissing(a: Announced, resource: ResourceMode): string | undefined {
  const why = featureReason(a.features, resource);
  return why === undefined ? undefined : why + use(a);
}
