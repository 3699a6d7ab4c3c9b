    // D.charts lists the charts of this page, in the order of their boxes: one drawing per kind
    function marks() {
      var lines = [];
      if (D.knee) lines.push({value: D.knee.c, color: '#E37400', width: 2, zIndex: 5,
        label: {text: 'knee ' + esc(D.knee.level), rotation: 0, style: {color: '#E37400'}}});
      if (D.saturation && (!D.knee || D.saturation.c !== D.knee.c)) lines.push({value: D.saturation.c,
        color: '#f15b4f', width: 1, dashStyle: 'Dash', zIndex: 5,
        label: {text: 'peak ' + esc(D.saturation.level), rotation: 0, y: 28, style: {color: '#f15b4f'}}});
      return lines;
    }
    var bands = (D.windows || []).map(function (w, i) {
      return {from: w.from, to: w.to, color: i % 2 ? 'rgba(94,123,226,0.12)' : 'rgba(104,182,92,0.15)',
        label: {text: 'steady ' + esc(w.level), style: {color: '#666'}}};
    });
    var SRV = D.server || {};
    var KINDS = {};
    // a figure of each level against its concurrency, with the knee and the peak marked
    KINDS.ladder = function (c) {
      var key = c.key;
      draw(c.id, {
        title: title(c.title), legend: {enabled: false},
        xAxis: {title: {text: 'Concurrency'}, plotLines: marks(), allowDecimals: false},
        yAxis: {min: 0, title: {text: esc(c.unit)}},
        tooltip: {pointFormat: '{point.name}: <b>{point.y:.2f}</b> ' + esc(c.unit)},
        series: [{name: esc(c.title), color: c.color, marker: {enabled: true},
          data: D.ladder.map(function (p) { return {x: p.c, y: p[key], name: esc(p.level)}; })},
          {name: '95% interval across trials', color: c.color, lineWidth: 1, dashStyle: 'ShortDash',
            marker: {enabled: true, symbol: 'diamond', radius: 3}, enableMouseTracking: false,
            data: [].concat.apply([], D.ladder.filter(function (p) { return p[key + 'Low'] !== undefined; })
              .map(function (p) { return [{x: p.c, y: p[key + 'Low']}, {x: p.c, y: p[key + 'High']},
                {x: p.c, y: null}]; }))}]
      });
    };
    // figures of each level against the images a request carries (their count or megapixels)
    KINDS.images = function (c) {
      draw(c.id, {
        title: title(c.title), legend: {enabled: c.series.length > 1},
        xAxis: {title: {text: esc(c.axis)}, allowDecimals: c.decimals},
        yAxis: {min: 0, title: {text: esc(c.unit)}},
        tooltip: {pointFormat: '{series.name} at {point.name}: <b>{point.y:.2f}</b> ' + esc(c.unit)},
        series: c.series.map(function (s) {
          return {name: esc(s.name), color: s.color, marker: {enabled: true},
            data: D.images.map(function (p) { return {x: p.n, y: p[s.key], name: esc(p.level)}; })};
        })
      });
    };
    // a latency's cumulative curve: the share of values at or under each latency
    KINDS.distribution = function (c) {
      draw(c.id, {
        title: title(c.title), legend: {enabled: false},
        xAxis: {title: {text: esc(c.metric) + ' (ms)'}},
        yAxis: {min: 0, max: 100, title: {text: '% at or under'}},
        tooltip: {headerFormat: '', pointFormat: '<b>{point.y:.1f}%</b> at or under {point.x:.2f} ms'},
        series: [{name: esc(c.metric), type: 'line', color: '#5E7BE2', marker: {enabled: false}, data: c.points}]
      });
    };
    // an agent session's context growth: TTFT and the prompt's tokens against a call's step
    KINDS.steps = function (c) {
      function pts(key) {
        return c.points.map(function (p) { return {x: p.step, y: p[key]}; });
      }
      draw(c.id, {
        title: title(c.title),
        xAxis: {title: {text: 'Step'}, allowDecimals: false},
        yAxis: [{min: 0, title: {text: 'TTFT (ms)'}}, {min: 0, opposite: true, title: {text: 'Input tokens'}}],
        tooltip: {shared: true, valueDecimals: 1},
        series: [{name: 'Mean TTFT', color: '#5E7BE2', marker: {enabled: true}, data: pts('ttft')},
          {name: 'P99 TTFT', color: '#f15b4f', marker: {enabled: true}, data: pts('ttftP99')},
          {name: 'Mean input tokens', color: '#68b65c', dashStyle: 'Dash', yAxis: 1,
            marker: {enabled: true}, data: pts('input')}]
      });
    };
    KINDS.inflight = function (c) {
      draw(c.id, {
        title: title(c.title), legend: {enabled: false},
        xAxis: {type: 'datetime', plotBands: bands},
        yAxis: {min: 0, title: {text: 'Requests'}, allowDecimals: false},
        series: [{name: 'In flight', type: 'line', step: 'left', color: '#5E7BE2', data: D.inflight}]
      });
    };
    KINDS.tokens = function (c) {
      draw(c.id, {
        title: title(c.title), legend: {enabled: false},
        xAxis: {type: 'datetime', plotBands: bands},
        yAxis: {min: 0, title: {text: 'tok/s'}},
        series: [{name: 'Output tokens', type: 'column', color: '#68b65c', pointPadding: 0,
          groupPadding: 0, data: D.tokens}]
      });
    };
    // a ramp level over time: the load asked (and sent), its latency, where latency broke
    KINDS.ramp = function (c) {
      var r = D.ramps[c.ramp];
      var unit = r.rate ? 'req/s' : 'in flight';
      var broke = r.brokeAt === null ? [] : [{value: r.brokeAt, color: '#f15b4f', width: 2, zIndex: 5}];
      var series = [{name: 'Asked (' + unit + ')', type: 'line', color: '#5E7BE2', data: r.asked}];
      if (r.rate) series.push({name: 'Sent (req/s)', type: 'line', dashStyle: 'ShortDash', color: '#7cb5ec', data: r.sent});
      series.push({name: 'Median TTFT (ms)', type: 'line', yAxis: 1, color: '#f15b4f', data: r.ttft},
        {name: 'Median TPOT (ms)', type: 'line', yAxis: 1, color: '#68b65c', data: r.tpot});
      if (r.brokeAt !== null) series.push({name: 'Latency broke at ' + r.brokeLoad.toFixed(2) + ' ' + unit
        + ' (the red line)', type: 'scatter', yAxis: 1, color: '#f15b4f', marker: {symbol: 'diamond', radius: 6},
        data: [[r.brokeAt, r.brokeTtft]]});
      draw(c.id, {
        title: title('Ramp ' + r.level + ': the load asked and the latency of the requests sent, over time'),
        xAxis: {title: {text: 'Seconds from the start of the ramp'}, min: 0, plotLines: broke},
        yAxis: [{min: 0, title: {text: unit}}, {type: 'logarithmic', opposite: true, title: {text: 'ms'}}],
        tooltip: {shared: true, valueDecimals: 2},
        series: series
      });
    };
    // the server's gauges over time; nothing to draw when it reported none
    KINDS.server = function (c) {
      if (!(SRV.running || SRV.waiting || SRV.kv_cache_usage)) return;
      var series = [];
      if (SRV.running) series.push({name: 'Running', type: 'line', step: 'left', color: '#5E7BE2', data: SRV.running});
      if (SRV.waiting) series.push({name: 'Waiting', type: 'line', step: 'left', color: '#f15b4f', data: SRV.waiting});
      if (SRV.kv_cache_usage) series.push({name: 'KV-cache usage %', type: 'line', yAxis: 1, color: '#E37400',
        data: SRV.kv_cache_usage.map(function (p) { return [p[0], 100 * p[1]]; })});
      draw(c.id, {
        title: title(c.title),
        xAxis: {type: 'datetime', plotBands: bands},
        yAxis: [{min: 0, title: {text: 'Requests'}, allowDecimals: false},
          {min: 0, max: 100, opposite: true, title: {text: 'KV cache %'}}],
        series: series
      });
    };
    KINDS.gpu = function (c) {
      if (!(SRV.gpu_power_w || SRV.gpu_sm_clock_mhz)) return;
      var gpu = [];
      if (SRV.gpu_power_w) gpu.push({name: 'Power (W, per GPU)', type: 'line', color: '#f15b4f', data: SRV.gpu_power_w});
      if (SRV.gpu_sm_clock_mhz) gpu.push({name: 'SM clock (MHz)', type: 'line', yAxis: 1, color: '#5E7BE2', data: SRV.gpu_sm_clock_mhz});
      draw(c.id, {
        title: title(c.title),
        xAxis: {type: 'datetime', plotBands: bands},
        yAxis: [{min: 0, title: {text: 'W'}}, {min: 0, opposite: true, title: {text: 'MHz'}}],
        series: gpu
      });
    };
    // one objective of a capacity search: its figure per probe, the objective's line, the capacity
    KINDS.capacity = function (c) {
      var C = D.capacity, metric = c.metric, limit = C.objectives[metric], rate = C.search === 'rate';
      function pts(met) {
        return C.probes.filter(function (p) { return p.met === met && p.figures[metric] !== null; })
          .map(function (p) { return {x: p.load !== undefined ? p.load : parseFloat(p.level.substring(1)), y: p.figures[metric], name: esc(p.level)}; });
      }
      var shaded = C.capacity ? [{from: 0, to: C.capacity, color: 'rgba(104,182,92,0.15)',
        label: {text: 'capacity ' + (rate ? 'r' : 'c') + C.capacity, style: {color: '#666'}}}] : [];
      draw(c.id, {
        title: title(metric + ' against ' + (rate ? 'request rate' : 'concurrency') + ': probes of the search (capacity shaded)'),
        xAxis: {title: {text: rate ? 'Request rate (req/s)' : 'Concurrency'}, min: 0, plotBands: shaded, allowDecimals: rate},
        yAxis: {min: 0, title: {text: metric === 'failed.pct' ? '%' : 'ms'},
          plotLines: [{value: limit, color: '#f15b4f', width: 2, dashStyle: 'Dash', zIndex: 5,
            label: {text: 'objective ' + limit, style: {color: '#f15b4f'}}}]},
        tooltip: {pointFormat: '{point.name}: <b>{point.y:.2f}</b>'},
        series: [{name: 'met', type: 'scatter', color: '#68b65c', marker: {radius: 5}, data: pts(true)},
          {name: 'broke', type: 'scatter', color: '#f15b4f', marker: {radius: 5, symbol: 'diamond'}, data: pts(false)}]
      });
    };
    // a gate of an interleaved A/B run: the running ratio after each pair, and the lines it had
    // to cross to fail (above) or to pass (below) at that look
    KINDS.ab = function (c) {
      var g = D.ab.gates[c.gate];
      function line(key) {
        return g.looks.map(function (l) { return [l.pairs, l[key] === undefined ? null : l[key]]; });
      }
      draw(c.id, {
        title: title(g.gate + ': the running ratio ' + g.orientation + ' as the pairs accumulated'),
        xAxis: {title: {text: 'Pairs'}, allowDecimals: false, min: 1},
        yAxis: {title: {text: esc(g.orientation)},
          plotLines: [{value: 1, color: '#999', width: 1, dashStyle: 'Dot'}]},
        tooltip: {shared: true, valueDecimals: 3},
        series: [{name: 'Running ratio', color: '#5E7BE2', marker: {enabled: true}, data: line('ratio')},
          {name: 'Fails above', color: '#f15b4f', dashStyle: 'Dash', data: line('fail_at')},
          {name: 'Passes below', color: '#68b65c', dashStyle: 'Dash', data: line('pass_at')}]
      });
    };
    KINDS.roofline = function (c) {
      var R = D.roofline, T = 1e12;
      var ois = [];
      R.points.forEach(function (p) { ois.push(p.decodeOi, p.wholeOi); });
      var ridge = R.peak / R.bandwidth;
      ois.push(ridge);
      var lo = Math.min.apply(null, ois.filter(function (v) { return v > 0; })) / 4;
      var hi = Math.max.apply(null, ois) * 4;
      var roof = [[lo, lo * R.bandwidth / T], [ridge, R.peak / T], [hi, R.peak / T]];
      function pts(kind) {
        return R.points.filter(function (p) { return p[kind + 'Oi'] > 0 && p[kind + 'Flops'] > 0; })
          .map(function (p) { return {x: p[kind + 'Oi'], y: p[kind + 'Flops'] / T, name: esc(p.level)}; });
      }
      draw(c.id, {
        title: title(c.title),
        xAxis: {type: 'logarithmic', title: {text: 'Operational intensity (FLOP/byte)'},
          plotLines: [{value: ridge, color: '#999', dashStyle: 'Dot', width: 1,
            label: {text: 'ridge ' + ridge.toFixed(0), rotation: 0}}]},
        yAxis: {type: 'logarithmic', title: {text: 'TFLOP/s'}},
        tooltip: {pointFormat: '{point.name}: OI {point.x:.1f}, <b>{point.y:.2f}</b> TFLOP/s'},
        series: [
          {name: 'Roofs (bandwidth, compute)', type: 'line', color: '#34332e', marker: {enabled: false},
            enableMouseTracking: false, data: roof},
          {name: 'Decode only', type: 'scatter', color: '#5E7BE2', marker: {radius: 5},
            dataLabels: {enabled: true, format: '{point.name}'}, data: pts('decode')},
          {name: 'Whole workload', type: 'scatter', color: '#E37400', marker: {radius: 5, symbol: 'diamond'},
            dataLabels: {enabled: true, format: '{point.name}'}, data: pts('whole')}
        ]
      });
    };
    (D.charts || []).forEach(function (c) {
      if (Object.prototype.hasOwnProperty.call(KINDS, c.kind)) {
        KINDS[c.kind](c);
      } else {
        S.errors.push(c.id + ': no drawing for a chart of kind ' + c.kind);
      }
    });
