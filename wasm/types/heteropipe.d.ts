// Declarations of the heteropipe npm package, shared by its CommonJS
// (index.d.cts) and ES module (index.d.mts) entries; scripts/pack-npm.sh
// appends each entry's export lines.

declare namespace heteropipe {
  /** Every limit the core enforces (the numbers its error messages quote). */
  interface Limits {
    max_stages: number;
    max_value: number;
    min_stage_time: number;
    min_batches: number;
    max_batches: number;
    min_rho: number;
    max_rho: number;
    max_timeline_cells: number;
    /** Each anti-diagonal of the recurrence counts as this many cells of work. */
    stream_diagonal_cost: number;
    /** The recurrence's work limit: M * S + stream_diagonal_cost * (M + S - 1). */
    max_stream_work: number;
    max_text_bytes: number;
    min_curve_points: number;
    max_curve_points: number;
    /** The planner: devices and layers of one plan. */
    max_plan_devices: number;
    max_plan_layers: number;
    /** Trying every device order: at most this many devices, and this much work (distinct orders x S x L). */
    max_order_search_devices: number;
    max_order_search_work: number;
    /** The estimator: tokens per micro-batch and context per sequence, whole numbers. */
    max_estimate_tokens: number;
    max_estimate_context: number;
    /** The plan report's what-if is left empty above this many devices. */
    max_what_if_devices: number;
    /** The simulator: replications of one run. */
    max_reps: number;
    /** M * S * reps cells of one simulation. */
    max_sim_cells: number;
    max_buffer: number;
    /** S * (the largest finite buffer that can fill + 1): the release times the buffers keep. */
    max_buffer_history: number;
    /** M * (S - 1): the transfers a run with shared links may hold waiting at once. */
    max_queued_transfers: number;
    /** The largest coefficient of variation of a lognormal or gamma service time. */
    max_cv: number;
    /** Below this CV (or spread) every draw is exactly the mean. */
    min_cv: number;
    /** The largest relative spread of a uniform service time. */
    max_spread: number;
    max_service_samples: number;
    /** Trace import: bytes of one file after decompression, timed events, ranks, |ts| and dur in µs, JSON depth. */
    max_trace_bytes: number;
    max_trace_events: number;
    max_trace_ranks: number;
    max_trace_time: number;
    max_trace_depth: number;
    /** A trace no micro-batch pattern matched: the forms of range names it reports, and each name's bytes. */
    max_range_names: number;
    max_range_name_bytes: number;
    /** GGUF files: header and tensor table bytes, keys, tensors, one string's bytes, one array's items, dimensions. */
    max_gguf_header_bytes: number;
    max_gguf_keys: number;
    max_gguf_tensors: number;
    max_gguf_string_bytes: number;
    max_gguf_array_items: number;
    max_gguf_dims: number;
    max_calibration_records: number;
    max_gpu_info_bytes: number;
    max_model_count: number;
    /** The smallest nonzero size of a typed number (the smallest normal double): a smaller one is too_small. */
    min_normal_number: number;
  }

