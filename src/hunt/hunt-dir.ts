/** huntDirName: the name of a hunt's directory under `<results>/hunt/` (`<backend>-<resource>-<stamp>`, a shard's with `-shardIofN`), spelled once for the hunt and its --help. */
export function huntDirName(target: { backend: string; resource: string }, stamp: string, shard?: { index: number; count: number }): string {
  return `${target.backend}-${target.resource}-${stamp}${shard ? `-shard${shard.index}of${shard.count}` : ''}`;
}
