// Chinese strings of the planner, loaded with it (web/js/tools.js): the words the section
// shows before it is opened are in zh.js.
(function () {
  'use strict';
  Object.assign(window.HP_I18N.plan, {
    custom: '自定义设备……',
    customName: function (i) { return '自定义设备 ' + (i + 1); },
    fact_memory: '显存（GiB）',
    fact_memory_bandwidth: '带宽（GB/s）',
    fact_fp16_flops: 'FP16 算力（FLOP/秒）',
    copy: '复制',
    copied: '已复制。',
    copyFailed: '复制失败，请选中参数后手动复制。',
    // A model of the user's own, read from a .gguf file (planner.js).
    label_gguf: '或者用你自己的模型：.gguf 文件',
    error_gguf: 'GGUF 文件',
    ggufHint: '在本浏览器中读取，只读文件头和张量表，多大的文件都能立即打开。文件不会离开本机。',
    ggufReading: function (file) { return '正在读取 ' + file + '……'; },
    ggufUsing: function (name) { return '正在用文件中的模型 ' + name + ' 规划。'; },
    ggufFacts: function (name, architecture, layers, size) { return name + '：架构 ' + architecture + '，' + layers + ' 层，' + size; },
    ggufExperts: function (count, used) { return '，' + count + ' 个专家（每个 token 用 ' + used + ' 个）'; },
    ggufFrom: function (file) { return '，来自 ' + file + '。'; },
    ggufLink: function (model, quant) { return '页面链接无法携带文件：链接中保留的是目录模型 ' + model + ' ' + quant + '。'; },
    ggufBack: '改用目录中的模型',
    label_bench: '用 llama-bench 校准：它的 -o json 或 -o jsonl 输出文件',
    benchHint: '在本浏览器中读取，文件不会离开本机。每条记录校准其 GPU 的速度，使对该记录自身模型的估算等于它的 avg_ts。',
    benchFile: function (file) { return '正在用 ' + file + ' 校准。'; },
    benchFailed: function (file) { return '未用 ' + file + ' 校准：错误见下方。'; },
    benchLink: '页面链接无法携带文件：重新加载后请再次选择。',
    benchCalibrated: function (device, name, record, factor) {
      return '设备 ' + (device + 1) + '（' + name + '）：由第 ' + (record + 1) + ' 条记录校准，速度为估算的 ' + factor + ' 倍。';
    },
    benchUnused: function (record, reason) {
      var why = { other_phase: '它的测试不属于所规划的阶段（tg：解码，pp：预填充）',
        no_device: '它的 gpu_info 或 device 没有指向这里的任何设备', measured: '它指向的每台设备都有自己的实测速度',
        nearer_record: '它指向的每台设备都采用了模型大小更接近所规划模型的记录' }[reason] || reason;
      return '第 ' + (record + 1) + ' 条记录未使用：' + why + '。';
    },
    benchNone: '文件中没有记录。',
    benchAgain: function (file) { return '此链接规划时用了 ' + file + '，但链接无法携带文件：下面的规划未经校准。请再次选择该文件。'; },
    benchRemove: '移除 llama-bench 文件',
    error_bench: 'llama-bench 文件',
    // A device's or a link's choice, named in its error before the position.
    error_devices: '显卡',
    error_links: '链路类型',
    label_model: '模型',
    label_quant: '量化',
    label_context: '上下文长度（token）',
    label_phase: '阶段',
    label_tokens: '每个微批次的 token 数',
    label_M: '微批次数 M',
    label_objective: '优化目标',
    label_allow_idle_devices: '允许空闲设备（设备可以不分层）',
    phase_decode: '解码（decode）',
    phase_prefill: '预填充（prefill）',
    objective_async: '最小 T_async',
    objective_blocking: '最小 T_block',
    objective_throughput: '最小瓶颈 τ_max',
    devicesHeading: '设备（按流水线顺序）',
    device: function (i) { return '设备 ' + (i + 1); },
    link: function (i) { return '链路 ' + (i + 1) + '→' + (i + 2); },
    remove: '移除',
    add: '添加设备',
    use: '在计算器中使用此流水线',
    used: function (S, M, unit) { return '计算器已载入此流水线：' + S + ' 个阶段，M = ' + M + '，时间单位为 ' + unit + '。'; },
    barsLabel: '规划的切分：每台设备的层与显存占用',
    stageTitle: function (device, first, last, count) { return '设备 ' + (device + 1) + '：第 ' + first + '–' + last + ' 层（共 ' + count + ' 层）'; },
    memoryTitle: function (used, capacity) { return '显存 ' + used + ' / ' + capacity; },
    layersAxis: function (L) { return '共 ' + L + ' 层'; },
    gib: 'GiB',
    colDevice: '设备',
    colLayers: '层',
    colCount: '层数',
    colTau: 'τ（秒）',
    colMemory: '显存占用 / 容量',
    colSplit: '切分',
    colTokens: function (M) { return 'token/秒（M = ' + M + '）'; },
    colObjective: 'M 时的目标值（秒）',
    colLoss: '相对最优的损失',
    optimal: '最优（heteropipe）',
    baseline_even: '均分层数',
    baseline_memory_proportional: '按显存比例（llama.cpp 默认、exo）',
    infeasible: '显存放不下',
    idle_device: '有设备闲置',
    flagsHeading: '运行参数',
    flagsNote: 'MODEL 代表你的模型。llama.cpp 的 -ts 中最后一个数多 1：llama.cpp 把输出层作为单独的一层放在最后一块设备上。模型若有多 token 预测层，还要再加上它们的层数：llama.cpp 计入这些层，但既不加载也不运行。',
    whatIfHeading: '假如',
    without: function (i, name) { return '去掉设备 ' + (i + 1) + '（' + name + '）'; },
    withAnother: function (name) { return '在末尾再加一块 ' + name; },
    typically: function (lo, hi) { return '通常 ' + lo + '–' + hi; },
    speed: function (tps, band) { return tps + ' token/秒' + (band ? '（' + this.typically(band[0], band[1]) + '）' : ''); },
    speedCell: function (tps, band) { return tps + (band ? '（' + this.typically(band[0], band[1]) + '）' : ''); },
    whatIfSpeed: function (speed, change) { return speed + '，' + change + ' token/秒'; },
    whatIfInfeasible: '没有能放进显存的切分',
    whatIfNoLayer: '会有设备分不到层（模型的层数少于设备数）',
    leadSpare: function (i, name, layers, speed) {
      return '设备 ' + (i + 1) + '（' + name + '）只承担 ' + layers + ' 层；去掉它不会损失速度：' + speed + '。';
    },
    leadBeats: function (speed, loss, which) {
      return '此切分的速度为 ' + speed + '；' + (which === 'even' ? '均分层数' : 'llama.cpp 的默认切分') + '要多花 ' + loss + '% 的时间。';
    },
    leadSpeed: function (speed) { return '此切分的速度为 ' + speed + '。'; },
    memoryWarning: function (i, name, percent) {
      return '设备 ' + (i + 1) + '（' + name + '）的显存已用 ' + percent + '%：运行时只要比估算多需一点显存，就无法加载此切分。';
    },
    headline: function (tps, band, loss, which, objective) {
      var formula = objective === 'throughput' ? 'token 数 / τ_max，稳态' : 'token 数 × M / T(M)';
      var speed = '最优切分：' + tps + ' token/秒（' + formula + (band ? '；' + this.typically(band[0], band[1]) : '') + '）。';
      if (which === 'memory_proportional') return speed + '按显存比例的默认切分损失 ' + loss + '%。';
      if (which === 'even') return speed + '按显存比例的默认切分违反规划的约束；均分层数损失 ' + loss + '%。';
      return speed + '两种默认切分都违反规划的约束。';
    }
  });
})();
