/**
 * A TCP connection from a simulated client process to a simulated server
 * node: requests travel the network (sim-network.ts), run as the server's
 * process at arrival (held while it is stopped), and answers travel back to
 * the client process (held while the client is stopped). A kill of the
 * server resets the connection: the reset reaches the client like any
 * packet, and every request still waiting for its answer learns it then. A
 * restarted server is a new process: packets of a connection to the old one
 * find nothing (the client's reset already came or is on its way).
 */
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';
import type { SimProcess } from './sim-process.js';

export class ConnectionReset extends Error {}

export class SimConnection {
  private readonly server;
  private closed = false;
  private readonly waiting = new Set<(err: Error) => void>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly net: SimNetwork,
    private readonly host: string,
    private readonly client: SimProcess,
    readonly node: SimNode,
    private readonly onClose: () => void,
  ) {
    this.server = node.proc;
    // The reset travels back to the client like a packet; the client's process handles it when it runs.
    this.unsubscribe = node.onReset(() => net.send(node.name, host, () => client.run(() => this.close())));
  }

  get open(): boolean {
    return !this.closed;
  }

  /**
   * One request: `atServer` runs as the server at arrival; its result comes back, or a ConnectionReset. A
   * server may answer later (a statement waiting for a row lock): its promise's outcome travels back when
   * it settles, unless the server process died meanwhile.
   */
  request<T>(atServer: () => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new ConnectionReset('closed'));
    return new Promise<T>((resolve, reject) => {
      const fail = (err: Error): void => reject(err);
      this.waiting.add(fail);
      // The server's error answer (a Redis error reply, an etcd error status) travels back like any answer.
      const reply = (answer: { ok: true; value: T } | { ok: false; err: unknown }): void => {
        if (this.node.proc !== this.server || this.server.dead) return;
        this.net.send(this.node.name, this.host, () =>
          this.client.run(() => {
            if (!this.waiting.delete(fail)) return;
            if (answer.ok) resolve(answer.value);
            else reject(answer.err);
          }),
        );
      };
      this.net.send(this.host, this.node.name, () => {
        if (this.node.proc !== this.server) return;
        this.server.run(() => {
          let result: T | Promise<T>;
          try {
            result = atServer();
          } catch (err) {
            return reply({ ok: false, err });
          }
          if (result instanceof Promise)
            result.then(
              (value) => reply({ ok: true, value }),
              (err: unknown) => reply({ ok: false, err }),
            );
          else reply({ ok: true, value: result });
        });
      });
    });
  }

  /** The server ends this connection (PostgreSQL terminating an idle session): the reset travels to the client. */
  resetFromServer(): void {
    this.net.send(this.node.name, this.host, () => this.client.run(() => this.close()));
  }

  /** A one-way message to the server (no answer awaited). */
  post(atServer: () => void): void {
    if (this.closed) return;
    this.net.send(this.host, this.node.name, () => {
      if (this.node.proc === this.server) this.server.run(atServer);
    });
  }

  /** The connection ends (reset by the server, or closed by the client): waiting requests fail. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    for (const fail of [...this.waiting]) fail(new ConnectionReset('connection reset'));
    this.waiting.clear();
    this.onClose();
  }
}