  type Field = 'tau' | 'd' | 'M' | 'rho' | 'T_real' | 'points'
    // The planner's input.
    | 'devices' | 'layer_times' | 'memory_capacity' | 'layer_memory' | 'links' | 'latency' | 'bandwidth' | 'cut_bytes'
    | 'objective' | 'order' | 'allow_idle_devices' | 'id'
    // The estimator's input and the planner's JSON text.
    | 'input' | 'model' | 'quant' | 'phase' | 'tokens' | 'context' | 'memory' | 'memory_bandwidth' | 'fp16_flops'
    | 'device_class' | 'layer_time' | 'avg_ts'
    // The simulator's input.
    | 'link_mode' | 'shared' | 'buffers' | 'service' | 'link_service' | 'service_matrix' | 'link_matrix'
    | 'service_samples' | 'service_probabilities' | 'reps' | 'seed'
    // Trace import.
    | 'trace' | 'ph' | 'ts' | 'dur' | 'name' | 'cat' | 'pid' | 'tid' | 'traceEvents' | 'rank' | 'world_size'
    | 'baseTimeNanoseconds' | 'distributedInfo'
    | 'stage' | 'microbatch' | 'kind' | 'start' | 'end'
    | 'stage_order' | 'compute_regex' | 'transfer_regex' | 'microbatch_regex' | 'stat' | 'unit' | 'clock_offsets'
    | 'profiler_step'
    // GGUF files, then a model's facts (ModelInfo).
    | 'gguf' | 'header_bytes' | 'key_count' | 'tensor_count' | 'string_length' | 'array_length' | 'n_dims' | 'dims'
    | 'value_type' | 'ggml_type' | 'architecture' | 'layers' | 'nextn_predict_layers' | 'n_embd' | 'n_head' | 'n_head_kv' | 'context_length'
    | 'expert_count' | 'expert_used_count' | 'key_length' | 'value_length' | 'feed_forward_length' | 'vocab_size'
    | 'sliding_window' | 'sliding_layers' | 'attention_layers' | 'kv_layers' | 'recurrent_layers' | 'layer_bytes'
    | 'active_layer_bytes'
    | 'active_layer_params' | 'embedding_bytes'
    | 'output_bytes' | 'kv_bytes_per_token' | 'recurrent_bytes_per_sequence'
    // Calibration: the records, then a record's keys (a record's avg_ts is calibration).
    | 'calibration' | 'gpu_info' | 'model_size' | 'model_n_params' | 'n_prompt' | 'n_gen' | 'device';
  /** 'async' or 'blocking'; the former 'asynchronous' and 'block' are still read. */
  type Regime = 'async' | 'blocking' | 'asynchronous' | 'block';
  type ErrorCode =
    | 'empty' | 'too_many' | 'not_finite' | 'negative' | 'all_zero' | 'too_small' | 'too_large' | 'wrong_length'
    | 'not_integer' | 'out_of_range' | 'not_positive' | 'empty_item' | 'not_a_number' | 'ambiguous_comma' | 'has_unit'
    | 'no_overlap_headroom' | 'too_many_cells' | 'too_long' | 'too_much_work' | 'out_of_memory'
    // The planner's.
    | 'unknown_name' | 'sum_too_large' | 'delay_too_large' | 'fewer_layers_than_devices' | 'device_too_small'
    | 'memory_short' | 'no_feasible_split' | 'too_many_to_order' | 'order_search_too_large' | 'wrong_type'
    | 'not_json' | 'unknown_key' | 'wrong_form' | 'unknown_id' | 'unknown_unit'
    // The simulator's.
    | 'overlapping_groups' | 'no_such_link' | 'not_ascending' | 'too_many_sim_cells' | 'too_much_sim_work'
    | 'buffer_history_too_large' | 'too_many_transfers'
    // Trace import.
    | 'missing_field' | 'unmatched_begin' | 'unmatched_end' | 'bad_gzip' | 'bad_pattern'
    | 'duplicate_rank' | 'end_before_start' | 'not_a_permutation' | 'not_a_trace'
    // Any text reader (plan, calibration and trace JSON, every CSV): UTF-16 or UTF-32 text.
    | 'utf16_text' | 'utf32_text'
    // GGUF files (index: the byte offset), and the plan input's model.
    | 'not_gguf' | 'unsupported_version' | 'truncated' | 'unknown_type' | 'duplicate_tensor' | 'duplicate_key'
    | 'bad_tensor' | 'unaligned_tensor' | 'overlapping_tensors' | 'bad_alignment'
    | 'conflicting_keys'
    // Calibration: a record that names devices of two kinds (value, limit: the first two).
    | 'ambiguous_device'
    // A model's facts that contradict each other (token: the other fact, limit: its value).
    | 'above_fact' | 'not_a_divisor';
  type SandwichPosition = 'below_async' | 'inside' | 'above_block';

  /**
   * Service times tau (S values) and optional link latencies d (S-1 values). The calculator's calls share one
   * request: each takes any key of these inputs (tau, d, M, rho, T_real, regime, points, batches) and throws a
   * TypeError for any other (a misspelt `m` is refused, not run with M = 8).
   */
  interface PipelineInput {
    tau: ArrayLike<number>;
    d?: ArrayLike<number>;
  }
  interface BatchesInput extends PipelineInput {
    /** Micro-batches, a whole number in [1, 2^53]; default 8. */
    M?: number;
  }
  interface AnalyzeInput extends BatchesInput {
    /** Overlap ratio in [0, 1]; default 1 (fully asynchronous). */
    rho?: number;
    /** A measured makespan to place in the sandwich T_async <= T_real <= T_block. */
    T_real?: number;
  }
  /** Fields as a person types them; absent d, M, rho take their defaults, absent T_real means none. */
  interface RequestText {
    tau: string;
    d?: string;
    M?: string;
    rho?: string;
    T_real?: string;
  }
  interface ReadRequest {
    /** The request the text describes (a field that failed keeps its default). */
    request: { tau: number[]; d: number[]; M: number; rho: number; T_real?: number };
    /** Every error, at most one per field, in field order; empty when the request is valid. */
    errors: ErrorInfo[];
  }
  interface SlopeInput extends PipelineInput {
    rho?: number;
  }
  interface OverlapInput extends BatchesInput {
    T_real: number;
  }
  interface ScheduleInput extends BatchesInput {
    /** Default 'async'. */
    regime?: Regime;
  }
  interface CurveBatchesInput extends BatchesInput {
    /** How many M values at most, or 4 when fewer (the curve always holds 1, its last M, M and ceil(M*)): a whole number in [limits.min_curve_points, limits.max_curve_points], as the CLI's --curve (refused otherwise); default 200. */
    points?: number;
  }
  interface CurveInput extends PipelineInput {
    batches: ArrayLike<number>;
  }

