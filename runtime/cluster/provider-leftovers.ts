/**
 * What runs on each provider leave behind, and how it goes: a reclaim (reclaim.ts, and its blocking twin in an
 * exit handler, reclaim-sync.ts) stops the recorded processes and removes the shared memory, the data dirs and the
 * state file whoever made them, and between the two asks every provider, whichever the state file names (a
 * leftover may be of either, and a state file may be gone), to remove its own.
 *
 * A registry apart from provider-registry.ts: every start and every teardown reclaims, so the reclaim must not
 * import the providers' start-ups, which import it.
 */
import type { ProviderName } from '../../core/plan/providers.js';
import { containerLeftovers } from './containers/container-leftovers.js';
import { namespaceLeftovers } from './namespace-leftovers.js';
import type { ProviderLeftovers } from './reclaim-report.js';

/** In the order they run: the containers go first, so that their servers (which name the run's data dirs) are removed with them, not hunted down one by one as the namespaces' strays are. */
export const PROVIDER_LEFTOVERS: { [K in ProviderName]: ProviderLeftovers } = { containers: containerLeftovers, namespaces: namespaceLeftovers };
