// English strings of the planner, loaded with it (web/js/tools.js): the words the section
// shows before it is opened are in en.js.
(function () {
  'use strict';
  Object.assign(window.HP_I18N.plan, {
    custom: 'Custom device…',
    customName: function (i) { return 'custom device ' + (i + 1); },
    fact_memory: 'memory (GiB)',
    fact_memory_bandwidth: 'bandwidth (GB/s)',
    fact_fp16_flops: 'FP16 (FLOP/s)',
    copy: 'Copy',
    copied: 'Copied.',
    copyFailed: 'Copy failed; select the flag and copy it by hand.',
    // A model of the user's own, read from a .gguf file (planner.js).
    label_gguf: 'Or your own model: a .gguf file',
    error_gguf: 'GGUF file',
    ggufHint: 'Read here, in this browser: only its header and tensor table, so a file of any size opens at once. Nothing leaves this machine.',
    ggufReading: function (file) { return 'Reading ' + file + '…'; },
    ggufUsing: function (name) { return 'Planning with ' + name + ' from the file.'; },
    ggufFacts: function (name, architecture, layers, size) { return name + ': ' + architecture + ', ' + layers + (layers === 1 ? ' layer, ' : ' layers, ') + size; },
    ggufExperts: function (count, used) { return ', ' + count + ' experts (' + used + ' per token)'; },
    ggufFrom: function (file) { return ', from ' + file + '.'; },
    ggufLink: function (model, quant) { return 'The page’s link cannot carry a file: it keeps the catalog model, ' + model + ' ' + quant + '.'; },
    ggufBack: 'Use the catalog model instead',
    // llama-bench's measured speeds, read from its -o json or -o jsonl output (planner.js).
    label_bench: 'Calibrate with llama-bench: its -o json or -o jsonl file',
    benchHint: 'Read here, in this browser; nothing leaves this machine. Each record sets its GPU’s speed so that the estimate for the record’s own model equals its avg_ts.',
    benchFile: function (file) { return 'Calibrating with ' + file + '.'; },
    // A file the core refused: no plan uses it until it is fixed and chosen again.
    benchFailed: function (file) { return 'Not calibrating with ' + file + ': its error is below.'; },
    benchLink: 'The page’s link cannot carry a file: after a reload, choose it again.',
    // device and record 0-based (shown from 1), factor formatted: avg_ts over the estimate's speed.
    benchCalibrated: function (device, name, record, factor) {
      return 'Device ' + (device + 1) + ' (' + name + '): calibrated by record ' + (record + 1) + ', ' + factor + ' × the estimate’s speed.';
    },
    benchUnused: function (record, reason) {
      var why = { other_phase: 'its test is not of the planned phase (tg: decode, pp: prefill)',
        no_device: 'its gpu_info or device names no device here', measured: 'each device it names has its own measured speed',
        nearer_record: 'each device it names took a record whose model size is nearer the planned model’s' }[reason] || reason;
      return 'Record ' + (record + 1) + ' unused: ' + why + '.';
    },
    benchNone: 'The file holds no record.',
    benchAgain: function (file) { return 'This link was planned with ' + file + ', which a link cannot carry: the plan below is not calibrated. Choose the file again.'; },
    benchRemove: 'Remove the llama-bench file',
    error_bench: 'llama-bench file',
    // A device's or a link's choice, named in its error before the position.
    error_devices: 'GPU',
    error_links: 'Link type',
    label_model: 'Model',
    label_quant: 'Quantization',
    label_context: 'Context length (tokens)',
    label_phase: 'Phase',
    label_tokens: 'Tokens per micro-batch',
    label_M: 'Micro-batches M',
    label_objective: 'Objective',
    label_allow_idle_devices: 'Allow idle devices (a device may get no layer)',
    phase_decode: 'decode',
    phase_prefill: 'prefill',
    objective_async: 'least T_async',
    objective_blocking: 'least T_block',
    objective_throughput: 'least bottleneck τ_max',
    devicesHeading: 'Devices, in pipeline order',
    device: function (i) { return 'Device ' + (i + 1); },
    link: function (i) { return 'link ' + (i + 1) + '→' + (i + 2); },
    remove: 'Remove',
    add: 'Add a device',
    use: 'Use this pipeline in the calculator',
    used: function (S, M, unit) { return 'The calculator now shows this pipeline: ' + S + ' stages, M = ' + M + ', times in ' + unit + '.'; },
    barsLabel: 'The planned split: each device’s layers, and its memory fill',
    stageTitle: function (device, first, last, count) { return 'device ' + (device + 1) + ': layers ' + first + '–' + last + ' (' + count + ')'; },
    memoryTitle: function (used, capacity) { return 'memory ' + used + ' of ' + capacity; },
    layersAxis: function (L) { return L + ' layers'; },
    gib: 'GiB',
    colDevice: 'Device',
    colLayers: 'Layers',
    colCount: 'Count',
    colTau: 'τ (s)',
    colMemory: 'Memory used / capacity',
    colSplit: 'Split',
    // M: the plan's micro-batches, formatted (the speeds are at that M).
    colTokens: function (M) { return 'tok/s (M = ' + M + ')'; },
    colObjective: 'Objective at M (s)',
    colLoss: 'Loss against the optimum',
    optimal: 'Optimal (heteropipe)',
    baseline_even: 'Even layer counts',
    baseline_memory_proportional: 'Memory-proportional (llama.cpp default, exo)',
    infeasible: 'does not fit in memory',
    idle_device: 'leaves a device idle',
    flagsHeading: 'Runtime flags',
    flagsNote: 'MODEL stands for your model. In llama.cpp\'s -ts the last count is one more: llama.cpp places the output layer on the last device as a layer of its own. A model\'s multi-token-prediction layers add to it too: llama.cpp counts them, though it neither loads nor runs them.',
    whatIfHeading: 'What if',
    without: function (i, name) { return 'Without device ' + (i + 1) + ' (' + name + ')'; },
    withAnother: function (name) { return 'With one more ' + name + ' at the end'; },
    // An estimate's band (the core's tokens_per_second_band), its ends formatted: where the measured speed typically lands.
    typically: function (lo, hi) { return 'typically ' + lo + '–' + hi; },
    // A speed with its band (band: [lo, hi] formatted, or null for none), e.g. '17.6 tok/s (typically 15–20)'.
    speed: function (tps, band) { return tps + ' tok/s' + (band ? ' (' + this.typically(band[0], band[1]) + ')' : ''); },
    // The baselines table's cell: the speed and its band, the column naming the unit.
    speedCell: function (tps, band) { return tps + (band ? ' (' + this.typically(band[0], band[1]) + ')' : ''); },
    // speed: this.speed's text; change: the signed difference from the plan's speed.
    whatIfSpeed: function (speed, change) { return speed + ', ' + change + ' tok/s'; },
    whatIfInfeasible: 'no split fits in memory',
    // The what-if's reason fewer_layers_than_devices: the chain would have more devices than the model has layers.
    whatIfNoLayer: 'a device would run no layer (the model has fewer layers than devices)',
    // The answer's first sentence (planner-view.js's lead): i the 0-based device, speed this.speed's text.
    leadSpare: function (i, name, layers, speed) {
      return 'Device ' + (i + 1) + ' (' + name + ') holds ' + layers + (layers === 1 ? ' layer' : ' layers') +
        '; without it you lose nothing: ' + speed + '.';
    },
    leadBeats: function (speed, loss, which) {
      return 'This split runs at ' + speed + '; ' + (which === 'even' ? 'even layer counts take ' : 'llama.cpp’s default split takes ') + loss + '% longer.';
    },
    leadSpeed: function (speed) { return 'This split runs at ' + speed + '.'; },
    // A stage above 95 % of its device's memory capacity; percent is already formatted.
    memoryWarning: function (i, name, percent) {
      return 'Device ' + (i + 1) + ' (' + name + ') is ' + percent + '% full: a runtime that needs a little more memory than estimated will not load this split.';
    },
    // tps: tokens x M / T(M), or tokens / τ_max for the throughput objective (the figure it optimizes);
    // band: its [lo, hi] formatted, or null; which: the feasible baseline compared (none: null).
    headline: function (tps, band, loss, which, objective) {
      var formula = objective === 'throughput' ? 'tokens / τ_max, the steady state' : 'tokens × M / T(M)';
      var speed = 'Optimal split: ' + tps + ' tok/s (' + formula + (band ? '; ' + this.typically(band[0], band[1]) : '') + ').';
      if (which === 'memory_proportional') return speed + ' The memory-proportional default costs ' + loss + '%.';
      if (which === 'even') return speed + ' The memory-proportional default breaks the plan’s rules; even layer counts cost ' + loss + '%.';
      return speed + ' Neither default split keeps the plan’s rules.';
    }
  });
})();