  interface ErrorInfo {
    code: ErrorCode;
    field: Field;
    /** 0-based item, or null when the error is about the whole field. */
    index: number | null;
    value: number;
    /** The bound the value broke, or the count expected (wrong_length); 0 when the code has none. */
    limit: number;
    token: string;
    /**
     * What would fit, present only on a plan estimate that no split fits (memory_short, no_feasible_split,
     * device_too_small on field 'memory', value and limit in bytes): the largest catalog quantization of the
     * same model that fits the same devices ('' when none does).
     */
    fits_quant?: string;
    /** With fits_quant: the 0-based device of which one more at the end of the chain fits (-1 when none does). */
    fits_with_device?: number;
    /**
     * Present only on an error about a matrix (service_matrix, link_matrix), whose `index` is the row (the
     * micro-batch): the 0-based column (the stage, or the link), or null for a whole row or the whole matrix.
     */
    column?: number | null;
    /**
     * Present only on a trace file's wrong_type (whose `token` is the file's label): the value as typed, its
     * JSON text ('"NaN"' with its quotes, 'null', '[1]'), cut to 40 bytes and marked "..."; and on its whole
     * number refused (out_of_range, not_integer, too_large of baseTimeNanoseconds, rank, world_size, pid,
     * tid): the number as typed ('9000000000000000001', '1.50'), exact where the double is not.
     */
    typed?: string;
    /** The core's English sentence, e.g. "tau, item 2: must be >= 0 (got -1)". */
    message: string;
    /**
     * The sentence without the field's name, for a caller that names the field in its own words:
     * "item 2: must be >= 0 (got -1)", or "must be >= 0 (got -1)" about the whole field; the whole
     * message when the sentence names its own place (a trace file's byte, a misspelt key).
     */
    detail: string;
  }

  class HeteropipeError extends Error {
    readonly name: 'HeteropipeError';
    readonly code: ErrorCode;
    readonly field: Field;
    readonly index: number | null;
    readonly value: number;
    readonly limit: number;
    readonly token: string;
    /** ErrorInfo's detail: the sentence without the field's name. */
    readonly detail: string;
    /** See ErrorInfo; on a HeteropipeError, fits_with_device is null when no device does. */
    readonly fits_quant?: string;
    readonly fits_with_device?: number | null;
    /** See ErrorInfo: a matrix cell's 0-based column, index being its row. */
    readonly column?: number | null;
    /** See ErrorInfo: a trace file's mistyped value, or refused whole number, as typed. */
    readonly typed?: string;
    /** Every error the call found, this one first; a list of one when it is alone (plan reports each bad key of its input). */
    readonly errors: HeteropipeError[];
  }

  /** Every quantity of the model; the same fields, names and values as the CLI's --json. */
  interface Analysis<List = number[]> {
    S: number;
    M: number;
    tau: List;
    d: List;
    tau_max: number;
    sigma_max: number;
    T_free: number;
    T_async: number;
    T_block: number;
    T_gpipe: number;
    homogeneity_bias: number;
    full_bias: number;
    phase_transition: boolean;
    overlap_gap: number;
    effective_slope: number;
    asymptotic_throughput_async: number;
    asymptotic_throughput_blocking: number;
    crossover_batches: number;
    rho: number;
    /** The makespan predicted at rho: T_block - rho (T_block - T_async). */
    T_rho: number;
    bottleneck_stage: number;
    blocking_bottleneck_stage: number;
    gpipe_overestimate: number;
    sigma: List;
    link_slack: List;
    link_margin: List;
    overlap_headroom: boolean;
    T_real?: number;
    overlap_ratio?: number;
    T_real_position?: SandwichPosition;
  }

  interface AnalyzeOptions {
    /** Whether to return the per-stage lists; default true. */
    lists?: boolean;
  }
  /** An Analysis without its per-stage lists. */
  type Scalars = Omit<Analysis, 'tau' | 'd' | 'sigma' | 'link_slack' | 'link_margin'>;

  /** Cell (m, s) at m * S + s; transfer (m, s) from stage s to s+1 at m * (S-1) + s. */
  interface Timeline {
    S: number;
    M: number;
    regime: 'async' | 'blocking';
    makespan: number;
    /** Per stage, the share of the makespan it is busy: M tau[s] (blocking: M sigma[s]) over the makespan. */
    utilization: Float64Array;
    compute_start: Float64Array;
    compute_finish: Float64Array;
    transfer_start: Float64Array;
    transfer_finish: Float64Array;
  }

  interface MemoryUse {
    wasm_bytes: number;
    malloc_bytes: number;
  }

  interface Curve {
    M: Float64Array;
    T_free: Float64Array;
    T_async: Float64Array;
    T_block: Float64Array;
    T_gpipe: Float64Array;
    gpipe_overestimate: Float64Array;
  }


  type Objective = 'async' | 'blocking' | 'throughput';

  /** A device of the estimate form: a catalog id, any of whose facts may be overridden, or a device of its own. */
  interface PlanDevice {
    id?: string;
    /** Bytes, or text of a number and its unit: '24 GiB' (B, MB, GB, TB, MiB, GiB, TiB). */
    memory?: number | string;
    /** Bytes per second, or text of a number and its unit: '1008 GB/s' (B/s, MB/s, GB/s, TB/s, GiB/s). */
    memory_bandwidth?: number | string;
    /** Dense FP16 FLOP per second, or text of a number and its unit: '165 TFLOP/s' (FLOP/s, GFLOP/s, TFLOP/s, PFLOP/s, or FLOPS, GFLOPS, TFLOPS, PFLOPS). Another unit is unknown_unit. */
    fp16_flops?: number | string;
    device_class?: 'nvidia-gddr' | 'nvidia-hbm' | 'apple' | 'amd-gddr' | 'amd-hbm' | 'intel-gddr';
    /** A measured time per layer (seconds), instead of the roofline. */
    layer_time?: number;
    /** llama-bench's avg_ts for the whole model on this one device, instead of the roofline. */
    avg_ts?: number;
    /** What llama-bench's gpu_info calls this device, for calibration records (docs/planner.md#calibration). */
    name?: string;
  }

