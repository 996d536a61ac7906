// A typed ES module consumer of the npm package (type-checked by package.test.mjs).
import load, { HeteropipeError, type Analysis, type Curve, type ErrorInfo, type PlanReport, type Simulation, type Timeline,
  type TraceResult } from 'heteropipe';

const hp = await load();
const a: Analysis = hp.analyze({ tau: [0.5, 1, 1, 5], d: [0.2, 0.1, 0.3], M: 16, rho: 0.8, T_real: 83 });
const position: 'below_async' | 'inside' | 'above_block' | undefined = a.T_real_position;
const sigma: number[] = a.sigma;
const big: Analysis<Float64Array> = hp.analyze({ tau: new Float64Array([1, 2]), d: new Float64Array([0.5]) });
const t: Timeline = hp.timeline({ tau: [1, 2], M: 2, regime: 'blocking' });
const starts: Float64Array = t.compute_start;
const c: Curve = hp.makespanCurve({ tau: [1, 2], batches: hp.curveBatches({ tau: [1, 2], M: 8, points: 50 }) });
const ratio: number | null = hp.overlapRatio({ tau: [1, 1], d: [1], M: 4, T_real: 5 });
const stream: number = hp.recurrenceMakespan({ tau: [1, 2], M: 1e6, regime: 'async' });
const errors: ErrorInfo[] = hp.check({ tau: [1, -1] });
const list: number[] = hp.parseList('1, 2', 'tau');
const M: number = hp.parseNumber('8', 'M');
const plan: PlanReport = hp.plan({ model: 'llama-3-8b', quant: 'Q4_K_M', devices: ['rtx-4090', { id: 'rtx-3090', avg_ts: 110 }], M: 4 });
const split: string = plan.runtime.llama_cpp_tensor_split;
const gpus: string[] = hp.catalog().gpus.map((g) => g.id);
console.log(plan.baselines.even.loss_percent, split, gpus);
const sim: Simulation = hp.simulate({ tau: [1.13, 2.9, 2.62], d: [0.1, 0.2], M: 16, service: 'lognormal:cv=0.5',
  link_service: ['exponential', 'deterministic'], buffers: [1, Infinity], shared: '0,1', reps: 100, seed: 7 });
const p99: number = sim.makespan.p99;
const detail: Simulation<Float64Array> = hp.simulate({ tau: [1, 2], service_matrix: [[1, 2], new Float64Array([2, 1])], M: 2, timeline: true });
const released: Float64Array | undefined = detail.run.timeline?.release;
const trace: TraceResult = hp.importTrace([{ name: 'schedule.csv', bytes: 'stage,microbatch,kind,start,end\n0,0,compute,0,1\n' }],
  { unit: 'us', stage_order: [0] });
const recovered: number[] | undefined = trace.pipeline ? trace.tau : undefined;
const fromBlob: TraceResult = await hp.importTrace([{ name: 'schedule.csv', bytes: new Blob(['stage,microbatch,kind,start,end\n0,0,compute,0,1\n']) }]);
console.log(p99, released, recovered, trace.warnings.map((w) => w.message), fromBlob.M);
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
