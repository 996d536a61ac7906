// 规划器、模拟器和 trace 导入共用的中文文本，随这些部分按需加载（web/js/tools.js）：
// 它们的字段名和它们特有的错误代码。计算器本身的错误在 zh.js。
(function () {
  'use strict';
  window.HP_I18N.tools = {
    fields: {
      input: '输入', model: '模型', quant: '量化', context: '上下文长度', tokens: '每个微批次的 token 数', phase: '阶段',
      objective: '优化目标', devices: '设备', links: '链路', memory_capacity: '显存容量', layer_memory: '层显存',
      layer_times: '层时间', memory: '显存', memory_bandwidth: '带宽', fp16_flops: 'FP16 算力'
    },
    // What is wrong, for a tool's own code or field; nothing for the calculator's sentence.
    error: function (e, limits, got) {
      var B = window.HP.fmt.bound, G = window.HP.fmt.integer, N = window.HP.fmt.number;
      var ranges = { tokens: [1, limits.max_estimate_tokens], context: [0, limits.max_estimate_context] };
      switch (e.code) {
        case 'out_of_range':
          return ranges[e.field] && '必须在 ' + B(ranges[e.field][0]) + ' 到 ' + B(ranges[e.field][1]) + ' 之间（输入为 ' + got + '）';
        case 'unknown_id': return '“' + e.token + '”不在目录中';
        case 'unknown_name': return '不是可选的名称（输入为 ' + got + '）';
        case 'not_json': return '不是有效的 JSON（读到第 ' + G(e.value) + ' 字节处停止）';
        case 'device_too_small': return '容量 ' + N(e.value) + ' 小于最小的一层所需的 ' + N(e.limit);
        case 'memory_short': return '所有设备合计比各层所需少 ' + N(e.value) + '（共需 ' + N(e.limit) + '）';
        case 'no_feasible_split': return '没有任何连续的层切分能放进每台设备的显存';
        case 'fewer_layers_than_devices': return G(e.value) + ' 层不够给 ' + G(e.limit) + ' 台设备各分一层';
      }
      return null;
    }
  };
})();