  /**
   * One record as `llama-bench -o json` writes it (docs/planner.md#calibration); its other keys are ignored.
   * gpu_info names the device (or device: a catalog id or a device's name); a tg test (n_gen > 0, n_prompt 0)
   * calibrates decode, a pp test (n_prompt > 0, n_gen 0) prefill.
   */
  interface BenchRecord {
    gpu_info?: string;
    device?: string;
    /** Bytes. */
    model_size: number;
    model_n_params: number;
    n_prompt: number;
    n_gen: number;
    /** Tokens per second. */
    avg_ts: number;
    [key: string]: unknown;
  }

  /** A link of the estimate form: a catalog id, or latency (s) and bandwidth (bytes/s). */
  interface PlanLinkChoice {
    id?: string;
    latency?: number;
    bandwidth?: number;
  }

  interface PlanOptions {
    /** Or its text, as a form's field holds it ("8", full-width digits read), as tokens and context. */
    M?: number | string;
    objective?: Objective;
    order?: 'given' | 'search';
    allow_idle_devices?: boolean;
  }

  /** A model's facts, as `heteropipe model --json` prints them from a GGUF file (docs/planner.md#gguf-files). */
  interface ModelInfo {
    architecture: string;
    name: string;
    layers: number;
    /** The last layers that are multi-token-prediction layers, which llama.cpp neither loads nor runs in decode
     * (the plan's chain leaves them out; llama.cpp's -ts still counts them). Optional in the "model" input (0). */
    nextn_predict_layers?: number;
    n_embd: number;
    n_head: number;
    n_head_kv: number;
    context_length: number;
    /** 0 for a dense model. */
    expert_count: number;
    expert_used_count: number;
    /** Per head; n_embd / n_head unless the file says. */
    key_length: number;
    value_length: number;
    feed_forward_length: number;
    vocab_size: number;
    /** The window of the sliding layers, as llama.cpp applies it to the architecture; 0: none. */
    sliding_window: number;
    /** Per layer: 1 where it attends to the last sliding_window positions only, 0 where to all; in the
     * "model" input it may be empty (no layer slides). */
    sliding_layers: number[];
    /** Per layer: 1 where it attends, 0 where not; attention work falls on these layers only. In the "model"
     * input it may be empty (every layer attends). */
    attention_layers: number[];
    /** Per layer: 1 where llama.cpp keeps a KV cache for it, 0 where none (a layer that attends against an
     * earlier layer's cache, as Gemma 3n's last layers do, keeps none); the cache's memory falls on these
     * layers only. Optional in the "model" input: absent or empty, the attending layers keep it. */
    kv_layers?: number[];
    /** Per layer: 1 where it holds a recurrent state, 0 where none; the state falls on these layers only.
     * In the "model" input it may be empty (the state is spread over every layer). */
    recurrent_layers: number[];
    /** Per layer: every tensor named blk.N.*, from each tensor's own ggml type. */
    layer_bytes: number[];
    /** Per layer: what one token reads (expert tensors at expert_used_count / expert_count). */
    active_layer_bytes: number[];
    /** Per layer: the weights one token multiplies. */
    active_layer_params: number[];
    /** token_embd.weight. */
    embedding_bytes: number;
    /** output.weight (token_embd.weight when tied) and output_norm.weight. */
    output_bytes: number;
    /** The F16 KV cache one position adds, all layers together, as llama.cpp keeps it (none for a
     * layer without attention; K alone for multi-head latent attention). */
    kv_bytes_per_token: number;
    /** The F32 state llama.cpp holds per sequence for the recurrent (SSM, RWKV, short-convolution)
     * layers, all together; 0 for a transformer; optional in the "model" input. */
    recurrent_bytes_per_sequence: number;
  }

  /** The estimate form: a model and catalog devices (docs/planner.md). */
  interface EstimatePlanInput extends PlanOptions {
    /** A catalog id (with quant), or a model's facts (hp.modelInfo's object; no quant). */
    model: string | ModelInfo;
    quant?: string;
    devices: Array<string | PlanDevice>;
    links?: Array<string | PlanLinkChoice>;
    phase?: 'decode' | 'prefill';
    tokens?: number | string;
    context?: number | string;
    /**
     * llama-bench records (one, or a list): each sets its device's efficiency. Or the text of a file
     * llama-bench wrote (-o json, or -o jsonl: one record per line), read by the core, whose errors
     * then count bytes in that text (docs/planner.md#calibration).
     */
    calibration?: BenchRecord | BenchRecord[] | string;
  }

