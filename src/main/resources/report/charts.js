// Draws each chart of an analysis report from its ECharts option, time axes in the report's zone.
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const stamp = new Intl.DateTimeFormat('sv-SE', {
    timeZone: data.zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  });
  const time = (ms) => stamp.format(new Date(ms));
  const charts = data.charts.map((option, index) => {
    const element = document.getElementById('chart-' + index);
    const chart = echarts.init(element, null, { renderer: 'canvas' });
    option.animation = false;
    if (option.xAxis && option.xAxis.type === 'time') {
      option.xAxis.axisLabel = { formatter: (ms) => time(ms).slice(5, 19), hideOverlap: true };
      option.tooltip = { trigger: 'axis', axisPointer: { label: { formatter: (p) => `${time(p.value)} ${data.zone}` } } };
    }
    chart.setOption(option);
    element.dataset.drawn = 'true';
    return chart;
  });
  window.addEventListener('resize', () => charts.forEach((c) => c.resize()));
  window.addEventListener('beforeprint', () => charts.forEach((c) => c.resize()));
})();
