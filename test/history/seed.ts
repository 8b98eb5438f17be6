/** The seed of a randomized test: FC_SEED if set, else fresh; always printed so a failure can be replayed. */
export function testSeed(name: string): number {
  const seed = process.env.FC_SEED === undefined ? Date.now() % 2_147_483_647 : Number(process.env.FC_SEED);
  console.log(`[${name}] fast-check seed ${seed} (replay: FC_SEED=${seed} npx vitest run test/history)`);
  return seed;
}
