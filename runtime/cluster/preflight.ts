/**
 * Checks before touching the machine: privileges and a free address range.
 */
import { readFileSync } from 'node:fs';
import { PreflightError } from '../hosts/cluster-errors.js';
import { isSlotName } from '../../core/cluster/slots.js';
import { runCommand } from '../hosts/run-command.js';

const CAP_NET_ADMIN = 12;
const CAP_SYS_ADMIN = 21;

/** The effective capability mask of this process, from /proc/self/status. */
export function effectiveCapabilities(): bigint {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('CapEff:'));
  return line ? BigInt(`0x${line.split(/\s+/)[1] ?? '0'}`) : 0n;
}

/** Creating namespaces needs CAP_SYS_ADMIN (it mounts them) as well as CAP_NET_ADMIN; root has both. */
export function isPrivileged(caps: bigint = effectiveCapabilities()): boolean {
  const has = (bit: number): boolean => (caps & (1n << BigInt(bit))) !== 0n;
  return has(CAP_NET_ADMIN) && has(CAP_SYS_ADMIN);
}

export function assertPrivileged(): void {
  if (!isPrivileged()) {
    throw new PreflightError(
      'fencecheck needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN) to create network namespaces.',
      'Run it as root, e.g. `sudo npx fencecheck up --backend redis`.',
    );
  }
}

export interface RouteEntry {
  dst: string;
  dev?: string;
}

function toInt(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

/** Routes of other interfaces that overlap the /24 `subnet` (`a.b.c`) (pure). The default route does not count. */
export function conflictingRoutes(routes: readonly RouteEntry[], subnet: string): RouteEntry[] {
  const base = toInt(`${subnet}.0`);
  return routes.filter((r) => {
    if (r.dst === 'default' || (r.dev !== undefined && isSlotName(r.dev))) return false;
    const [ip = '', lenText] = r.dst.split('/');
    const len = Math.min(lenText === undefined ? 32 : Number(lenText), 24);
    const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
    return (toInt(ip) & mask) >>> 0 === (base & mask) >>> 0;
  });
}

export async function routesInUse(): Promise<RouteEntry[]> {
  const out = await runCommand('ip', ['-j', '-4', 'route', 'show', 'table', 'all']);
  return (JSON.parse(out.stdout || '[]') as RouteEntry[]).filter((r) => typeof r.dst === 'string');
}

/** The project's /24 must not be routed anywhere else on this machine. */
export async function assertRangeFree(subnet: string): Promise<void> {
  const clash = conflictingRoutes(await routesInUse(), subnet);
  if (clash.length > 0) {
    throw new PreflightError(
      `The address range ${subnet}.0/24 is already in use here: ${clash.map((r) => `${r.dst} dev ${r.dev ?? '?'}`).join(', ')}.`,
      'Pick another private /24: `--subnet 10.78.0.0/24` on `up`, or `FENCECHECK_SUBNET=10.78.0.0/24` before any command that starts a cluster (run, compare, scenario, client-check).',
    );
  }
}
