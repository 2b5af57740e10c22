// Draws each tag's forecast and switches models from the dropdown; all text goes in as text.
(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const fmt = v => (v == null ? '' : Number(v).toPrecision(6).replace(/\.?0+$/, ''));
  data.tags.forEach((tag, index) => {
    const chart = echarts.init(document.getElementById('chart-' + index), null, { renderer: 'canvas' });
    const select = document.querySelector('select[data-index="' + index + '"]');
    const past = tag.history.length;
    const pad = n => new Array(n).fill(null);
    function draw(method) {
      const c = tag.curves[method];
      const h = c.mean.length;
      const ahead = values => pad(past - 1).concat([tag.history[past - 1]], values);
      const band = (lo, hi) => pad(past).concat(hi.map((v, i) => v - lo[i]));
      const backtest = pad(tag.backtestStart).concat(c.backtest, pad(past + h - tag.backtestStart - c.backtest.length));
      chart.setOption({
        animation: false,
        title: { text: c.label, left: 'center', textStyle: { fontSize: 13, fontWeight: 'normal' } },
        tooltip: { trigger: 'axis' },
        legend: { bottom: 0, data: ['history', 'forecast', 'held-out backtest', '80%', '95%'] },
        grid: { left: 60, right: 24, top: 40, bottom: 64 },
        xAxis: { type: 'category', data: tag.labels, boundaryGap: false },
        yAxis: { type: 'value', scale: true },
        dataZoom: [{ type: 'inside' }],
        series: [
          { name: '95% base', type: 'line', data: pad(past).concat(c.lo95), stack: 'b95', lineStyle: { opacity: 0 }, symbol: 'none', tooltip: { show: false } },
          { name: '95%', type: 'line', color: 'rgba(74,120,176,0.15)', data: band(c.lo95, c.hi95), stack: 'b95', lineStyle: { opacity: 0 }, areaStyle: { color: 'rgba(74,120,176,0.15)' }, symbol: 'none' },
          { name: '80% base', type: 'line', data: pad(past).concat(c.lo80), stack: 'b80', lineStyle: { opacity: 0 }, symbol: 'none', tooltip: { show: false } },
          { name: '80%', type: 'line', color: 'rgba(74,120,176,0.3)', data: band(c.lo80, c.hi80), stack: 'b80', lineStyle: { opacity: 0 }, areaStyle: { color: 'rgba(74,120,176,0.3)' }, symbol: 'none' },
          { name: 'history', type: 'line', color: '#1d2733', data: tag.history.concat(pad(h)), symbol: 'none', lineStyle: { color: '#1d2733', width: 1.5 } },
          { name: 'held-out backtest', type: 'line', color: '#d9822b', data: backtest, symbol: 'none', lineStyle: { type: 'dashed', color: '#d9822b' } },
          { name: 'forecast', type: 'line', color: '#4a78b0', data: ahead(c.mean), symbol: 'none', lineStyle: { color: '#4a78b0', width: 2 } }
        ]
      }, true);
      const table = document.getElementById('values-' + index);
      table.querySelector('caption').textContent = 'Forecast values: ' + c.label;
      const body = table.querySelector('tbody');
      body.replaceChildren();
      c.mean.forEach((v, i) => {
        const row = document.createElement('tr');
        [tag.labels[past + i], fmt(v), fmt(c.lo80[i]), fmt(c.hi80[i]), fmt(c.lo95[i]), fmt(c.hi95[i])].forEach(text => {
          const cell = document.createElement('td');
          cell.textContent = text;
          row.appendChild(cell);
        });
        body.appendChild(row);
      });
      document.getElementById('chart-' + index).dataset.method = method;
    }
    select.addEventListener('change', () => draw(select.value));
    draw(select.value);
    window.addEventListener('resize', () => chart.resize());
    window.addEventListener('beforeprint', () => chart.resize());
  });
})();