  /** The explicit form: every cost given. */
  interface ExplicitPlanInput extends PlanOptions {
    devices: Array<{ layer_times: number[]; memory_capacity: number }>;
    layer_memory: number[];
    links?: Array<{ latency: number; bandwidth: number }>;
    cut_bytes?: number[];
  }

  type PlanInput = EstimatePlanInput | ExplicitPlanInput;

  interface PlanStage {
    /** The device's index in the input. */
    device: number;
    first_layer: number;
    last_layer: number;
    layers: number;
    tau: number;
    memory_used: number;
    memory_capacity: number;
  }

  /** A split priced through the closed forms. */
  interface PricedSplit {
    objective_value: number;
    stages: PlanStage[];
    tau: number[];
    d: number[];
    analysis: Analysis;
  }

  /**
   * A runtime's default split; fits_memory false: some stage holds more than its device. feasible false: it
   * breaks a rule the plan keeps (reason 'memory', or 'idle_device': a device has no layer while
   * allow_idle_devices is false); the headline compares feasible baselines only.
   */
  interface PlanBaseline extends PricedSplit {
    fits_memory: boolean;
    feasible: boolean;
    reason: '' | 'memory' | 'idle_device';
    /** tokens x M / T(M) (tokens / tau_max for the throughput objective), as the plan's. */
    tokens_per_second: number;
    /** Where the measured speed typically lands, as the plan's; null for explicit costs. */
    tokens_per_second_band: SpeedBand | null;
    throughput: number;
    loss_percent: number;
  }

  /** An estimated speed's band: [lo, hi] tokens per second. */
  type SpeedBand = [lo: number, hi: number];

  interface PlanWhatIf {
    change: 'remove' | 'add';
    device: number;
    feasible: boolean;
    reason: string;
    tokens_per_second: number;
    /** As the plan's; [0, 0] when not feasible (tokens_per_second 0), null for explicit costs. */
    tokens_per_second_band: SpeedBand | null;
    tokens_per_second_change: number;
  }

  /** A stage whose layers fill more than 95 % (limits' kMemoryWarningFraction) of its device's memory capacity. */
  interface PlanWarning {
    code: 'memory_nearly_full';
    /** 0-based stage, and its device's index in the input. */
    stage: number;
    device: number;
    memory_used: number;
    memory_capacity: number;
    /** memory_used / memory_capacity. */
    fraction: number;
  }

  /** The optimal split, the same keys as `heteropipe plan --json`. */
  interface PlanReport extends PricedSplit {
    objective: Objective;
    /**
     * tokens x M / T(M), or tokens / tau_max (the steady state) for the throughput objective: generated tokens/s
     * in decode, prompt tokens/s in prefill (tokens 1 for explicit costs).
     */
    tokens_per_second: number;
    /**
     * An estimate's band: [tokens_per_second x kEstimateBandLow, x kEstimateBandHigh], where the measured speed
     * typically lands (docs/planner.md#validation); null for explicit costs, which carry no estimate error.
     */
    tokens_per_second_band: SpeedBand | null;
    throughput: number;
    baselines: { even: PlanBaseline; memory_proportional: PlanBaseline };
    /** The flags, and whole commands using them (MODEL and MODEL.gguf stand for the model; -ts's last count includes the output layer, and a model's multi-token-prediction layers, which llama.cpp counts but neither loads nor runs). */
    runtime: { vllm_pp_layer_partition: string; sglang_pp_layer_partition: string; llama_cpp_tensor_split: string; llama_cpp_command: string; vllm_command: string; sglang_command: string };
    what_if: PlanWhatIf[];
    /** The stages above 95 % of their device's memory capacity, in chain order. */
    warnings: PlanWarning[];
    /** Each device a calibration record set (indices into devices and calibration): its per-layer times are the estimate's / factor. */
    calibrated: PlanCalibrated[];
    /** Each calibration record that set no device, and why. */
    calibration_unused: PlanUnusedRecord[];
  }

  interface PlanCalibrated {
    device: number;
    record: number;
    /** avg_ts over the estimate's tokens/s for the record's own model on the device (above 1: faster than estimated). */
    factor: number;
  }

  interface PlanUnusedRecord {
    record: number;
    reason: 'other_phase' | 'no_device' | 'measured' | 'nearer_record';
  }

  interface Catalog {
    /** cuda_graphs: whether llama.cpp's CUDA backend launches a token's kernels on this card as one CUDA graph
     * (false on Pascal; the estimate then charges more per layer). */
    gpus: Array<{ id: string; name: string; device_class: string; memory: number; memory_bandwidth: number; fp16_flops: number; cuda_graphs: boolean; source: string }>;
    /** head_size: the attention head size; experts, experts_used: 0 for a dense model (intermediate is then
     * one expert's); sliding_window: 0 for none; sliding_period: layer j slides unless j + 1 is a multiple of it (0: all slide). */
    models: Array<{ id: string; name: string; layers: number; hidden: number; intermediate: number; heads: number; kv_heads: number; vocab: number; tied_embeddings: boolean; head_size: number; experts: number; experts_used: number; sliding_window: number; sliding_period: number; source: string }>;
    /** bytes_per_weight: the feed-forward (expert) weights'; other_bytes_per_weight: every other matrix's
     * (attention, router, embeddings, LM head), equal to bytes_per_weight unless the format keeps those at
     * another type (MXFP4: Q8_0). */
    quants: Array<{ id: string; bytes_per_weight: number; other_bytes_per_weight: number; source: string }>;
    links: Array<{ id: string; name: string; latency: number; bandwidth: number; source: string }>;
  }

