// Chinese strings of the "Measured run" section, loaded with it (web/js/sections.js): the words
// it shows before a file is dropped are in zh.js. The core's trace errors, reasons and warnings are
// worded here from their codes; every number comes from the error or the module's limits.
(function () {
  'use strict';
  var R = window.HP_I18N.trace;
  var G = function (x) { return window.HP_I18N.fmt.integer(x); };
  var V = function (x) { return window.HP_I18N.fmt.raw(x); };
  var CSV = { stage: 1, microbatch: 1, kind: 1, start: 1, end: 1 };
  var OPTION = { stat: '统计量', unit: '单位', stage_order: '阶段顺序', compute_regex: '计算 kernel 正则',
    transfer_regex: '传输 kernel 正则', microbatch_regex: '微批次正则', clock_offsets: '时钟偏移',
    profiler_step: '分析步' };

  // What is wrong, by the core's code (docs/traces.md#errors).
  function what(e, limits) {
    var f = e.field;
    // A file's key is named in the sentence; an option (clock_offsets) is named before it, in Chinese.
    var key = OPTION[f] ? '' : f + ' ';
    switch (e.code) {
      case 'empty': return '文件为空';
      case 'too_long': return '文本有 ' + G(e.value) + ' 字节，超过上限 ' + G(e.limit) + ' 字节';
      case 'not_json': return e.limit > 0 ? '不是有效的 JSON：文本在 JSON 中途结束，文件被截断了（某个 rank 崩溃，或追踪仍在写入）' : '不是有效的 JSON';
      case 'not_a_trace': return '既不是 trace JSON，也不是调度 CSV（stage,microbatch,kind,start,end）';
      case 'bad_gzip':
        if (e.value === 1) return '文件是 gzip 压缩的；此读取器只读文本，需先解压';
        return e.value === 2 ? 'gzip 数据结束后还有不是 gzip 数据的字节' : 'gzip 数据已损坏或不完整';
      case 'missing_field':
        if (CSV[f] && e.index === 0) return '第一行必须是 stage,microbatch,kind,start,end';
        return f === 'traceEvents' ? '对象中没有 traceEvents 列表' : '事件缺少 ' + f;
      case 'wrong_type': {
        // typed: the file's value as typed (its JSON text), where token is the file's label.
        var got = e.typed ? '（输入为 ' + e.typed + '）' : '';
        if (f === 'traceEvents') return 'traceEvents 必须是事件对象的列表' + got;
        return f === 'trace' ? '不能混合 ' + e.token : f + ' 的值类型不对' + got;
      }
      case 'not_finite': return key + '必须是有限数' + (e.token ? '（输入为 ' + e.token + '）' : '');
      case 'negative': return f + ' 必须 ≥ 0（输入为 ' + V(e.value) + '）';
      case 'too_large':
        if (f === 'trace' && e.limit === 0) return '嵌套超过 ' + G(limits.max_trace_depth) + ' 层';
        if (f === 'trace') return '解压后超过 ' + G(e.limit) + ' 字节';
        if (e.typed) return key + '最大为 ' + window.HP_I18N.fmt.bound(e.limit) + '（输入为 ' + e.typed + '）';
        // An option's token is the text typed (profiler_step 1e400), whose value no double holds.
        if (OPTION[f] && e.token) return key + '最大为 ' + window.HP_I18N.fmt.bound(e.limit) + '（输入为 ' + e.token + '）';
        return key + '最大为 ' + window.HP_I18N.fmt.bound(e.limit) + (e.value ? '（输入为 ' + V(e.value) + '）' : '');
      case 'too_small':
        return key + '必须为 0 或至少 ' + window.HP_I18N.fmt.bound(e.limit) + '（输入为 ' + (e.typed || V(e.value)) +
          '）：更小的时间在时间单位换算时会丢失';
      case 'too_many': return '超过 ' + G(e.limit) + ' 个计时事件';
      // A whole number the file gives is quoted as typed (typed), exactly past 2^53.
      case 'not_integer': return f + ' 必须是整数（输入为 ' + (e.typed || V(e.value)) + '）';
      // The profiler step typed (its token) past its range, from 0 as the core words it; it said "（输入为 0）".
      case 'out_of_range':
        if (f === 'profiler_step' && e.token) return '必须在 0 到 ' + window.HP_I18N.fmt.bound(limits.max_batches) + ' 之间（输入为 ' + e.token + '）';
        return f + ' 超出范围（输入为 ' + (e.typed || V(e.value)) + '）';
      case 'unmatched_begin': return 'B 事件在同一 pid 和 tid 上没有对应的 E';
      case 'unmatched_end': return 'E 事件在同一 pid 和 tid 上没有未结束的 B';
      case 'end_before_start': return 'end 早于 start';
      // An option's token is the text typed (a file's is its label, named before the sentence).
      case 'not_a_number': return key + (OPTION[f] && e.token ? '“' + e.token + '”' : '') + '不是数字';
      case 'unknown_name':
        if (f === 'kind') return 'kind 必须是 compute 或 transfer';
        return '不是可选的名称（输入为 ' + e.token + '）';
      case 'wrong_length':
        if (f === 'clock_offsets') return '需要 S = ' + G(e.limit) + ' 个偏移（每个阶段一个），或者留空（输入了 ' + G(e.value) + ' 个）';
        return '每行需要 5 个值：stage,microbatch,kind,start,end';
      case 'utf16_text': return '文本是 UTF-16 编码（以 UTF-16 字节顺序标记开头）；请另存为 UTF-8，所有读取器都读 UTF-8';
      case 'utf32_text': return '文本是 UTF-32 编码（以 UTF-32 字节顺序标记开头）；请另存为 UTF-8，所有读取器都读 UTF-8';
      case 'duplicate_rank': return 'rank ' + V(e.value) + ' 已在另一个文件中';
      case 'bad_pattern':  // value: what is wrong at the character e.index (docs/traces.md#patterns)
        if (e.value === 1) return '“' + e.token + '”含有前瞻或后顾断言，模式不支持';
        if (e.value === 2) return '“' + e.token + '”含有反向引用，模式不支持';
        if (e.value === 4) return '“' + e.token + '”匹配该追踪的事件名称用了超过 ' + G(e.limit) + ' 步（请用 ^ 锚定，或以固定字母开头）';
        if (e.value === 3) return '“' + e.token + '”需要超过 ' + G(e.limit) + ' 个状态（每个计数重复都会复制它所重复的部分）';
        return '“' + e.token + '”不是有效的正则表达式';
      case 'unknown_id':
        if (f === 'profiler_step') {
          return e.index === null || e.index === undefined ? '这些文件中没有分析步，因此没有 ProfilerStep#' + V(e.value)
            : '第 ' + (e.index + 1) + ' 个文件中没有 ProfilerStep#' + V(e.value) + '（这些文件的最后一步是 ProfilerStep#' + V(e.limit) + '）';
        }
        return '输入无效（' + e.code + '）';
      case 'not_a_permutation': return '只能列出运行了 kernel 的 rank，且不得重复（rank ' + (e.token ? e.token : V(e.value)) + ' 不对）';
      case 'out_of_memory': return '内存不足，无法处理此请求';
      default: return '输入无效（' + e.code + '）';
    }
  }

  // 不是流水线的原因，按代码。
  var REASONS = {
    one_rank: '找到的 rank 不到两个，没有阶段链',
    collectives_only: '各 rank 之间只有集合通信；流水线需要相邻阶段之间的发送/接收',
    no_transfers: '各 rank 之间没有发现任何发送或接收',
    unpaired_link: '某对相邻阶段之间没有能配对的发送和接收；每个 rank 须是一个阶段，且顺序正确（未标明 rank 的文件各算一个 rank）：不是阶段的 rank（只广播输入或汇总结果的驱动进程），可在阶段顺序中只列出各阶段，把它排除在外',
    no_microbatches: '某个阶段的计算不属于任何微批次',
    model_rejected: '还原出的时间不构成有效模型（没有一个阶段时间达到模型所需的最小值，或 T_real 不大于 0）',
    stages_out_of_order: '第一个阶段只接收不发送，最后一个阶段只发送不接收，或各链路的消息对在此顺序下对时钟的约束相互矛盾、而换一种中间阶段的顺序则彼此相容：阶段顺序与消息流向不符；请按 rank 顺序给出文件，或设置阶段顺序',
    two_way_traffic: '消息双向流动，如同训练时激活值前传、梯度回传（追踪中有 autograd 的反向算子，或某个中间阶段收发的消息约为阶段 0 发送数的两倍，或消息所标明的对端指向前一阶段）；模型只描述单向的一遍：请给出其中一遍区间（前向或反向）的微批次模式以导入这一遍（每个区间认领自己的输入与输出，GPipe 或 1F1B 顺序皆可），或导入只含一遍的运行',
    stage_cut_short: '某个阶段缺少本次运行的第一个或最后一个微批次（见 microbatch_counts_differ）：它的追踪提前结束（阶段崩溃，或分析窗口更早结束）或开始得晚；请导入每个阶段都覆盖的窗口',
    no_microbatch_ranges: '某个阶段没有事件名称匹配微批次模式；请写一个与每个阶段的区间名称都匹配（而非只匹配某一阶段的名称）、且第一个分组为微批次编号的模式（区间名为 mb0、mb1……时用 \'^mb([0-9]+)$\'；mb:0、mb:1……用 \'^mb:([0-9]+)$\'；stage0_mb3、stage1_mb3……用 \'_mb([0-9]+)$\'），或不写模式，按传输划分微批次'
  };
  Object.assign(R, {
    progressLabel: '正在读取追踪文件',
    cancel: '取消',
    cancelled: '已取消。',
    reading: function (n) { return '正在读取 ' + n + ' 个文件……'; },
    importing: '正在还原流水线……',
    failed: '导入失败。',
    optionsHeading: '导入选项',
    label_stat: 'τ 和 d 取各阶段的',
    stat_min: '最小值（论文的下界估计）',
    stat_p50: '中位数',
    stat_mean: '平均值',
    label_stage_order: '阶段顺序（rank）',
    label_compute: '计算 kernel（正则）',
    label_transfer: '传输 kernel（正则）',
    label_microbatch: '微批次区间（正则）',
    label_profiler_step: '分析步（ProfilerStep#N 的 N）',
    hint_stage_order: '例如 2,1,0',
    hint_compute: '默认：除 nccl* 外的 kernel；没有 kernel 时为主机端算子',
    hint_transfer: '默认：Send、Recv、SendRecv kernel；gloo/c10d 的 send、recv',
    hint_microbatch: '例如 microbatch_(\\d+)',
    hint_profiler_step: '默认：第一个；例如 2',
    again: '重新导入',
    // A file's error names the file and the byte (or the CSV line); an option's names the option
    // (and a pattern's, the character at fault).
    error: function (e, limits, label) {
      // A pattern's character at fault; a clock offset's stage (a profiler step's file is in its sentence).
      var at = e.index === null || e.index === undefined || e.field === 'profiler_step' ? ''
        : '，第 ' + (e.index + 1) + (e.field === 'clock_offsets' ? ' 个阶段' : ' 个字符');
      var where = OPTION[e.field] ? (label || OPTION[e.field]) + at + '：'
        : '文件“' + e.token + '”' + (e.index === null || e.index === undefined ? '' : CSV[e.field] ? '，第 ' + (e.index + 1) + ' 行' : '，第 ' + e.index + ' 字节') + '：';
      return where + what(e, limits);
    },
    filesRead: function (names, unit, stat) { return '已读取：' + names + '。时间单位为 ' + unit + '；τ 和 d 取各阶段的' + stat + '。'; },
    headline: function (S, M, T, position) { return '流水线共 ' + S + ' 个阶段、' + M + ' 个微批次：T_real = ' + T + '，' + position + '。'; },
    position: {
      below_async: '低于 T_async，比异步下界还快',
      inside: '位于夹逼区间 T_async ≤ T_real ≤ T_block 之内',
      above_block: '高于 T_block，比阻塞发送所能解释的还慢'
    },
    notPipeline: function (why) { return '不是流水线：' + why + '。'; },
    // no_microbatch_ranges 附上被漏掉的阶段最常见的区间名称（range_names），便于写出模式。
    reason: function (r) {
      var why = REASONS[r.reason] || r.reason;
      if (!r.range_names || !r.range_names.length) return why;
      return why + '；这些阶段最常见的区间名称（括号内为同一形式、仅数字不同的区间个数）：' +
        r.range_names.map(function (n) { return '\'' + n.name + '\'（' + n.count + '）'; }).join('、');
    },
    overlap: '重叠率',
    noHeadroom: 'T_block = T_async',
    outsideModel: '超出 [0, 1]：该运行已在模型之外，不能视为重叠率',
    replay: '重放 异步 / 阻塞',
    overlapReplay: '重叠率（重放）',
    explainHeading: 'T_real 由哪些部分构成',
    cause: { model: '模型', variability: '波动', blocking: '阻塞', other: '其他' },
    // 「T_real 1,942 ms ＝ 模型 1,808 ＋ 波动 58 ＋ 阻塞 0 ＋ 其他 76 ms」
    explainSentence: function (T, unit, parts) {
      return 'T_real ' + T + ' ' + unit + ' ＝ ' + parts.map(function (p) { return p[0] + ' ' + p[1]; }).join(' ＋ ') + ' ' + unit;
    },
    offsets: '时钟偏移',
    bottleneck: '瓶颈阶段',
    use: '把 τ、d、M 和 T_real 填入计算器',
    filled: '计算器已填入本次运行的 τ、d、M 和 T_real。',
    ganttHeading: '实测调度与精确调度',
    exactRegime: '精确调度采用',
    measuredHead: '实测调度（时钟已对齐）',
    exactHead: function (regime) { return '精确调度（' + regime + '传输）'; },
    firstShown: function (shown, M) { return '只画出 ' + M + ' 个微批次中的前 ' + shown + ' 个。'; },
    stagesHeading: '各阶段：每个微批次的计算跨度',
    stageCols: ['阶段', 'rank', '微批次数', 'τ', '最小', 'p50', '平均', 'p95', '最大', '忙碌最小', '忙碌最大'],
    linksHeading: '各链路：每对配对传输（时钟已对齐）',
    linkCols: ['链路', 'rank', '配对数', 'd', '最小', 'p50', '平均', 'p95', '最大', '未配对'],
    ranksHeading: '各 rank',
    rankCols: ['rank', '阶段', 'kernel 数', '计算', '传输', '集合通信', '流数', '计算时间', '通信时间'],
    warningsHeading: '警告',
    warning: function (w) {
      switch (w.code) {
        case 'rank_without_transfers': return 'rank ' + w.index + ' 没有记录任何发送或接收，而其他 rank 有：若它在另一个线程上收发，其 profiler 没有记录该线程（没有 Kineto 的 torch profiler 只记录进入它的线程），请在该线程上收发，或用 Kineto 记录';
        case 'rank_without_compute': return 'rank ' + w.index + ' 没有运行任何计算 kernel';
        case 'unmatched_transfers': return '链路 ' + w.index + '：' + G(w.value) + ' 次传输没有配对';
        case 'microbatch_counts_differ': return '各阶段的微批次数在 ' + G(w.value) + ' 到 ' + G(w.limit) + ' 之间';
        case 'short_run': return 'M = ' + G(w.value) + ' 不大于 S = ' + G(w.limit) + '：运行太短，看不到稳态';
        case 'missing_ranks': return '只找到 ' + G(w.value) + ' 个 rank，作业的 world_size 为 ' + G(w.limit);
        case 'pairing_ambiguous': return '链路 ' + w.index + '：一端的消息较多，从头配对（接收方偏移 ' + V(w.value) + '）与从尾配对（' + V(w.limit) + '）都与时钟相符；所用的是从头配对的偏移，若某个性能分析器在最初几条消息之后才启动则有误：请按微批次区间导入，或手动设定偏移';
        case 'link_time_zero': return '链路 ' + w.index + '：d 为 0，因为其 ' + G(w.limit) + ' 次传输中有 ' + G(w.value) + ' 次不耗时：这些接收在双方都已开始时就已结束（接收方请求前消息已到达，或传输隐藏在等待之中）';
        case 'returns_to_first_stage': return '最后一个阶段发往阶段 0 的 ' + G(w.value) + ' 条消息和阶段 0 的 ' + G(w.limit) + ' 次接收是返回给阶段 0 的结果，已搁置：流水线只由各阶段到下一阶段的链路构成';
        case 'messages_set_aside': return G(w.value) + ' 次传输标明的对端不是相邻阶段，已搁置';
        case 'profiler_steps': return '这些文件含有 ' + G(w.value) + ' 个分析步（最后一个为 ProfilerStep#' + V(w.limit) + '），每一步都重复各微批次；只导入了 ProfilerStep#' + V(w.index) + '：设置分析步可导入另一步';
        case 'repeated_microbatch_names': return '阶段 ' + w.index + ' 的 ' + G(w.value) + ' 个微批次区间只有 ' + G(w.limit) + ' 个不同编号，因此所有阶段的区间都按时间顺序编号：名称重复（一次分析中有多次迭代：M 计入每个区间，T_real 涵盖所有迭代，迭代之间的时间（如屏障造成的流水线排空与重新填充）计入解释中的“其他”），或模式的第一个分组不是微批次编号';
        case 'other_pass_set_aside': return '训练运行按其中一遍的区间导入：另一遍的 ' + G(w.value) + ' 次传输已搁置，保留本遍的 ' + G(w.limit) + ' 次';
        case 'stages_reordered': return '文件的顺序不是消息流动的顺序，因此阶段按消息排列：先发送后接收的 rank ' + V(w.value) + ' 为阶段 0，rank ' + V(w.limit) + ' 为最后一个阶段（未标明 rank 的文件按其在列表中的位置编号）';
        case 'profiler_windows': return '这些文件含有 ' + G(w.value) + ' 个分析窗口（分析计划重复的各个周期，每个周期每个 rank 一个文件，其 ProfilerStep 编号互不重叠）：导入了从 ProfilerStep#' + V(w.index) + ' 起的窗口，其他窗口的 ' + G(w.limit) + ' 个文件未导入：把分析步设为另一窗口中的一步即可导入该窗口';
        case 'nested_ranges': return '微批次模式匹配到相互嵌套的区间（最先见于 rank ' + w.index + '）：包含其他编号区间的 ' + G(w.value) + ' 个区间（微批次外层的步或阶段区间）和位于同编号区间之内的 ' + G(w.limit) + ' 个区间（其组成部分）未计入；请把模式锚定到微批次自身的名称';
        case 'stages_reversed': return '这一遍的消息逆着阶段顺序流动（如反向传播的梯度）：其阶段为该顺序的逆序，从 rank ' + V(w.value) + ' 到 rank ' + V(w.limit);
        case 'clock_bounds_contradict': return '链路 ' + w.index + '：各对传输给出的时钟界限相互矛盾（接收方的偏移须至少为 ' + V(w.value) + '，至多为 ' + V(w.limit) + '）；时钟有漂移或配对有误';
        default: return w.message;
      }
    }
  });
})();
