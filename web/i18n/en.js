// English strings of the calculator pages. Every piece of interface text lives here.
(function () {
  'use strict';
  var FIELD = { tau: 'tau', d: 'd', M: 'M', rho: 'rho', T_real: 'T_real' };
  window.HP_I18N = {
    lang: 'en',
    locale: 'en',
    otherPage: 'calculator_zh.html',
    otherLanguage: '中文',
    otherLanguageName: 'Chinese',
    text: {
      title: 'Heterogeneous pipeline makespan calculator · heteropipe',
      heading: 'Heterogeneous pipeline makespan calculator',
      subtitle: 'Exact makespans, the GPipe homogeneity bias, the communication phase transition and the async–blocking sandwich, computed by the heteropipe core (WebAssembly) as you type.',
      paper: 'After ZHU Wenbo, “Exact Makespan Bounds and the GPipe Homogeneity Bias for Heterogeneous LLM Inference Pipelines” (2026).',
      inputsHeading: 'Inputs',
      label_tau: 'Stage times τ (S values)',
      hint_tau: 'Separate with commas or spaces, e.g. 0.5, 1, 1, 5',
      label_d: 'Link latencies d (S−1 values, optional)',
      hint_d: 'Blank means no communication cost',
      label_M: 'Micro-batches M',
      hint_M: 'A whole number from 1 to 2^53',
      label_rho: 'Overlap ratio ρ (0 to 1, optional)',
      hint_rho: '1 = fully asynchronous, 0 = fully blocking; blank means 1',
      label_T_real: 'Measured makespan T_real (optional)',
      hint_T_real: 'Same time unit as τ; places a real run in the sandwich',
      presetsHeading: 'Presets',
      dataAttribution: 'Measured presets: per-host dur_min from real_vs_formula.csv, 8,571 requests of a production LLM gateway, published by ZHU Wenbo (Yantai Vocational College of Culture and Tourism), licensed CC BY 4.0.',
      resultsHeading: 'Results',
      resultsInvalid: 'Fix the marked inputs to see results. The last valid results are hidden.',
      group_makespan: 'Makespans',
      group_bias: 'Bias, phase and sandwich',
      group_throughput: 'Throughput and crossover',
      group_pipeline: 'Pipeline',
      group_links: 'Per stage and per link',
      group_real: 'Measured run (T_real)',
      yes: 'yes',
      no: 'no',
      stage: function (i) { return 'stage ' + (i + 1); },
      moreItems: function (n) { return '… (' + n + ' in all)'; },
      none: 'none',
      figuresHeading: 'Pictures',
      fig_curve: 'Makespan against M',
      fig_curve_caption: 'The four makespans; the band between T_async and T_block is the sandwich every real run must fall into. Dashed lines: the crossover M* and the current M.',
      fig_over: 'GPipe overestimate against M',
      fig_over_caption: 'How much the homogeneous GPipe formula overstates T_async, in percent: the constant bias, read as it decays with M.',
      fig_gantt: 'Schedule timeline',
      fig_gantt_caption: 'The exact schedule from the engine: one row per stage, one bar per micro-batch, drawn to scale. Thin bars are link transfers; hatched background is idle time.',
      fig_slack: 'Per-link slack',
      fig_slack_caption: 'Each link’s slack τ_max − τ[s] (bar) against its latency d[s] (tick). A latency above the slack pushes the link past the phase transition: under blocking it enters the slope.',
      regime_asynchronous: 'Asynchronous',
      regime_blocking: 'Blocking',
      regimeLabel: 'Regime',
      ganttFirst: function (shown, M) { return 'Showing the first ' + shown + ' of ' + M + ' micro-batches.'; },
      ganttAll: function (M) { return 'All ' + M + ' micro-batches shown.'; },
      ganttTooMany: function (S, max) { return 'S = ' + S + ' stages is too many to draw (at most ' + max + ').'; },
      slackNone: 'A single stage has no links.',
      slackTooMany: function (n, max) { return n + ' links are too many to draw (at most ' + max + ').'; },
      bottleneckMark: 'bottleneck',
      pastTransition: 'past the phase transition',
      stageRow: function (i) { return 'S' + (i + 1); },
      linkRow: function (i) { return (i + 1) + '→' + (i + 2); },
      axisM: 'micro-batches M',
      axisTime: 'time',
      axisPercent: 'overestimate (%)',
      markCrossover: 'M*',
      markCurrent: 'M',
      markReal: 'T_real',
      seriesOver: 'GPipe overestimate',
      legendSlack: 'slack τ_max − τ[s]',
      legendD: 'latency d[s]',
      legendBar: 'micro-batch',
      legendTransfer: 'transfer',
      legendIdle: 'idle',
      shareHeading: 'Share and export',
      copyLink: 'Copy link',
      copied: 'Link copied.',
      copyFailed: 'Copy failed; the link is in the address bar.',
      exportJson: 'Analysis (JSON)',
      exportCsv: 'Makespan curve (CSV)',
      exportPng: 'PNG',
      exportSvg: 'SVG',
      embedHeading: 'Embed',
      embedHelp: 'Paste this into a page on the same site to embed a compact calculator with the current inputs:',
      openFull: 'Open the full calculator',
      footnoteHeading: 'Formulas',
      footnote: [
        'T_free = (M−1)·τ_max + Στ (Theorem 1);  T_async = Στ + Σd + (M−1)·τ_max (Theorem 2);  T_block = (M−1)·σ_max + Σσ, with σ_s = τ_s + d_s and σ_{S−1} = τ_{S−1} (Theorem 3);  T_gpipe = (S+M−1)·τ_max.',
        'Homogeneity bias T_gpipe − T_free = Σ(τ_max − τ_j), constant in M (Corollary 1);  full bias = Σ(τ_max − τ_j) − Σd (Corollary 3);  phase transition iff some d_s > τ_max − τ_s (Corollary 4);  sandwich T_async ≤ T_real ≤ T_block, with overlap gap T_block − T_async = (M−1)(σ_max − τ_max) (Corollary 5).',
        'Effective slope τ_max + (1−ρ)(σ_max − τ_max);  throughput 1/τ_max (async) and 1/σ_max (blocking);  crossover M* = 1 + (Στ + Σd)/τ_max;  GPipe overestimate (T_gpipe − T_async)/T_async;  overlap ratio ρ = (T_block − T_real)/(T_block − T_async).',
        'Time unit: any, as long as τ, d and T_real share it. Throughput is in micro-batches per time unit.'
      ],
      version: function (v) { return 'heteropipe core ' + v + ' (WebAssembly)'; },
      loadFailed: 'The calculator module failed to load.',
      languageSwitch: 'Language'
    },
    presets: [
      { id: 'illustrative', label: 'Illustrative 5090/3090/3090/1070 (§3.1)' },
      { id: 'legalone-paper', label: 'legalone:8b on 3 GPU generations (§7.2)' },
      { id: 'comm', label: '4 stages with communication' },
      { id: 'phase', label: 'Phase transition (Appendix B, config 8)' },
      { id: 'legalone-measured', label: 'legalone:8b measured, node-01/02/03' },
      { id: 'qwen-measured', label: 'qwen2.5:7b measured, five hosts' }
    ],
    results: {
      S: 'Stages S',
      M: 'Micro-batches M',
      rho: 'Overlap ratio ρ',
      tau_max: 'Bottleneck time τ_max',
      sigma_max: 'Blocking bottleneck σ_max',
      bottleneck_stage: 'Bottleneck stage (async)',
      blocking_bottleneck_stage: 'Bottleneck stage (blocking)',
      T_free: 'T_free, communication-free (Theorem 1)',
      T_async: 'T_async, asynchronous (Theorem 2)',
      T_block: 'T_block, blocking (Theorem 3)',
      T_gpipe: 'T_gpipe, classic homogeneous GPipe',
      homogeneity_bias: 'Homogeneity bias Σ(τ_max − τ_j), constant in M (Corollary 1)',
      full_bias: 'Full bias Σ(τ_max − τ_j) − Σd (Corollary 3)',
      phase_transition: 'Phase transition: some d_s > τ_max − τ_s (Corollary 4)',
      overlap_gap: 'Overlap gap T_block − T_async (Corollary 5)',
      effective_slope: 'Effective slope at ρ',
      gpipe_overestimate: 'GPipe overestimate of T_async at M',
      overlap_headroom: 'Overlap headroom (T_block > T_async)',
      asymptotic_throughput_async: 'Asymptotic throughput, async 1/τ_max',
      asymptotic_throughput_blocking: 'Asymptotic throughput, blocking 1/σ_max',
      crossover_batches: 'Fill → steady-state crossover M*',
      tau: 'Stage times τ',
      d: 'Link latencies d',
      sigma: 'Blocking stage times σ',
      link_slack: 'Link slack τ_max − τ[s]',
      link_margin: 'Link margin slack − d[s] (< 0: past the transition)',
      T_real: 'Measured makespan T_real',
      overlap_ratio: 'Measured overlap ratio',
      T_real_position: 'Position in the sandwich'
    },
    position: {
      below_async: 'below T_async',
      inside: 'inside the sandwich',
      above_block: 'above T_block'
    },
    reconcile: {
      below_async: 'T_real is below T_async, faster than the model allows: the inputs overstate the stage times (or the link latencies).',
      inside: 'T_real lies inside the sandwich T_async ≤ T_real ≤ T_block, as the model says it must.',
      above_block: 'T_real is above T_block, slower than even fully blocking communication: the run broke the model’s assumptions, e.g. bounded buffers (backpressure) or contention.',
      ratio: function (r) { return 'Overlap ratio ρ = (T_block − T_real)/(T_block − T_async) = ' + r + ' (1 = fully asynchronous, 0 = fully blocking).'; },
      noHeadroom: 'No overlap headroom: T_block equals T_async here, so the overlap ratio is undefined and not shown.'
    },
    fieldName: FIELD,
    // One sentence per error code; e is the module's error (0-based index), v its value formatted.
    error: function (e, v, limits) {
      var where = FIELD[e.field] + (e.index !== null && e.index >= 0 ? ', item ' + (e.index + 1) : '') + ': ';
      var what;
      switch (e.code) {
        case 'empty': what = (e.field === 'tau' || e.field === 'd') ? 'needs at least one value' : 'is empty'; break;
        case 'too_many': what = 'at most 10,000,000 values'; break;
        case 'not_finite': what = 'must be a finite number (got ' + e.token + ')'; break;
        case 'negative': what = 'must be >= 0 (got ' + v + ')'; break;
        case 'all_zero': what = 'at least one stage time must be > 0'; break;
        case 'too_small': what = 'the largest stage time must be at least 1e-15 (got ' + v + ')'; break;
        case 'too_large': what = 'must be at most ' + (e.field === 'M' ? '2^53' : '1e15') + ' (got ' + (e.token || v) + ')'; break;
        case 'wrong_length': what = 'needs S-1 = ' + limits.links + ' link latencies, one per link, or none (got ' + v + ')'; break;
        case 'not_integer': what = 'must be a whole number (got ' + v + ')'; break;
        case 'out_of_range': what = e.field === 'rho' ? 'must be between 0 and 1 (got ' + v + ')' : 'must be between 1 and 2^53 (got ' + v + ')'; break;
        case 'not_positive': what = 'must be > 0 (got ' + v + ')'; break;
        case 'empty_item': what = 'empty item between separators'; break;
        case 'not_a_number': what = "'" + e.token + "' is not a number"; break;
        case 'no_overlap_headroom': what = 'no overlap headroom: T_block equals T_async, so the overlap ratio is undefined'; break;
        case 'too_many_cells': what = 'M x S = ' + v + ' cells is over the limit of ' + limits.cells; break;
        default: what = 'invalid (' + e.code + ')';
      }
      return where + what;
    }
  };
})();
