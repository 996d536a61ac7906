// A typed CommonJS consumer of the npm package (type-checked by package.test.mjs).
import load = require('heteropipe');

async function main(): Promise<void> {
  const hp: load.Heteropipe = await load();
  const a: load.Analysis = hp.analyze({ tau: [0.5, 1, 1, 5] });
  const slope: number = hp.effectiveSlope({ tau: [1, 2], d: [3], rho: 0.5 });
  const error: typeof load.HeteropipeError = load.HeteropipeError;
  console.log(a.S, slope, error.name, hp.version);
}
void main();
