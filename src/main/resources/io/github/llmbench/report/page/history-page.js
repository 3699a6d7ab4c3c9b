    D.charts.forEach(function (ch) {
      draw(ch.id, {
        title: title(ch.title),
        legend: {enabled: false},
        xAxis: {title: {text: 'Run (from 1)'}, allowDecimals: false,
          plotLines: ch.changes.map(function (c) {
            return {value: c.x - 0.5, color: '#f15b4f', width: 2, dashStyle: 'Dash',
              label: {text: esc(c.label), style: {color: '#f15b4f'}}};
          })},
        yAxis: {title: {text: esc(ch.unit)}},
        tooltip: {pointFormat: 'run {point.x} {point.run} {point.time}: <b>{point.y:.2f}</b> ' + esc(ch.unit)},
        series: [{name: esc(ch.title), color: '#5E7BE2', marker: {enabled: true},
          data: ch.points.map(function (p) {
            return {x: p.x, y: p.y, run: esc(p.run), time: esc(p.time)};
          })}]
      });
    });
