/**
 * A host container at a fixed address on the run's network. Testcontainers
 * attaches a container to a network by name or alias only; the plan gives
 * every host its address (the grudges and the nft scripts name addresses),
 * so this sets the Docker API's per-endpoint IPAM config on the create call,
 * through GenericContainer's hook before the container is created.
 */
import { GenericContainer } from 'testcontainers';

export class HostContainer extends GenericContainer {
  constructor(
    image: string,
    private readonly network: string,
    private readonly ip: string,
  ) {
    super(image);
    this.withNetworkMode(network);
  }

  protected override async beforeContainerCreated(): Promise<void> {
    this.createOpts.NetworkingConfig = { EndpointsConfig: { [this.network]: { IPAMConfig: { IPv4Address: this.ip } } } };
  }
}
