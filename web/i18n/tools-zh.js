// 规划器、模拟器和 trace 导入共用的中文文本，随这些部分按需加载（web/js/tools.js）：
// 它们的字段名和它们特有的错误代码。计算器本身的错误在 zh.js。
(function () {
  'use strict';
  // The fields of a GGUF file's errors, whose index is the byte where the problem lies.
  var GGUF_FIELDS = { gguf: 1, header_bytes: 1, key_count: 1, tensor_count: 1, string_length: 1, array_length: 1,
    n_dims: 1, dims: 1, value_type: 1, ggml_type: 1 };
  // The fields of a llama-bench record's errors, whose index is the record (the English "record 1").
  var RECORD_FIELDS = { calibration: 1, gpu_info: 1, device: 1, model_size: 1, model_n_params: 1, n_prompt: 1, n_gen: 1 };
  // How a custom device's fact is typed with its unit, for the error of one typed in a unit not read.
  var UNIT_EXAMPLE = { memory: '24 GiB、24 GB', memory_bandwidth: '1008 GB/s', fp16_flops: '165 TFLOP/s' };
  // What an index counts, by field, as the English names it ("device 2", "link 1"): the noun after
  // 第 N; a field not listed counts items (第 N 项).
  var NOUN = {};
  [[' 台设备', ['layer_times', 'memory_capacity', 'devices', 'memory', 'memory_bandwidth', 'fp16_flops', 'device_class', 'layer_time', 'avg_ts']],
    [' 层', ['layer_memory', 'layer_bytes', 'active_layer_bytes', 'active_layer_params', 'sliding_layers', 'attention_layers', 'kv_layers', 'recurrent_layers']],
    [' 条链路', ['links', 'latency', 'bandwidth', 'buffers', 'link_service']],
    [' 个阶段', ['service', 'service_samples']], [' 组', ['shared']], [' 个切分点', ['cut_bytes']]
  ].forEach(function (x) { x[1].forEach(function (f) { NOUN[f] = x[0]; }); });
  window.HP_I18N.tools = {
    fields: {
      input: '输入', model: '模型', quant: '量化', context: '上下文长度', tokens: '每个微批次的 token 数', phase: '阶段',
      objective: '优化目标', devices: '设备', links: '链路', memory_capacity: '显存容量', layer_memory: '层显存',
      layer_times: '层时间', memory: '显存', memory_bandwidth: '带宽', fp16_flops: 'FP16 算力',
      allow_idle_devices: '允许空闲设备', id: 'id',
      // The simulator's.
      service: '服务时间分布', link_service: '传输时间分布', link_mode: '链路模式', shared: '共享链路', buffers: '缓冲区',
      reps: '重复次数', seed: '随机种子', service_samples: '实测分位数', service_matrix: '服务时间矩阵',
      link_matrix: '传输时间矩阵',
      service_probabilities: '分位数的概率',
      // GGUF files and a model's facts.
      gguf: 'GGUF 文件', header_bytes: '文件头字节数', key_count: '键的数量', tensor_count: '张量数量',
      string_length: '字符串长度', array_length: '数组长度', n_dims: '维数', dims: '维度', value_type: '值类型',
      ggml_type: 'ggml 类型', layers: '层数', nextn_predict_layers: '多 token 预测层数', n_embd: '隐藏维度', vocab_size: '词表大小', layer_bytes: '每层字节数',
      active_layer_bytes: '每层激活字节数', active_layer_params: '每层激活参数量', embedding_bytes: '词嵌入字节数',
      output_bytes: '输出层字节数', kv_bytes_per_token: '每个 token 的 KV 字节数', sliding_layers: '每层是否滑动窗口',
      attention_layers: '每层是否有注意力', kv_layers: '每层是否保留 KV 缓存', recurrent_layers: '每层是否有循环状态',
      recurrent_bytes_per_sequence: '每个序列的循环状态字节数',
      // Calibration: the llama-bench records and a record's keys.
      calibration: '校准记录', gpu_info: 'gpu_info（GPU 名称）', model_size: '模型字节数',
      model_n_params: '模型参数量', n_prompt: '提示 token 数', n_gen: '生成 token 数', device: '记录的设备'
    },
    // Where an error of a GGUF file is: its byte offset (index), in place of an item's number.
    position: function (e) {
      var G = window.HP_I18N.fmt.integer;
      if (e.index === null || e.index === undefined || e.index < 0) return null;
      if (RECORD_FIELDS[e.field]) return '，第 ' + G(e.index + 1) + ' 条记录';
      // A matrix's row (the micro-batch), and its cell's column when it has one.
      if (e.field === 'service_matrix' || e.field === 'link_matrix') {
        var cell = e.column === null || e.column === undefined || e.column < 0 ? '' : '第 ' + G(e.column + 1) + ' 列';
        return '，第 ' + G(e.index + 1) + ' 行' + cell;
      }
      // A samples file's cell: its row and its stage (a samples list's index is its stage).
      if (e.field === 'service_samples' && typeof e.column === 'number' && e.column >= 0) {
        return '，第 ' + G(e.index + 1) + ' 行第 ' + G(e.column + 1) + ' 个阶段';
      }
      if (GGUF_FIELDS[e.field] || (e.field === 'layers' && e.token && e.index >= 0)) return '，第 ' + G(e.index) + ' 字节';
      return NOUN[e.field] ? '，第 ' + (e.index + 1) + NOUN[e.field] : null;
    },
    // What is wrong, for a tool's own code or field; nothing for the calculator's sentence.
    error: function (e, limits, got) {
      var B = window.HP_I18N.fmt.bound, G = window.HP_I18N.fmt.integer, N = window.HP_I18N.fmt.number;
      var gib = function (bytes) { return window.HP_I18N.fmt.four(bytes / 1073741824) + ' GiB'; };
      // What would fit (the core's fits_quant and fits_with_device, the device 0-based or null).
      var fits = function (x) {
        var device = x.fits_with_device === null || x.fits_with_device === undefined || x.fits_with_device < 0 ? ''
          : '在链路末尾再加一台与设备 ' + (x.fits_with_device + 1) + ' 相同的设备';
        if (x.fits_quant && device) return '；改用量化 ' + x.fits_quant + ' 可以放下，' + device + '也可以';
        if (x.fits_quant) return '；改用量化 ' + x.fits_quant + ' 可以放下';
        if (device) return '；' + device + '可以放下';
        return '；换用更小的目录量化或再加一台设备都放不下';
      };
      var ranges = { tokens: [1, limits.max_estimate_tokens], context: [0, limits.max_estimate_context],
        service: [0, e.limit], link_service: [0, e.limit], reps: [1, limits.max_reps], seed: [0, limits.max_batches],
        service_probabilities: [0, 1], layers: [1, limits.max_plan_layers] };
      // A model's other counts may be 0 (no experts, no sliding window), as the core words them: ModelInfo's
      // whole-number facts but layers (tests/web/zh-gguf.test.mjs holds this list to the English's).
      ['nextn_predict_layers', 'n_embd', 'n_head', 'n_head_kv', 'context_length', 'expert_count', 'expert_used_count',
        'key_length', 'value_length', 'feed_forward_length', 'vocab_size', 'sliding_window'].forEach(function (k) { ranges[k] = [0, limits.max_model_count]; });
      var key = '“' + e.token + '”';
      // A GGUF file's fact out of its range, named by its key (or its tensor, in a layer past block_count),
      // at its byte; a model object's layers typed out of range has no byte, and its token is the number.
      if (e.field === 'layers' && e.token && e.index !== null && e.index !== undefined && e.index >= 0) {
        return e.code === 'bad_tensor' ? '张量' + key + '在第 ' + G(e.value) + ' 层，但 block_count 只有 ' + G(e.limit) + ' 层'
          : key + '必须在 1 到 ' + G(e.limit) + ' 之间（输入为 ' + N(e.value) + '）';
      }
      if (GGUF_FIELDS[e.field] && e.code === 'too_large') {
        var over = '，超过上限 ' + G(e.limit);
        switch (e.field) {
          case 'header_bytes': return '文件头和张量表超过 ' + G(e.value) + ' 字节' + over;
          case 'key_count': return G(e.value) + ' 个键' + over;
          case 'tensor_count': return G(e.value) + ' 个张量' + over;
          case 'string_length': return (e.token ? key + '中' : '') + '有长 ' + G(e.value) + ' 字节的字符串' + over;
          case 'array_length':
            return e.value <= e.limit ? '键' + key + '的数组嵌套超过 ' + G(e.limit) + ' 层' : '键' + key + '的数组有 ' + G(e.value) + ' 项' + over;
          default: return '张量' + key + '有 ' + G(e.value) + ' 维' + over;
        }
      }
      if (GGUF_FIELDS[e.field] && e.code === 'missing_field') return '缺少键' + key;
      // A fact's key of a type that is no whole number, at the byte where its type is given.
      if (e.field === 'value_type' && e.code === 'wrong_type') return '键' + key + '的值类型 ' + G(e.value) + ' 不是整数，而它必须是整数';
      var lists = { service: 1, link_service: 1, buffers: 1, service_samples: 1, service_matrix: 1, link_matrix: 1,
        service_probabilities: 1 };
      // A llama-bench record's avg_ts: its field is calibration (avg_ts is also a device's key).
      if (e.field === 'calibration' && e.index !== null && e.index >= 0) {
        switch (e.code) {
          case 'missing_field': return '缺少 avg_ts';
          case 'wrong_type': if (e.value === 1) return 'avg_ts 的值类型不对（输入为 ' + got + '）'; break;
          case 'not_finite': return 'avg_ts 必须是有限数（输入为 ' + got + '）';
          case 'negative': return 'avg_ts 必须 ≥ 0（输入为 ' + got + '）';
          case 'not_positive': return 'avg_ts 必须 > 0（输入为 ' + got + '）';
          case 'too_large': return 'avg_ts 最大为 ' + B(e.limit) + '（输入为 ' + got + '）';
          case 'too_small':
            return 'avg_ts 至少为 ' + B(e.limit) + '，否则它所校准设备的层时间之和超过 ' + B(limits.max_value) + '（输入为 ' + got + '）';
        }
      }
      switch (e.code) {
        // A device so slow, as given, that its layer times add up past the limit.
        case 'too_small':
          // The planner's fastest layer time (the calculator's tau keeps zh.js's wording).
          if (e.field === 'layer_times') return '某一层即使在最快的设备上也至少需要 ' + B(e.limit) + '（输入为 ' + got + '）';
          // A device's measured layer time below the least stage time.
          if (e.field === 'layer_time') return '至少为 ' + B(e.limit) + '（输入为 ' + got + '）';
          return (e.field === 'avg_ts' || e.field === 'memory_bandwidth' || e.field === 'fp16_flops') &&
            '至少为 ' + B(e.limit) + '，否则该设备的层时间之和超过 ' + B(limits.max_value) + '（输入为 ' + got + '）';
        case 'out_of_range':
          if (e.field === 'sliding_layers') return '必须是 0（关注全部位置）或 1（滑动窗口）（输入为 ' + got + '）';
          if (e.field === 'attention_layers') return '必须是 0（没有注意力）或 1（有注意力）（输入为 ' + got + '）';
          if (e.field === 'kv_layers') return '必须是 0（不保留 KV 缓存）或 1（保留 KV 缓存）（输入为 ' + got + '）';
          if (e.field === 'recurrent_layers') return '必须是 0（没有循环状态）或 1（有循环状态）（输入为 ' + got + '）';
          return ranges[e.field] && '必须在 ' + B(ranges[e.field][0]) + ' 到 ' + B(ranges[e.field][1]) + ' 之间（输入为 ' + got + '）';
        case 'not_positive':
          if (e.field === 'attention_layers' || e.field === 'kv_layers' || e.field === 'recurrent_layers') return '至少需要一个运行的层为 1，因为 ' + e.token + ' 大于 0';
          break;
        case 'unknown_id': return '“' + e.token + '”不在目录中';
        // A custom device's fact typed in a unit the core does not read ("24 kg").
        case 'unknown_unit':
          return '“' + e.token + '”的单位无法识别：请按标签上的单位只填数字，或写数字和单位，如 ' + UNIT_EXAMPLE[e.field];
        case 'unknown_name': return '不是可选的名称（输入为 ' + got + '）';
        case 'not_json': return '不是有效的 JSON（读到第 ' + G(e.value) + ' 字节处停止）';
        case 'utf16_text': return '文本是 UTF-16 编码（以 UTF-16 字节顺序标记开头）；请另存为 UTF-8，所有读取器都读 UTF-8';
        case 'utf32_text': return '文本是 UTF-32 编码（以 UTF-32 字节顺序标记开头）；请另存为 UTF-8，所有读取器都读 UTF-8';
        case 'unknown_key':
          return '未知的键“' + e.token + '”' + (e.value === 1 ? '（是否想写 ' + e.field + '？）' : '');
        case 'wrong_form': return '是显式输入形式的键，而带 model 的输入是估算形式';
        case 'missing_field': return '缺少此键';
        // An estimate's memory errors (field memory) are in bytes, shown in GiB, with what would fit.
        case 'device_too_small':
          if (e.field === 'memory') return '容量 ' + gib(e.value) + '，小于最小的一层所需的 ' + gib(e.limit) + fits(e);
          return '容量 ' + N(e.value) + ' 小于最小的一层所需的 ' + N(e.limit);
        case 'memory_short':
          // value is the shortfall, limit the need; the devices hold their difference.
          if (e.field === 'memory') return '缺少 ' + gib(e.value) + '（各层共需 ' + gib(e.limit) + '，设备合计只有 ' + gib(e.limit - e.value) + '）' + fits(e);
          return '所有设备合计比各层所需少 ' + N(e.value) + '（共需 ' + N(e.limit) + '）';
        case 'no_feasible_split': return '没有任何连续的层切分能放进每台设备的显存' + (e.field === 'memory' ? fits(e) : '');
        case 'sum_too_large': return '各层时间之和为 ' + N(e.value) + '，超过上限 ' + B(e.limit);
        // A link so slow that carrying the largest cut overflows a double: the value is the largest double.
        case 'delay_too_large':
          return e.value >= Number.MAX_VALUE
            ? '传输最大切分处的数据所需时间超出双精度数能表示的范围（延迟加上最大切分数据量除以带宽已溢出），超过上限 ' + B(e.limit)
            : '传输最大切分处的数据需要 ' + N(e.value) + '，超过上限 ' + B(e.limit);
        case 'too_many_to_order': return '尝试所有设备顺序最多允许 ' + G(e.limit) + ' 台设备（输入了 ' + G(e.value) + ' 台）';
        case 'order_search_too_large':
          return '尝试所有不同的设备顺序需要 ' + G(e.value) + ' 步（顺序数 × 设备数 × 层数），超过上限 ' + G(e.limit);
        case 'fewer_layers_than_devices': return G(e.value) + ' 层不够给 ' + G(e.limit) + ' 台设备各分一层；请允许空闲设备或减少设备';
        case 'no_such_link': return '没有链路 ' + got + '（共 S−1 = ' + G(e.limit) + ' 条链路，从 0 起编号）';
        case 'overlapping_groups': return '链路 ' + got + ' 已在另一个共享组中';
        case 'not_ascending':
          return e.field === 'service_probabilities' ? '概率必须严格递增（输入为 ' + got + '）' : '分位数必须递增（输入为 ' + got + '）';
        case 'too_many_sim_cells': return 'M × S × 重复次数 = ' + G(e.value) + ' 个单元，超过上限 ' + G(e.limit);
        case 'too_much_sim_work': return '随机时间下，单元与随机抽样共计 ' + G(e.value) + ' 步，超过上限 ' + G(e.limit);
        case 'empty':
          // lognormal:cv= (or uniform:spread=) with no number after it; token: the text typed.
          return (e.field === 'service' || e.field === 'link_service') && e.token &&
            (/spread=/.test(e.token) ? 'spread=' : 'cv=') + ' 之后缺少数值（输入为 ' + got + '）';
        case 'not_a_number':
          // A lone token (x in a CV box) takes the calculator's “x”不是数字; several are more than one number.
          return (e.field === 'service' || e.field === 'link_service') && /[:=,; \t]/.test(e.token) &&
            'cv= 或 spread= 之后必须是一个数（输入为 ' + got + '）';
        case 'too_many_transfers':
          return '共享链路时 M × (S-1) = ' + G(e.value) + ' 个可能同时等待的传输，超过上限 ' + G(e.limit);
        case 'buffer_history_too_large':
          return 'S × (缓冲区 + 1) = ' + G(e.value) + ' 个需保留的释放时间，超过上限 ' + G(e.limit) + '（请用更小的缓冲区，或 inf）';
        case 'wrong_length':
          if (/layer_(bytes|params)$/.test(e.field)) return '需要 ' + G(e.limit) + ' 个值，每层一个（输入了 ' + got + ' 个）';
          if (/^(sliding|attention|kv|recurrent)_layers$/.test(e.field)) return '需要 ' + G(e.limit) + ' 个值，每层一个，或者留空（输入了 ' + got + ' 个）';
          return lists[e.field] && '需要 ' + G(e.limit) + ' 个值（输入了 ' + got + ' 个）';
        // GGUF files: index is the byte offset.
        case 'not_gguf': return '文件开头不是 GGUF 字节，不是 GGUF 文件';
        case 'unsupported_version': return '不支持版本 ' + got + '（支持版本 2 和 3）';
        case 'truncated':
          return e.token ? '张量“' + e.token + '”的数据在第 ' + G(e.value) + ' 字节结束，超出文件末尾 ' + G(e.limit) + '（文件是否不完整？）'
            : '文件在其文件头内部结束，共 ' + G(e.limit) + ' 字节（文件是否不完整？）';
        case 'unknown_type':
          return e.field === 'ggml_type' ? '张量' + key + '的 ggml 类型 ' + G(e.value) + ' 无法识别'
            : '键' + key + '的值类型 ' + G(e.value) + ' 不是 GGUF 定义的类型';
        case 'bad_tensor':
          return '张量' + key + '的第一维 ' + G(e.value) + ' 不是其类型每块 ' + G(e.limit) + ' 个元素的整数倍';
        case 'duplicate_tensor': return '张量' + key + '在张量表中第二次出现（其字节会被重复计算）';
        case 'duplicate_key':
          // A GGUF file's metadata, or a JSON input's object.
          return e.field === 'gguf' ? '键' + key + '在元数据中第二次出现（以哪个值为准没有定义，ggml 也拒绝这样的文件）'
            : '键' + key + '在同一对象中第二次给出（以哪个值为准没有定义）';
        case 'unaligned_tensor':
          return '张量' + key + '的数据偏移 ' + G(e.value) + ' 不是对齐值 ' + G(e.limit) + ' 的整数倍';
        case 'overlapping_tensors':
          return '张量' + key + '的数据从偏移 ' + G(e.value) + ' 开始，落在另一张量的数据之内（该数据在 ' + G(e.limit) + ' 结束）';
        case 'bad_alignment':
          return e.field === 'value_type' ? '键' + key + '的值类型 ' + G(e.value) + ' 不是整数，而对齐值必须是整数'
            : '键' + key + '的值 ' + G(e.value) + ' 不能作对齐值：GGUF 要求非零的 2 的幂';
        case 'conflicting_keys': return '不能与“' + e.token + '”同时给出';
        // A model's facts that contradict each other: the token names the other fact, the limit is its value.
        case 'above_fact': return '不能大于 ' + e.token + ' = ' + N(e.limit) + '（输入为 ' + N(e.value) + '）';
        case 'not_a_divisor': return '必须整除 ' + e.token + ' = ' + N(e.limit) + '（输入为 ' + N(e.value) + '）';
        case 'ambiguous_device':
          return '“' + e.token + '”同时指向设备 ' + G(e.value + 1) + ' 和设备 ' + G(e.limit + 1) +
            '，二者型号不同；请在记录中加上 "device"（目录 id 或设备的 name）';
      }
      return null;
    }
  };
})();