  // The simulator (docs/simulation.md): the forms Python's Pipeline.simulate takes.
  /** 'async', 'blocking' or 'serial'; the former 'delay' and 'block' are still read. */
  type LinkMode = 'async' | 'blocking' | 'serial' | 'delay' | 'block';
  /** A list of numbers: an array or a Float64Array. */
  type Numbers = ArrayLike<number>;
  interface SimulateInput extends PipelineInput {
    /** Micro-batches; default 8. */
    M?: number;
    links?: LinkMode;
    /** Sets of links sharing one medium, [[0, 1], [2, 3]], or the CLI's text "0,1;2,3". */
    shared?: Numbers[] | string;
    /** One size for every link, or S-1 (Infinity: unbounded), or text "0, inf, 2"; default all unbounded. */
    buffers?: number | Numbers | string;
    /** "deterministic", "exponential", "lognormal:cv=X", "gamma:cv=X", "uniform:spread=X", or one per stage. */
    service?: string | string[];
    /** The same names for the links' transfer times, or one per link. */
    link_service?: string | string[];
    /** M rows of S measured times, replayed. */
    service_matrix?: Numbers[];
    /** M rows of S-1 measured transfer times (0 allowed), replayed in place of link_service. */
    link_matrix?: Numbers[];
    /** S lists of measured times, drawn with equal chance (or quantiles, with `quantiles`). */
    service_samples?: Numbers[];
    quantiles?: boolean;
    /**
     * The probabilities of every stage's quantiles, one per value, strictly increasing within [0, 1]
     * (default: evenly spaced from 0 to 1); the quantile function stays at the first value below the
     * first and at the last above the last. Given, the samples are quantiles at them.
     */
    service_probabilities?: Numbers;
    /** Each stage's samples scaled to mean tau[s]. */
    scaled?: boolean;
    /**
     * Replications, 1 to limits.max_reps; default 1. Also as text typed ("1000"), read as the CLI
     * reads --reps: "x" is not a number, "1.5" not a whole number.
     */
    reps?: number | string;
    /** 0 to 2^53; default 0. The same seed gives the same bits in every interface. Also as text, as reps. */
    seed?: number | string;
    /** Keep replication 0's per-micro-batch results and timeline (their lists as Float64Arrays). */
    timeline?: boolean;
  }
  interface SimSummary {
    mean: number;
    sd: number;
    ci95: number[];
    p50: number;
    p90: number;
    p95: number;
    p99: number;
    min: number;
    max: number;
  }
  interface SimHistogram {
    edges: number[];
    counts: number[];
  }
  /** Cell (m, s) at m * S + s; transfer (m, s) over link s at m * (S-1) + s. */
  interface SimTimeline {
    S: number;
    M: number;
    compute_start: Float64Array;
    compute_finish: Float64Array;
    release: Float64Array;
    transfer_start: Float64Array;
    transfer_finish: Float64Array;
  }
  /** Replication 0; completion, latency and timeline only when asked for. */
  interface SimRun<List = number[]> {
    makespan: number;
    busy: List;
    starved: List;
    blocked: List;
    /** Per stage, busy over the makespan (0 when the makespan is 0). */
    utilization: List;
    completion?: List;
    latency?: List;
    timeline?: SimTimeline;
  }
  /** The same keys and values as `heteropipe simulate --json`. */
  interface Simulation<List = number[]> {
    S: number;
    M: number;
    links: 'async' | 'blocking' | 'serial';
    reps: number;
    seed: number;
    makespan: SimSummary;
    throughput: SimSummary;
    histogram: SimHistogram;
    deterministic_makespan: number;
    T_async: number;
    T_block: number;
    /** makespan.mean - deterministic_makespan. */
    jensen_gap: number;
    /** The mean's 95% interval less deterministic_makespan: a gap whose interval holds 0 is noise. */
    jensen_gap_ci95: number[];
    /** 100 (makespan.mean - T_async) / T_async. */
    mean_vs_T_async_percent: number;
    /** The half-width of the mean's 95% interval, in percent of T_async. */
    mean_vs_T_async_ci95_percent: number;
    /** 100 (makespan.p99 - T_async) / T_async. */
    p99_vs_T_async_percent: number;
    run: SimRun<List>;
  }

