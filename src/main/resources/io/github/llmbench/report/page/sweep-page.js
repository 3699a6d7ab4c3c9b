    // the Pareto chart: every level of every combination, each sweep's frontier joined and named
    var P = D.pareto;
    var COLORS = ['#A0B228', '#5E7BE2', '#FFA900', '#9D67C1'];
    var series = [];
    P.sweeps.forEach(function (sw, i) {
      var color = COLORS[i % COLORS.length];
      var several = P.sweeps.length > 1;
      series.push({type: 'scatter', name: several ? esc(sw.label) : 'Levels', color: color,
        data: sw.points.map(function (p) { return {x: p.x, y: p.y, name: esc(p.name)}; })});
      series.push({type: 'line', name: several ? esc(sw.label) + ' frontier' : 'Pareto frontier',
        color: several ? color : '#f15b4f', dashStyle: i > 0 ? 'Dash' : 'Solid',
        data: sw.points.filter(function (p) { return p.frontier; })
          .sort(function (a, b) { return a.x - b.x; })
          .map(function (p) { return {x: p.x, y: p.y, name: esc(p.name)}; }),
        dataLabels: {enabled: true, format: '{point.name}'}});
    });
    draw(P.id, {
      title: title('Output throughput against interactivity'),
      xAxis: {title: {text: 'Output tokens/s per user (1000 / mean TPOT)'}},
      yAxis: {title: {text: P.perGpu ? 'Output tokens/s per GPU' : 'Output tokens/s'}, min: 0},
      tooltip: {pointFormat: '{point.name}: <b>{point.y:.1f}</b> tok/s at {point.x:.1f} tok/s per user'},
      series: series
    });
    // each table in a sortable section sorts by a column when its heading is clicked
    function cellValue(row, i) {
      var t = row.cells[i].textContent.trim();
      var n = parseFloat(t);
      return t !== '' && !isNaN(n) && /^-?[0-9.]+$/.test(t) ? n : t.toLowerCase();
    }
    function sortBy(table, i, descending) {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = cellValue(a, i), y = cellValue(b, i);
        var c = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === 'number' ? -1 : 1);
        return descending ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
      table.setAttribute('data-sorted', i + (descending ? ' desc' : ' asc'));
    }
    Array.prototype.forEach.call(document.querySelectorAll('.llm-sortable table'), function (table) {
      // first by output throughput, highest first: the table opens on the best combinations
      var first = table.closest('.llm-sortable').getAttribute('data-sort-first');
      if (first !== null) {
        sortBy(table, parseInt(first, 10), true);
      }
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
        th.style.cursor = 'pointer';
        th.addEventListener('click', function () {
          sortBy(table, i, table.getAttribute('data-sorted') === i + ' asc');
        });
      });
    });
