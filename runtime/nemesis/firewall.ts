/**
 * The thin layer that puts nftables scripts into host namespaces
 * (`ip netns exec NS nft -f -`) and records each table in the state file
 * before creating it. Only namespaces of the project are ever touched; the
 * root namespace's firewall never is.
 */
import { runCommand } from '../hosts/run-command.js';
import { addUnique, type StateFile } from '../hosts/state-file.js';
import { deleteTableScript, TABLE_FAMILY } from './nft-rules.js';

export class Firewall {
  /** `namespace table` -> the script in force, to skip rewriting a table with the same rules. */
  private readonly applied = new Map<string, string>();

  constructor(
    private readonly state: StateFile,
    private readonly nft: string,
    /** Where the script runs: `ip netns exec NS nft -f -` unless a provider says otherwise (containers: docker exec). */
    private readonly exec?: (namespace: string, script: string) => Promise<void>,
  ) {}

  /** Namespaces holding `table`. */
  namespacesWith(table: string): string[] {
    return [...this.applied.keys()].filter((k) => k.endsWith(` ${table}`)).map((k) => k.slice(0, k.lastIndexOf(' ')));
  }

  /** Replace `table` in `namespace` with `script`, or delete it when `script` is undefined. */
  async set(namespace: string, table: string, script: string | undefined): Promise<void> {
    const key = `${namespace} ${table}`;
    if (this.applied.get(key) === script) return;
    const same = (a: { namespace: string; name: string }, b: { namespace: string; name: string }): boolean => a.namespace === b.namespace && a.name === b.name;
    if (script !== undefined) this.state.update((s) => addUnique(s.nftTables, { namespace, family: TABLE_FAMILY, name: table }, same));
    const input = script ?? deleteTableScript(table);
    if (this.exec) await this.exec(namespace, input);
    else {
      await runCommand('ip', ['netns', 'exec', namespace, this.nft, '-f', '-'], {
        input,
        hint: 'Check that nftables is installed (`fencecheck doctor`) and the kernel has nf_tables.',
      });
    }
    if (script !== undefined) {
      this.applied.set(key, script);
    } else {
      this.applied.delete(key);
      this.state.update((s) => (s.nftTables = s.nftTables.filter((t) => !same(t, { namespace, name: table }))));
    }
  }
}
