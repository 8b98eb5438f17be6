/** The seed of a randomized test: FC_SEED if set, else fresh; always printed with the command that replays it. */
export function testSeed(name: string, dir: string): number {
  const seed = process.env.FC_SEED === undefined ? Date.now() % 2_147_483_647 : Number(process.env.FC_SEED);
  console.log(`[${name}] seed ${seed} (replay: FC_SEED=${seed} npx vitest run ${dir})`);
  return seed;
}
