// The dashboard viewer: lists the workspace's dashboards and charts, draws every panel with
// ECharts from /api/dashboards and /api/charts, with a period picker, auto-refresh at the
// dashboard's interval, and every time shown in the dashboard's timezone.
import { api } from './session.js';
const grid = document.getElementById('grid');
const state = { path: null, board: null, zone: 'UTC', start: null, end: null, timer: null, refreshes: 0, charts: [] };
window.sondeDashboard = state;

const get = async (url) => {
  const response = await api(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
};

function formatter(zone, withTime) {
  const f = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit',
    ...(withTime ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : {}),
  });
  return (ms) => f.format(new Date(ms));
}

async function loadList() {
  const { dashboards, charts } = await get('api/dashboards');
  const fill = (id, items) => {
    const ul = document.getElementById(id);
    ul.replaceChildren(...items.map((item) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = `#${item.path}`;
      a.textContent = item.path;
      a.dataset.path = item.path;
      li.append(a);
      return li;
    }));
  };
  fill('dashboards', dashboards);
  fill('charts', charts);
}

function query() {
  // a saved chart opens in its own zone: the server's answer names it
  const params = new URLSearchParams(state.zone ? { tz: state.zone } : {});
  if (state.start) params.set('start', state.start);
  if (state.end) params.set('end', state.end);
  return params.toString();
}

/** The server's option with the live series filled in, drawn the way the panel's type says. */
function optionFor(type, data, zone) {
  const option = structuredClone(data.option);
  const byName = Object.fromEntries(data.series.map((s) => [s.name, s.data]));
  const time = formatter(zone, true);
  const values = (name) => (byName[name] || []).map((p) => p[1]).filter((v) => v !== null);
  if (type === 'Pie') {
    // a slice per tag: its average magnitude over the period (signals around zero stay positive)
    return {
      title: option.title, tooltip: { trigger: 'item', valueFormatter: (v) => v.toFixed(3) }, legend: option.legend,
      series: [{ type: 'pie', radius: '60%', data: data.series.map((s) => {
        const v = values(s.name).map(Math.abs);
        return { name: s.name, value: v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0 };
      }) }],
    };
  }
  if (type === 'Gauge') {
    const first = data.series[0];
    const v = values(first.name);
    const last = v.length ? v[v.length - 1] : 0;
    return { title: { text: option.title.text }, series: [{ type: 'gauge', min: Math.floor(Math.min(...v, last)), max: Math.ceil(Math.max(...v, last)),
      detail: { formatter: (x) => x.toFixed(2) }, data: [{ value: last, name: first.name }] }] };
  }
  for (const s of option.series) {
    s.data = byName[s.name] || [];
    if (type === 'Scatter') { s.type = 'scatter'; s.symbolSize = 4; }
    if (type === 'Bar') s.type = 'bar';
    if (type === 'Line') s.type = 'line';
  }
  if (option.xAxis && option.xAxis.type === 'time') {
    option.xAxis.axisLabel = { formatter: (ms) => time(ms).slice(5, 16), hideOverlap: true };
    option.tooltip = { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? v.toFixed(3) : v),
      axisPointer: { label: { formatter: (p) => `${time(p.value)} ${zone}` } } };
  }
  return option;
}

function panelElement(panel) {
  const div = document.createElement('section');
  div.className = 'panel';
  div.dataset.id = panel.id;
  div.dataset.type = panel.type;
  div.dataset.state = 'loading';
  const g = panel.grid || { x: 0, y: 0, w: 12, h: 8 };
  div.style.gridColumn = `${g.x + 1} / span ${g.w}`;
  div.style.gridRow = `${g.y + 1} / span ${g.h}`;
  const h3 = document.createElement('h3');
  h3.textContent = panel.title;
  const body = document.createElement('div');
  body.className = 'body';
  div.append(h3, body);
  return div;
}

