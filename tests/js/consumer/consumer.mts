// A typed ES module consumer of the npm package (type-checked by package.test.mjs).
import load, { HeteropipeError, type Analysis, type Curve, type ErrorInfo, type PlanReport, type Timeline } from 'heteropipe';

const hp = await load();
const a: Analysis = hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8, T_real: 83 });
const position: 'below_async' | 'inside' | 'above_block' | undefined = a.T_real_position;
const sigma: number[] = a.sigma;
const big: Analysis<Float64Array> = hp.analyze({ tau: new Float64Array([1, 2]), d: new Float64Array([0.5]) });
const t: Timeline = hp.timeline({ tau: [1, 2], M: 2, regime: 'blocking' });
const starts: Float64Array = t.compute_start;
const c: Curve = hp.makespanCurve({ tau: [1, 2], batches: hp.curveBatches({ tau: [1, 2], M: 8, points: 50 }) });
const ratio: number | null = hp.overlapRatio({ tau: [1, 1], d: [1], M: 4, T_real: 5 });
const stream: number = hp.recurrenceMakespan({ tau: [1, 2], M: 1e6, regime: 'asynchronous' });
const errors: ErrorInfo[] = hp.check({ tau: [1, -1] });
const list: number[] = hp.parseList('1, 2', 'tau');
const M: number = hp.parseNumber('8', 'M');
const plan: PlanReport = hp.plan({ model: 'llama-3-8b', quant: 'Q4_K_M', devices: ['rtx-4090', { id: 'rtx-3090', avg_ts: 110 }], M: 4 });
const split: string = plan.runtime.llama_cpp_tensor_split;
const gpus: string[] = hp.catalog().gpus.map((g) => g.id);
console.log(plan.baselines.even.loss_percent, split, gpus);
try {
  hp.analyze({ tau: [] });
} catch (e) {
  if (e instanceof HeteropipeError) {
    const index: number | null = e.index;
    console.log(e.code, e.field, index, e.value, e.limit, e.token, e.message);
  }
}
console.log(position, sigma, big.tau.byteLength, starts.length, c.T_async.length, ratio, stream, errors, list, M,
  hp.version, hp.limits.max_timeline_cells, hp.memory().malloc_bytes, hp.phaseTransition({ tau: [1, 2] }));
