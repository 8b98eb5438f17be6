/**
 * Where a cluster's hosts run: `namespaces` (network namespaces on this Linux
 * machine, as root; the default) or `containers` (a Docker daemon, through
 * testcontainers; src/containers). Its own file so the CLI can name the
 * choices without loading the cluster library.
 */
export const PROVIDERS = ['namespaces', 'containers'] as const;
export type ProviderName = (typeof PROVIDERS)[number];
