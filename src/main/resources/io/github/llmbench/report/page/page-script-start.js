(function () {
  var S = window.__llm;
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function draw(id, opts) {
    S.expected++;
    try {
      opts.chart = opts.chart || {};
      opts.chart.renderTo = id;
      opts.credits = {enabled: false};
      new Highcharts.Chart(opts);
      S.drawn++;
    } catch (e) {
      S.errors.push(id + ': ' + e.message);
    }
  }
  function title(t) { return {text: '<span class="chart_title">' + esc(t) + '</span>', useHTML: true}; }
  try {
    var D = JSON.parse(document.getElementById('llm-data').textContent);
    Highcharts.setOptions({global: {useUTC: false}, chart: {animation: false},
      plotOptions: {series: {animation: false}}});
