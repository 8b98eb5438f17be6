/**
 * The container runtime through the testcontainers library: its client finds
 * the daemon the way testcontainers does everywhere (DOCKER_HOST, the
 * testcontainers properties file, the local socket, Docker Desktop's), and
 * exposes dockerode for what GenericContainer has no call for (pause,
 * signals, starting a stopped container again, labels in a listing).
 *
 * Testcontainers' reaper (Ryuk) is a container pulled from Docker Hub; a
 * machine without a registry cannot run it, so it is disabled unless the
 * user enabled it, and fencecheck reclaims by its own labels instead
 * (reclaim-containers.ts): on exit, on `down`, and at the next start after
 * a SIGKILL.
 */
import type { ContainerRuntimeClient } from 'testcontainers';

let client: Promise<ContainerRuntimeClient> | undefined;

export function runtimeClient(): Promise<ContainerRuntimeClient> {
  process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';
  client ??= import('testcontainers').then((tc) => tc.getContainerRuntimeClient());
  return client;
}
