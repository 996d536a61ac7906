// Chinese strings of the simulator section, loaded with it (web/js/sim-section.js): the words the
// section shows before it is opened are in zh.js; so is the wording of every code both share.
(function () {
  'use strict';
  var L = window.HP_I18N;
  Object.assign(window.HP_I18N_FIELDS, { service: '服务时间分布', link_service: '传输时间分布', link_mode: '链路模式', shared: '共享链路',
    buffers: '缓冲区', reps: '重复次数', seed: '随机种子', service_samples: '实测分位数', service_matrix: '服务时间矩阵' });
  // The codes only the simulator gives, and those it gives with other ranges or counts; any
  // other code is worded by zh.js's L.error. Every number comes from the error or the limits.
  L.errorMore = function (e, limits, got) {
    var B = window.HP.fmt.bound, G = window.HP.fmt.integer;
    var ranges = { service: [0, e.limit], link_service: [0, e.limit], reps: [1, limits.max_reps], seed: [0, limits.max_batches] };
    switch (e.code) {
      case 'no_such_link': return '没有链路 ' + got + '（共 S−1 = ' + G(e.limit) + ' 条链路，从 0 起编号）';
      case 'overlapping_groups': return '链路 ' + got + ' 已在另一个共享组中';
      case 'not_ascending': return '分位数必须递增（输入为 ' + got + '）';
      case 'too_many_sim_cells': return 'M × S × 重复次数 = ' + G(e.value) + ' 个单元，超过上限 ' + G(e.limit);
      case 'out_of_range': return ranges[e.field] ? '必须在 ' + B(ranges[e.field][0]) + ' 到 ' + B(ranges[e.field][1]) + ' 之间（输入为 ' + got + '）' : '';
      case 'wrong_length': return e.field !== 'd' ? '需要 ' + G(e.limit) + ' 个值（输入了 ' + got + ' 个）' : '';
      default: return '';
    }
  };
  Object.assign(L.sim, {
    pipelineNote: '流水线取自上方计算器：τ、d 与 M 按所输入的值。每次运行为每个微批、每个阶段抽取均值为 τ 的服务时间。',
    preset: '实测预设：legalone:8b，node-01/02/03',
    label_service: '服务时间（所有阶段）',
    label_cv: '变异系数（均匀分布：相对幅度）',
    hint_cv: '对数正态与伽马：0 到 4；均匀：0 到 1',
    label_linkService: '传输时间（所有链路）',
    label_linkCv: '传输的变异系数（或幅度）',
    hint_linkCv: '同阶段；确定性时不用',
    label_links: '链路模式',
    links_delay: 'delay（异步）',
    links_block: 'block（发送方被占用）',
    links_serial: 'serial（每次只传一个）',
    label_shared: '共享链路',
    hint_shared: '共用同一介质的链路组，例如 0,1;2,3（链路 0 连接阶段 1 和 2）；留空表示没有',
    label_buffers: '缓冲区',
    hint_buffers: '阶段之间可等待的微批数：一个值用于所有链路，或每条链路一个；inf 表示无界，0 表示经典阻塞',
    label_reps: '重复次数',
    hint_reps: '整条流水线运行的次数，每次重新抽样',
    label_seed: '随机种子',
    hint_seed: '同一种子在此处、命令行和 Python 中给出相同的运行',
    perStage: '逐个阶段选择',
    stage: function (s) { return '阶段 ' + (s + 1); },
    param: '变异系数或幅度',
    kind_deterministic: '确定性（论文的假设）',
    kind_exponential: '指数分布',
    kind_lognormal: '对数正态分布（变异系数）',
    kind_gamma: '伽马分布（变异系数）',
    kind_uniform: '均匀分布（幅度）',
    kind_measured: '实测分位数（预设中的主机）',
    progress: '模拟进度',
    cancel: '取消',
    running: '正在模拟……',
    cancelled: '已取消：所显示的结果不是最新的。',
    pipelineBad: '请先改正上方计算器的输入。',
    headline: function (mean, p99, async, gap) { return '平均完工时间 ' + mean + '，p99 为 ' + p99 + '；公式给出 T_async = ' + async + '（詹森差 ' + gap + '）。'; },
    histLabel: function (reps, async, block, p99) { return reps + ' 次运行的完工时间直方图，标出 T_async = ' + async + '、T_block = ' + block + ' 与 p99 = ' + p99; },
    histNote: '竖线：T_async（实线）与 T_block（虚线），即论文在 τ、d、M 下的闭式解；p99（点线）。',
    axisMakespan: '完工时间',
    axisCount: function (most) { return '柱高：运行次数（最高 ' + most + '）'; },
    interval: function (lo, hi) { return lo + ' 至 ' + hi; },
    stat_mean: '均值',
    stat_sd: '标准差',
    stat_ci95: '均值的 95% 置信区间',
    stat_p50: 'p50',
    stat_p90: 'p90',
    stat_p95: 'p95',
    stat_p99: 'p99',
    stat_min: '最小值',
    stat_max: '最大值',
    stat_deterministic_makespan: '均值时间下的完工时间',
    stat_jensen_gap: '詹森差（均值减去上一项）',
    stat_T_async: 'T_async（闭式解）',
    stat_T_block: 'T_block（闭式解）',
    stat_throughput_mean: '平均吞吐量（每时间单位的微批数）',
    stagesCaption: '各阶段在抽样运行（第 0 次重复）中的时间',
    colStage: '阶段',
    colBusy: '忙碌',
    colStarved: '空等',
    colBlocked: '阻塞',
    ganttHeading: '一次抽样运行',
    ganttTitle: '第 0 次重复：计算、传输与阻塞时间',
    ganttNote: function (shown, M) { return '前 ' + shown + ' 个微批（共 ' + M + ' 个）；斜线：阶段完成服务后被占用（下游无空位，或 block 模式下正在发送）。'; },
    legendBlocked: '阻塞：完成服务后被占用',
    ganttNone: '阶段太多，无法绘制。'
  });
})();