  // Trace import (docs/traces.md).
  /** One trace file, already decompressed (DecompressionStream in a page, node:zlib in Node). */
  interface TraceFile {
    /** The file's label in errors. */
    name: string;
    bytes: Uint8Array | string;
  }
  /** A Blob or a File (a page's, or Node's Blob): what the module reads of it. */
  interface TraceBlob {
    readonly size: number;
    slice(start?: number, end?: number): TraceBlob;
    stream(): unknown;
    arrayBuffer(): Promise<ArrayBuffer>;
  }
  /** One trace file as a Blob (or a File), read and, if gzip, inflated as it streams; or as TraceFile's bytes. */
  interface TraceBlobFile {
    /** The file's label in errors. */
    name: string;
    bytes: TraceBlob | Uint8Array | string;
  }
  /** The options of a call that reports progress. */
  interface ProgressOptions {
    /**
     * Called while the call runs with the fraction done, rising to 1 (simulate: of the replications, at
     * most about 100 times a run, never without random times; importTrace: of the Blobs' bytes read).
     * It may call the module. What it throws is the call's error once the call is over; it is not
     * called again after that.
     */
    on_progress?: (fraction: number) => void;
  }
  /** The options of `heteropipe trace`, and on_progress. */
  interface TraceOptions extends ProgressOptions {
    stat?: 'min' | 'p50' | 'mean';
    unit?: 's' | 'ms' | 'us';
    /** Ranks in stage order: [2, 1, 0] or "2,1,0". */
    stage_order?: Numbers | string;
    /** Per stage, in `unit`: added to each stage's clock (default: found from the transfers' pairs): [0, -12.3] or "0, -12.3". */
    clock_offsets?: Numbers | string;
    /** The N of the profiler step ("ProfilerStep#N") to import when the files hold several (default: the first; the warning profiler_steps says how many; a step of another profiler window, a repeating schedule's file per rank per cycle, imports that window's files: profiler_windows): 2, or the CLI's text "2". */
    profiler_step?: number | string | null;
    /** Patterns searched in event names: ECMAScript regular expressions without lookarounds or back-references, matched by the core in linear time (docs/traces.md#patterns). A pattern outside that dialect is a bad_pattern error: index = the 0-based character at fault, value = 0 (syntax), 1 (a lookaround), 2 (a back-reference) or 3 (too large; limit = the states allowed). */
    compute?: string;
    transfer?: string;
    microbatch?: string;
    /** Detach the files' ArrayBuffers once copied into the module, so a large import holds its text once (where the engine has ArrayBuffer.prototype.transfer). */
    detach?: boolean;
  }
  interface SampleStats {
    count: number;
    min: number;
    p50: number;
    mean: number;
    p95: number;
    max: number;
  }
  interface TraceRank {
    rank: number;
    stage: number;
    kernels: number;
    compute_kernels: number;
    transfer_kernels: number;
    collective_kernels: number;
    streams: number;
    compute_time: number;
    communication_time: number;
  }
  interface TraceStage {
    stage: number;
    rank: number;
    microbatches: number;
    span: SampleStats;
    busy: SampleStats;
  }
  interface TraceLink {
    link: number;
    from_rank: number;
    to_rank: number;
    pairs: number;
    unmatched: number;
    d: SampleStats;
  }
  interface ScheduleRow {
    stage: number;
    microbatch: number;
    kind: 'compute' | 'transfer';
    start: number;
    end: number;
  }
  /** One link's bounds on the receiver's clock offset against the sender's: [lo, hi], hi null when unbounded. */
  type ClockOffsetBounds = [lo: number, hi: number | null];
  interface SandwichAt {
    T_async: number;
    T_block: number;
  }
  interface TraceWarning {
    code: 'rank_without_compute' | 'unmatched_transfers' | 'microbatch_counts_differ' | 'short_run' | 'missing_ranks' | 'clock_bounds_contradict'
      | 'link_time_zero' | 'pairing_ambiguous' | 'returns_to_first_stage' | 'messages_set_aside' | 'profiler_steps' | 'repeated_microbatch_names'
      | 'other_pass_set_aside' | 'stages_reversed' | 'stages_reordered'
      | 'rank_without_transfers' | 'profiler_windows' | 'nested_ranges';
    index: number;
    value: number;
    limit: number;
    message: string;
  }
  /**
   * model: T_async at the chosen stat; variability: replay.async - model; blocking: T_real - replay.async
   * within [0, replay.blocking - replay.async]; other: the rest (below 0 when the run beat its replay).
   */
  interface ExplainPart {
    cause: 'model' | 'variability' | 'blocking' | 'other';
    time: number;
  }
  /** A name the trace's ranges go by: one range's name and how many ranges have its form, digits aside. */
  interface RangeName {
    name: string;
    count: number;
  }
  /** The same keys and values as `heteropipe trace --json`; the pipeline's fields only when one was recovered. */
  interface TraceResult {
    pipeline: boolean;
    reason?: 'one_rank' | 'collectives_only' | 'no_transfers' | 'unpaired_link' | 'no_microbatches' | 'model_rejected'
      | 'stages_out_of_order' | 'two_way_traffic' | 'no_microbatch_ranges' | 'stage_cut_short';
    /** The reason in words, the CLI's sentence; with `reason`. */
    reason_message?: string;
    /**
     * With `no_microbatch_ranges`: the range names of the stages the pattern missed, the most frequent forms first
     * (at most `limits.max_range_names`): one range's name (cut to `limits.max_range_name_bytes` bytes) and how many
     * ranges have its form, digits aside.
     */
    range_names?: RangeName[];
    unit: 's' | 'ms' | 'us';
    stat: 'min' | 'p50' | 'mean';
    ranks: TraceRank[];
    tau?: number[];
    d?: number[];
    M?: number;
    T_real?: number;
    stages?: TraceStage[];
    links?: TraceLink[];
    clock_offsets?: number[];
    /** Indexed by link: the receiver's clock offset against the sender's is at least lo and at most hi (null: unbounded). */
    clock_offset_bounds?: ClockOffsetBounds[];
    /** T_async and T_block at each statistic. */
    sandwich?: { min: SandwichAt; p50: SandwichAt; mean: SandwichAt };
    analysis?: Analysis;
    overlap_ratio?: number;
    position?: SandwichPosition;
    /** The run's own spans and transfer times replayed by the simulator (absent when it refused them). */
    replay?: { async: number; blocking: number };
    /** T_real in parts, in this order, summing to T_real (empty without a replay). */
    explain?: ExplainPart[];
    /** (replay.blocking - T_real) / (replay.blocking - replay.async); absent when that denominator is 0. */
    overlap_ratio_replay?: number;
    schedule?: ScheduleRow[];
    warnings: TraceWarning[];
  }

