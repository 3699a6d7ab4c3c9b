    // the Pareto chart: every level of every combination, the frontier's points joined and named
    var P = D.pareto;
    var all = P.points.map(function (p) { return {x: p.x, y: p.y, name: esc(p.name)}; });
    var front = P.points.filter(function (p) { return p.frontier; })
      .sort(function (a, b) { return a.x - b.x; })
      .map(function (p) { return {x: p.x, y: p.y, name: esc(p.name)}; });
    draw(P.id, {
      title: title('Output throughput against interactivity'),
      xAxis: {title: {text: 'Output tokens/s per user (1000 / mean TPOT)'}},
      yAxis: {title: {text: P.perGpu ? 'Output tokens/s per GPU' : 'Output tokens/s'}, min: 0},
      tooltip: {pointFormat: '{point.name}: <b>{point.y:.1f}</b> tok/s at {point.x:.1f} tok/s per user'},
      series: [
        {type: 'scatter', name: 'Levels', color: '#A0B228', data: all},
        {type: 'line', name: 'Pareto frontier', color: '#f15b4f', data: front,
          dataLabels: {enabled: true, format: '{point.name}'}}
      ]
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