async function drawPanel(element, url, type) {
  const body = element.querySelector('.body');
  try {
    const data = await get(url);
    if (!state.zone && data.range?.timezone) {
      state.zone = data.range.timezone;
      document.getElementById('zone').textContent = `times in ${state.zone}`;
    }
    element.querySelector('.error')?.remove();
    if (type === 'Text') {
      body.className = 'body text';
      body.textContent = data.text ?? element.dataset.text ?? '';
    } else {
      let chart = echarts.getInstanceByDom(body);
      if (!chart) {
        chart = echarts.init(body, null, { renderer: 'canvas' });
        state.charts.push(chart);
      }
      chart.setOption(optionFor(type, data, state.zone), true);
    }
    element.dataset.points = data.series.reduce((n, s) => n + s.data.length, 0);
    element.dataset.state = 'drawn';
    return data.notices || [];
  } catch (e) {
    echarts.getInstanceByDom(body)?.dispose();
    body.replaceChildren();
    const error = element.querySelector('.error') || document.createElement('div');
    error.className = 'error';
    error.textContent = `This panel could not be drawn: ${e.message}`;
    element.append(error);
    element.dataset.state = 'error';
    return [];
  }
}

async function drawAll() {
  const notices = new Set();
  const panels = [...grid.querySelectorAll('.panel')];
  await Promise.all(panels.map(async (element) => {
    const url = state.path.endsWith('.dsh')
      ? `api/dashboards/${state.path}/panels/${element.dataset.id}/data?${query()}`
      : `api/charts/${state.path}/data?${query()}`;
    (await drawPanel(element, url, element.dataset.type)).forEach((n) => notices.add(n));
  }));
  document.getElementById('notices').textContent = [...notices].join(' · ');
  state.refreshes += 1;
  grid.dataset.refreshes = state.refreshes;
}

function schedule(refresh) {
  clearInterval(state.timer);
  const label = document.getElementById('refresh');
  const m = /^(\d+)(s|m|h)$/.exec(refresh || '');
  if (!m) { label.textContent = 'no auto-refresh'; return; }
  const ms = Number(m[1]) * { s: 1000, m: 60000, h: 3600000 }[m[2]];
  label.textContent = `refreshes every ${refresh}`;
  state.timer = setInterval(drawAll, ms);
}

async function open(path) {
  state.path = path;
  state.start = null;
  state.end = null;
  document.getElementById('preset').value = 'saved';
  state.charts.forEach((c) => c.dispose());
  state.charts = [];
  grid.replaceChildren();
  document.querySelectorAll('.dash-list a').forEach((a) => a.classList.toggle('current', a.dataset.path === path));
  document.getElementById('picker').hidden = false;
  try {
    let panels;
    if (path.endsWith('.dsh')) {
      const board = await get(`api/dashboards/${path}`);
      state.board = board;
      state.zone = board.timezone || 'UTC';
      document.getElementById('title').textContent = board.owner ? `${board.title} (${board.owner}'s, read-only)` : board.title;
      panels = board.panels;
      schedule(board.refresh);
    } else {
      state.board = null;
      state.zone = null;
      document.getElementById('title').textContent = path;
      panels = [{ id: path, title: path, type: 'Chart', grid: { x: 0, y: 0, w: 12, h: 12 } }];
      schedule(null);
    }
    document.getElementById('zone').textContent = state.zone ? `times in ${state.zone}` : '';
    panels.forEach((p) => {
      const element = panelElement(p);
      if (p.type === 'Text') element.dataset.text = p.source?.text ?? '';
      grid.append(element);
    });
    await drawAll();
  } catch (e) {
    document.getElementById('title').textContent = `${path}: ${e.message}`;
  }
}

document.getElementById('preset').addEventListener('change', (e) => {
  const custom = e.target.value === 'custom';
  document.getElementById('start').hidden = !custom;
  document.getElementById('end').hidden = !custom;
});
document.getElementById('picker').addEventListener('submit', (e) => {
  e.preventDefault();
  const preset = document.getElementById('preset').value;
  if (preset === 'saved') { state.start = null; state.end = null; }
  else if (preset === 'custom') {
    state.start = document.getElementById('start').value || null;
    state.end = document.getElementById('end').value || null;
  } else { state.start = preset; state.end = 'last'; }
  drawAll();
});
window.addEventListener('hashchange', () => open(decodeURIComponent(location.hash.slice(1))));
window.addEventListener('resize', () => state.charts.forEach((c) => c.resize()));

await loadList();
if (location.hash.length > 1) await open(decodeURIComponent(location.hash.slice(1)));