  interface Heteropipe {
    readonly version: string;
    readonly limits: Readonly<Limits>;
    /** Lists come back as Float64Arrays when tau is one, else as plain arrays. */
    /**
     * With `{ lists: false }` the five per-stage lists (tau, d, sigma,
     * link_slack, link_margin) are left out: the fast path for huge pipelines.
     */
    analyze(input: AnalyzeInput, options: AnalyzeOptions & { lists: false }): Scalars;
    analyze(input: AnalyzeInput & { tau: Float64Array }, options?: AnalyzeOptions): Analysis<Float64Array>;
    analyze(input: AnalyzeInput, options?: AnalyzeOptions): Analysis;
    /** All errors, at most one per field; never throws. */
    check(input: AnalyzeInput): ErrorInfo[];
    parseList(text: string, field: 'tau' | 'd'): number[];
    parseNumber(text: string, field: Field): number;
    /** Typed text read through the shared parser and checked, as the CLI and the pages read it. */
    readRequest(text: RequestText): ReadRequest;
    makespanFree(input: BatchesInput): number;
    makespanAsync(input: BatchesInput): number;
    makespanBlocking(input: BatchesInput): number;
    makespanGpipe(input: BatchesInput): number;
    homogeneityBias(input: PipelineInput): number;
    fullBias(input: PipelineInput): number;
    phaseTransition(input: PipelineInput): boolean;
    overlapGap(input: BatchesInput): number;
    effectiveSlope(input: SlopeInput): number;
    asymptoticThroughputAsync(input: PipelineInput): number;
    asymptoticThroughputBlocking(input: PipelineInput): number;
    crossoverBatches(input: PipelineInput): number;
    gpipeOverestimate(input: BatchesInput): number;
    /** null when there is no overlap headroom (T_block == T_async). */
    overlapRatio(input: OverlapInput): number | null;
    /** The exact recurrence, streaming; refuses (too_much_work) M * S + stream_diagonal_cost * (M + S - 1) > limits.max_stream_work. */
    recurrenceMakespan(input: ScheduleInput): number;
    /** Every cell's start and finish; refuses M * S > limits.max_timeline_cells. */
    timeline(input: ScheduleInput): Timeline;
    curveBatches(input: CurveBatchesInput): number[];
    makespanCurve(input: CurveInput): Curve;
    /** Diagnostics: wasm memory size and bytes in use by malloc (flat over any number of calls). */
    memory(): MemoryUse;
    /** The optimal layer split and its report; the input as an object or as JSON text. */
    plan(input: PlanInput | string): PlanReport;
    /** The catalog the estimate form draws on, each entry with its source. */
    catalog(): Catalog;
    /**
     * A GGUF file's facts, read from its header and tensor table alone: a Blob (File) is read through
     * slice, a few leading ranges, so a 40 GB file never loads. Plan them as `{ model: info, devices }`.
     */
    modelInfo(file: Blob | Uint8Array | ArrayBuffer): Promise<ModelInfo>;
    /** The exact simulator and Monte Carlo over it, as `heteropipe simulate --json`. */
    simulate(input: SimulateInput & { timeline: true }, options?: ProgressOptions): Simulation<Float64Array>;
    simulate(input: SimulateInput, options?: ProgressOptions): Simulation;
    /** tau, d, M and T_real recovered from profiler traces, as `heteropipe trace --json`. Gzip bytes are refused (bad_gzip): inflate first. */
    importTrace(files: TraceFile[], options?: TraceOptions): TraceResult;
    /** The same, a promise, when a file is a Blob: each Blob is read in pieces straight into the module, a gzip one inflated as it streams. */
    importTrace(files: TraceBlobFile[], options?: TraceOptions): Promise<TraceResult>;
  }
}

/** Loads the module once; every call returns the same promise of the same API. */
declare function heteropipe(): Promise<heteropipe.Heteropipe>;
