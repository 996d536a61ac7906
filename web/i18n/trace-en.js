// English strings of the "Measured run" section, loaded with it (web/js/sections.js): the words
// it shows before a file is dropped are in en.js. The core's errors, warnings and reasons show the
// module's own English sentences.
(function () {
  'use strict';
  var R = window.HP_I18N.trace;
  Object.assign(R, {
    progressLabel: 'Reading the trace',
    cancel: 'Cancel',
    cancelled: 'Cancelled.',
    reading: function (n) { return 'Reading ' + n + (n === 1 ? ' file…' : ' files…'); },
    importing: 'Recovering the pipeline…',
    failed: 'The import failed.',
    optionsHeading: 'Import options',
    label_stat: 'τ and d from each stage’s',
    stat_min: 'minimum (the paper’s lower bound)',
    stat_p50: 'median',
    stat_mean: 'mean',
    label_stage_order: 'Stage order (ranks)',
    label_compute: 'Compute kernels (regex)',
    label_transfer: 'Transfer kernels (regex)',
    label_microbatch: 'Micro-batch ranges (regex)',
    hint_stage_order: 'e.g. 2,1,0',
    hint_compute: 'default: kernels but nccl*; with no kernels, host ops',
    hint_transfer: 'default: Send, Recv, SendRecv kernels; gloo/c10d send, recv',
    hint_microbatch: 'e.g. microbatch_(\\d+)',
    label_profiler_step: 'Profiler step (N of ProfilerStep#N)',
    hint_profiler_step: 'default: the first; e.g. 2',
    again: 'Import again',
    // The module's sentence; an option's names the option by its label on the form (`label`) where
    // the sentence begins with the option's key ("microbatch_regex, character 4: ...").
    error: function (e, limits, label) {
      var key = e.field;
      var named = label && (e.message.indexOf(key + ': ') === 0 || e.message.indexOf(key + ', ') === 0);
      return named ? label + e.message.slice(key.length) : e.message;
    },
    filesRead: function (names, unit, stat) { return 'Read: ' + names + '. Times in ' + unit + '; τ and d are each stage’s ' + stat + '.'; },
    headline: function (S, M, T, position) { return 'A pipeline of ' + S + ' stages and ' + M + ' micro-batches: T_real = ' + T + ', ' + position + '.'; },
    position: {
      below_async: 'below T_async, faster than the asynchronous bound',
      inside: 'inside the sandwich T_async ≤ T_real ≤ T_block',
      above_block: 'above T_block, slower than even blocking sends explain'
    },
    notPipeline: function (why) { return 'No pipeline: ' + why + '.'; },
    // Why a trace is no pipeline: the module's own sentence (reason_message).
    reason: function (r) { return r.reason_message; },
    overlap: 'overlap ratio',
    noHeadroom: 'T_block = T_async',
    // Beside a measured ratio outside [0, 1] (T_real outside its bounds), which is no overlap ratio.
    outsideModel: 'outside [0, 1]: the run is outside the model, so this is no overlap ratio',
    replay: 'replay async / blocking',
    overlapReplay: 'overlap ratio (replay)',
    explainHeading: 'Why T_real is what it is',
    cause: { model: 'model', variability: 'variability', blocking: 'blocking', other: 'other' },
    // "T_real 1,942 ms = model 1,808 + variability 58 + blocking 0 + other 76 ms"
    explainSentence: function (T, unit, parts) {
      return 'T_real ' + T + ' ' + unit + ' = ' + parts.map(function (p) { return p[0] + ' ' + p[1]; }).join(' + ') + ' ' + unit;
    },
    offsets: 'clock offsets',
    bottleneck: 'bottleneck',
    use: 'Fill the calculator with τ, d, M and T_real',
    filled: 'The calculator now holds this run’s τ, d, M and T_real.',
    ganttHeading: 'Measured and exact schedules',
    exactRegime: 'Exact schedule with',
    measuredHead: 'Measured schedule (clocks aligned)',
    exactHead: function (regime) { return 'Exact schedule (' + regime.toLowerCase() + ' transfers)'; },
    firstShown: function (shown, M) { return 'The first ' + shown + ' of ' + M + ' micro-batches are drawn.'; },
    stagesHeading: 'Per stage: each micro-batch’s compute span',
    stageCols: ['stage', 'rank', 'micro-batches', 'τ', 'min', 'p50', 'mean', 'p95', 'max', 'busy min', 'busy max'],
    linksHeading: 'Per link: each matched transfer, clocks aligned',
    linkCols: ['link', 'ranks', 'pairs', 'd', 'min', 'p50', 'mean', 'p95', 'max', 'unmatched'],
    ranksHeading: 'Per rank',
    rankCols: ['rank', 'stage', 'kernels', 'compute', 'transfer', 'collective', 'streams', 'compute time', 'communication time'],
    warningsHeading: 'Warnings',
    warning: function (w) { return w.message; }
  });
})();
