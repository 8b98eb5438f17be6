/**
 * The seed of a randomized test: FC_SEED if set, else fresh; always printed
 * with the command that replays it (fast-check prints the seed of a failing
 * property too).
 */
export function testSeed(name: string, replay: string): number {
  const raw = process.env.FC_SEED;
  let seed: number;
  if (raw === undefined || raw === '') seed = Date.now() % 2_147_483_647;
  else {
    seed = Number(raw);
    if (!Number.isInteger(seed)) throw new Error(`Expected \`FC_SEED\` to be an integer, got \`${raw}\``);
  }
  console.log(`[${name}] seed ${seed} (replay: FC_SEED=${seed} npx vitest run ${replay})`);
  return seed;
}
