    var colors = ['#5E7BE2', '#E37400', '#68b65c', '#f15b4f', '#9c27b0', '#00897b', '#795548', '#34332e'];
    D.charts.forEach(function (ch) {
      draw(ch.id, {
        title: title(ch.title),
        legend: {enabled: true},
        xAxis: {title: {text: 'Concurrency'}, allowDecimals: false},
        yAxis: {min: 0, title: {text: esc(ch.unit)}},
        tooltip: {pointFormat: '{series.name} {point.level}: <b>{point.y:.2f}</b> ' + esc(ch.unit)},
        series: ch.series.map(function (s, i) {
          return {name: esc(s.name), color: colors[i % colors.length], marker: {enabled: true},
            data: s.points.map(function (p) { return {x: p.x, y: p.y, level: esc(p.level)}; })};
        })
      });
    });
