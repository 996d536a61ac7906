// 计算器页面的中文文本。界面上的每一段文字都在这里。
(function () {
  'use strict';
  var FIELD = { tau: 'τ', d: 'd', M: 'M', rho: 'ρ', T_real: 'T_real', points: '点数' };
  // The unit a field's bound is in, where the value may be typed in another (24 GiB).
  var BOUND_UNIT = { memory: ' 字节', memory_capacity: ' 字节', memory_bandwidth: ' 字节/秒', bandwidth: ' 字节/秒', fp16_flops: ' FLOP/s' };
  window.HP_I18N = {
    lang: 'zh-CN',
    locale: 'zh-CN',
    otherPage: 'calculator.html',
    otherLang: 'en',
    otherLanguage: 'English',
    otherLanguageName: '英文',
    text: {
      title: '异构流水线完工时间计算器 · heteropipe',
      heading: '异构流水线完工时间计算器',
      subtitle: '精确完工时间、GPipe 同构偏差、通信相变与异步—阻塞夹逼区间，由 heteropipe 核心（WebAssembly）随输入实时计算。',
      paper: '依据朱文博（ZHU Wenbo）论文《异构大模型推理流水线的精确完工时间界与 GPipe 同构偏差》（2026）。',
      navLabel: '本页各部分',
      navCalculator: '计算器',
      navPlan: '规划层切分',
      navMeasuredRun: '实测运行',
      navSimulate: '模拟器',
      skipToResults: '跳到结果',
      inputsHeading: '输入',
      label_tau: '阶段服务时间 τ（S 个值）',
      hint_tau: '用逗号、顿号或空格分隔，例如 0.5，1，1，5；也可以输入全角数字，如 １.１３',
      label_d: '链路延迟 d（S−1 个值，可留空）',
      hint_d: '留空表示没有通信开销',
      label_M: '微批数 M',
      hint_M: function (limits, bound) { return bound(limits.min_batches) + ' 到 ' + bound(limits.max_batches) + ' 之间的整数'; },
      label_rho: '重叠率 ρ（0 到 1，可留空）',
      hint_rho: '1 为完全异步，0 为完全阻塞；留空即为 1',
      label_T_real: '实测完工时间 T_real（可留空）',
      hint_T_real: '与 τ 同一时间单位；把一次实际运行放进夹逼区间',
      label_unit: '时间单位',
      unitNone: '无',
      unitOpen: '（',
      unitClose: '）',
      presetsNote: '预设会设置所有字段：τ、d、单位、M = 8、ρ = 1，并清空 T_real。',
      presetsHeading: '预设',
      presetLoaded: function (name) { return '各字段已载入预设“' + name + '”。'; },
      undoFill: '撤销',
      fillUndone: '各字段已恢复为之前的内容。',
      dataAttribution: '实测预设：取自 real_vs_formula.csv 中各主机的 dur_min（模拟器另用 dur_p5、dur_p50、dur_p95；某生产环境大模型网关的 8571 个请求），发布者朱文博（烟台文化旅游职业学院），许可协议 CC BY 4.0。',
      resultsHeading: '结果',
      resultsInvalid: '请先修正标出的输入，之后才会显示结果。',
      notCurrent: '非当前结果',
      detailsHeading: '全部结果',
      sum_T_async: 'T_async，异步',
      sum_T_block: 'T_block，阻塞',
      sum_gpipe: 'GPipe 误差',
      sum_bottleneck: '瓶颈',
      sum_phase: '通信相变',
      gpipeNote: '（相对 T_async 的高估）',
      bottleneckBlocking: function (b) { return '（阻塞时：' + b + '）'; },
      phaseYes: '已越过相变：某条链路的延迟超过其松弛量，阻塞发送会进入斜率。',
      phaseNo: '未发生相变：每条链路的延迟都在其松弛量之内。',
      colon: '：',
      sentenceSeparator: '。',
      group_makespan: '完工时间',
      group_bias: '偏差、相变与夹逼',
      group_throughput: '吞吐与交叉点',
      group_pipeline: '流水线',
      group_links: '逐阶段与逐链路',
      group_real: '实测运行（T_real）',
      group_other: '其他',
      yes: '是',
      no: '否',
      stage: function (i) { return '第 ' + (i + 1) + ' 阶段'; },
      moreItems: function (n) { return '……（共 ' + n + ' 项）'; },
      summarized: function (n) { return '（共 ' + n + ' 项；JSON 导出包含全部数值）'; },
      none: '无',
      listSeparator: '，',
      figuresHeading: '图示',
      fig_curve: '完工时间随 M 的变化',
      fig_curve_caption: '四种完工时间；T_async 与 T_block 之间的色带即夹逼区间。虚线：交叉点 M*、当前 M 与 ρ 下的完工时间。',
      fig_over: 'GPipe 高估比例随 M 的变化',
      fig_over_caption: 'GPipe 公式相对 T_async 的高估比例：恒定偏差随 M 摊薄。',
      fig_gantt: '调度时间线',
      fig_gantt_caption: '调度引擎算出的精确调度，按比例绘制：每行一个阶段，每个色块一个微批，传输画在发送阶段下方的通道中。悬停或聚焦色块（方向键移动）可读出数值。',
      fig_slack: '逐链路松弛量',
      fig_slack_caption: '每条链路的松弛量 τ_max − τ[s]（条形）与延迟 d[s]（刻线）：延迟超过松弛量即越过相变。',
      regime_async: '异步',
      regime_blocking: '阻塞',
      regimeLabel: '通信方式',
      zoomLabel: '沿时间轴缩放',
      zoomIn: '放大',
      zoomOut: '缩小',
      panLeft: '向前',
      panRight: '向后',
      resetZoom: '重置缩放',
      logM: 'M 轴取对数',
      noHeadroomNote: 'T_async = T_block：没有通信余量（T_block 以虚线画在 T_async 之上）。',
      freeIsAsync: 'T_free = T_async：没有链路延迟（T_free 是下方较宽的线）。',
      ganttHead: function (regime) { return '调度时间线（' + regime + '传输）'; },
      barTitle: function (stage, m, start, end, dur) { return stage + '，第 ' + m + ' 个微批：' + start + ' 至 ' + end + '（' + dur + '）'; },
      ganttFirst: function (shown, M) { return '仅显示 ' + M + ' 个微批中的前 ' + shown + ' 个。'; },
      ganttAll: function (M) { return '已显示全部 ' + M + ' 个微批。'; },
      ganttTooMany: function (S, max) { return 'S = ' + S + ' 个阶段太多，无法绘制（最多 ' + max + ' 个）。'; },
      slackNone: '只有一个阶段，没有链路。',
      slackTooMany: function (n, max) { return n + ' 条链路太多，无法绘制（最多 ' + max + ' 条）。'; },
      bottleneckMark: '瓶颈',
      pastTransition: '已越过相变',
      stageRow: function (i) { return '第 ' + (i + 1) + ' 阶段'; },
      linkRow: function (i) { return (i + 1) + '→' + (i + 2); },
      axisM: '微批数 M',
      axisTime: '时间',
      axisPercent: '高估比例（%）',
      markCrossover: 'M*',
      markCurrent: 'M',
      markReal: 'T_real',
      markRho: function (rho) { return 'T(ρ = ' + rho + ')'; },
      seriesOver: 'GPipe 高估',
      legendSlack: '松弛量 τ_max − τ[s]',
      legendD: '延迟 d[s]',
      legendCompute: '计算',
      legendTransfer: '链路传输',
      legendBlocked: '阻塞：等待发送完成',
      busyShare: '忙碌',
      legendIdle: '空闲',
      shareHeading: '分享与导出',
      copyLink: '复制链接',
      copied: '链接已复制。',
      copyFailed: '复制失败；链接就在地址栏中。',
      linkTooLong: function (limit) { return '输入过长，放不进链接（超过 ' + limit + ' 个字符）：地址栏保留最后一次放得下的输入。'; },
      exportJson: '分析结果（JSON）',
      exportCsv: '完工时间曲线（CSV）',
      exportScheduleCsv: '调度表（CSV）',
      exportDisabled: '修正输入后才能导出。',
      exportPng: 'PNG',
      exportSvg: 'SVG',
      embedHeading: '嵌入',
      embedHelp: '把下面的代码粘贴到同一站点的网页中，即可嵌入带当前输入的精简计算器：',
      openFull: '打开完整计算器',
      footnoteHeading: '公式',
      footnote: [
        'T_free = (M−1)·τ_max + Στ（定理 1）；T_async = Στ + Σd + (M−1)·τ_max（定理 2）；T_block = (M−1)·σ_max + Σσ，其中 σ_s = τ_s + d_s，σ_{S−1} = τ_{S−1}（定理 3）；T_gpipe = (S+M−1)·τ_max。',
        '同构偏差 T_gpipe − T_free = Σ(τ_max − τ_j)，与 M 无关（推论 1）；全偏差 = Σ(τ_max − τ_j) − Σd（推论 3）；相变条件：存在 d_s > τ_max − τ_s（推论 4）；夹逼 T_async ≤ T_real ≤ T_block，重叠间隙 T_block − T_async = (M−1)(σ_max − τ_max)（推论 5）。',
        '有效斜率 τ_max + (1−ρ)(σ_max − τ_max)；渐近吞吐 1/τ_max（异步）与 1/σ_max（阻塞）；交叉点 M* = 1 + (Στ + Σd)/τ_max；GPipe 高估比例 (T_gpipe − T_async)/T_async；重叠率 ρ = (T_block − T_real)/(T_block − T_async)。',
        '时间单位任意，只要 τ、d 与 T_real 一致。吞吐单位为每单位时间的微批数。'
      ],
      version: function (v) { return 'heteropipe 核心 ' + v + '（WebAssembly）'; },
      loadFailed: '计算模块加载失败。',
      languageSwitch: '语言'
    },
    presets: [
      { id: 'illustrative', label: '示例：5090/3090/3090/1070（§3.1）' },
      { id: 'legalone-paper', label: 'legalone:8b，三代显卡（§7.2）' },
      { id: 'comm', label: '带通信的 4 阶段' },
      { id: 'phase', label: '相变（附录 B 第 8 组）' },
      { id: 'legalone-measured', label: 'legalone:8b 实测，node-01/02/03' },
      { id: 'qwen-measured', label: 'qwen2.5:7b 实测，五台主机' }
    ],
    results: {
      S: '阶段数 S',
      M: '微批数 M',
      rho: '重叠率 ρ',
      tau_max: '瓶颈时间 τ_max',
      sigma_max: '阻塞瓶颈 σ_max',
      bottleneck_stage: '瓶颈阶段（异步）',
      blocking_bottleneck_stage: '瓶颈阶段（阻塞）',
      T_free: 'T_free，无通信（定理 1）',
      T_async: 'T_async，异步（定理 2）',
      T_block: 'T_block，阻塞（定理 3）',
      T_gpipe: 'T_gpipe，经典同构 GPipe 公式',
      homogeneity_bias: '同构偏差 Σ(τ_max − τ_j)，与 M 无关（推论 1）',
      full_bias: '全偏差 Σ(τ_max − τ_j) − Σd（推论 3）',
      phase_transition: '通信相变：存在 d_s > τ_max − τ_s（推论 4）',
      overlap_gap: '重叠间隙 T_block − T_async（推论 5）',
      effective_slope: '当前 ρ 下的有效斜率',
      T_rho: '当前 ρ 下预测的完工时间',
      gpipe_overestimate: '当前 M 下 GPipe 对 T_async 的高估比例',
      overlap_headroom: '存在重叠空间（T_block > T_async）',
      asymptotic_throughput_async: '渐近吞吐，异步 1/τ_max',
      asymptotic_throughput_blocking: '渐近吞吐，阻塞 1/σ_max',
      crossover_batches: '填充→稳态交叉点 M*',
      tau: '阶段服务时间 τ',
      d: '链路延迟 d',
      sigma: '阻塞阶段时间 σ',
      link_slack: '链路松弛量 τ_max − τ[s]',
      link_margin: '链路余量 松弛量 − d[s]（< 0 即越过相变）',
      T_real: '实测完工时间 T_real',
      overlap_ratio: '实测重叠率 ρ̂',
      T_real_position: '在夹逼区间中的位置'
    },
    position: {
      below_async: '低于 T_async',
      inside: '位于夹逼区间内',
      above_block: '高于 T_block'
    },
    reconcile: {
      below_async: 'T_real 低于 T_async，比模型允许的还快：输入高估了阶段时间（或链路延迟）。',
      inside: 'T_real 位于夹逼区间 T_async ≤ T_real ≤ T_block 之内，与模型一致。',
      above_block: 'T_real 高于 T_block，比完全阻塞通信还慢：这次运行违背了模型的前提，例如有界缓冲（反压）或资源争用。',
      ratio: function (r) { return '实测重叠率 ρ̂ = (T_block − T_real)/(T_block − T_async) = ' + r + '（1 为完全异步，0 为完全阻塞）。'; },
      outside: function (r) { return '实测重叠率 ρ̂ = ' + r + '，超出 [0, 1]：已在模型之外，不能视为重叠率。'; },
      noHeadroom: '没有重叠空间：此处 T_block 等于 T_async，重叠率无定义，故不显示。'
    },
    sectionLoading: '正在加载……',
    sectionFailed: '此部分加载失败。',
    plan: {
      heading: '规划层切分',
      intro: '从模型、量化方式和一组显卡，求出使完工时间最短的精确层切分，并与各推理框架默认的切分对比，附上运行参数。规划器按需加载。',
      open: '打开规划器'
    },
    sim: {
      heading: '随机波动与缓冲区',
      intro: '随机服务时间、有界缓冲区与共享链路的精确模拟：完工时间的分布与闭式解并列。',
      open: '打开模拟器'
    },
    trace: {
      heading: '实测运行',
      intro: '拖入性能分析器的追踪文件（Kineto 的 JSON、.json.gz 或调度 CSV），求出 τ、d、M 和 T_real。文件不会离开本机。',
      choose: '追踪文件'
    },
    // The core's error codes in Chinese (the tools' own codes and fields: i18n/tools-zh.js, loaded
    // with the section that needs them). Every number comes from the error (its value, the text as
    // typed, the limit it broke) or from the module's limits, never typed here. `label`: the field's
    // words on the section's form, named in place of the field's own.
    error: function (e, limits, label) {
      var B = window.HP_I18N.fmt.bound, G = window.HP_I18N.fmt.integer, N = window.HP_I18N.fmt.number;
      var got = e.token ? e.token : window.HP_I18N.fmt.raw(e.value);
      var tools = window.HP_I18N.tools || {};
      // A tool may say the place itself (a GGUF file's byte); else the item's number.
      var at = tools.position ? tools.position(e) : null;
      if (!at) at = e.index !== null && e.index >= 0 ? '，第 ' + (e.index + 1) + ' 项' : '';
      var where = (label || FIELD[e.field] || (tools.fields || {})[e.field] || e.field) + at + '：';
      var ranges = { M: [limits.min_batches, limits.max_batches], rho: [limits.min_rho, limits.max_rho],
        points: [limits.min_curve_points, limits.max_curve_points] };
      var range = ranges[e.field] || ranges.M;
      // A typed number other than 0 below the smallest normal double, in any field.
      if (e.code === 'too_small' && e.limit === limits.min_normal_number) {
        // A calibration record's error is its avg_ts's.
        return where + (e.field === 'calibration' && e.index !== null && e.index >= 0 ? 'avg_ts ' : '') + '太小，无法读取（输入为 ' + got + '）：非 0 的数绝对值至少为 ' + B(e.limit);
      }
      var what = tools.error && tools.error(e, limits, got);
      if (what) return where + what;
      switch (e.code) {
        case 'empty': what = (e.field === 'tau' || e.field === 'd') ? '至少需要一个值' : '不能为空'; break;
        case 'too_many': what = '最多 ' + B(e.limit) + ' 个值'; break;
        case 'not_finite': what = '必须是有限数（输入为 ' + got + '）'; break;
        case 'negative': what = '必须 ≥ 0（输入为 ' + got + '）'; break;
        case 'all_zero': what = '至少要有一个阶段时间 > 0'; break;
        case 'too_small': what = '最大的阶段时间至少为 ' + B(e.limit) + '（输入为 ' + got + '）'; break;
        case 'too_large': what = '最大为 ' + B(e.limit) + (BOUND_UNIT[e.field] || '') + '（输入为 ' + got + '）'; break;
        case 'wrong_length': what = '需要 S−1 = ' + G(e.limit) + ' 个链路延迟（每条链路一个），或者留空（输入了 ' + got + ' 个）'; break;
        case 'not_integer': what = '必须是整数（输入为 ' + got + '）'; break;
        case 'out_of_range': what = '必须在 ' + B(range[0]) + ' 到 ' + B(range[1]) + ' 之间（输入为 ' + got + '）'; break;
        case 'not_positive': what = '必须 > 0（输入为 ' + got + '）'; break;
        case 'empty_item': what = '分隔符之间缺少数值'; break;
        case 'not_a_number': what = '“' + e.token + '”不是数字'; break;
        case 'ambiguous_comma': what = '“' + e.token + '”有歧义：数字之间的英文逗号可能是小数点或千位分隔符，而不是分隔符；请用小数点写数、不要分组（0.5、1000），并用逗号加空格分隔各项'; break;
        case 'has_unit': what = '“' + e.token + '”带有单位：请只输入数字，所有时间使用同一单位'; break;
        case 'no_overlap_headroom': what = '没有重叠空间：T_block 等于 T_async，重叠率无定义'; break;
        case 'too_many_cells': what = 'M × S = ' + G(e.value) + ' 个单元，超过上限 ' + G(e.limit); break;
        case 'too_much_work': what = 'M × S + ' + G(limits.stream_diagonal_cost) + ' (M + S − 1) = ' + G(e.value) + ' 步递推，超过上限 ' + G(e.limit); break;
        case 'too_long': what = '文本最多 ' + G(e.limit) + ' 字节（输入了 ' + G(e.value) + ' 字节）'; break;
        case 'out_of_memory': what = '内存不足，无法处理此请求'; break;
        case 'wrong_type': what = '值的类型不对（输入为 ' + got + '）'; break;
        default: what = '输入无效（' + e.code + '）';
      }
      return where + what;
    }
  };
})();
