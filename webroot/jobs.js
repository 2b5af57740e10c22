// Live job view: loads /api/jobs, then follows /api/jobs/events. Steps are keyed by (jobId, seq),
// so a replay after a reconnect never shows a step twice, and Last-Event-ID means none is lost.
import { api } from './session.js';

const jobs = new Map();
let lastEventId = 0;
let source = null;

const list = document.getElementById('jobs');
const empty = document.getElementById('empty');
const connection = document.getElementById('connection');
const template = document.getElementById('job-template');

function job(id, tool) {
  let entry = jobs.get(id);
  if (!entry) {
    entry = { id, tool: tool || '', status: 'running', progress: 0, total: null, message: '', startedAt: null, steps: new Map(), node: null };
    jobs.set(id, entry);
  }
  return entry;
}

function applyStep(event) {
  const entry = job(event.jobId, event.tool);
  if (entry.steps.has(event.seq)) {
    return;
  }
  entry.steps.set(event.seq, event);
  if (event.seq === 1) {
    entry.startedAt = new Date(event.at).toISOString();
  }
  const newest = Math.max(...entry.steps.keys());
  if (event.seq === newest) {
    entry.status = event.status;
    entry.message = event.message;
  }
  entry.progress = Math.max(entry.progress, event.progress);
  if (event.total != null) {
    entry.total = event.total;
  }
  render(entry);
}

function applySummary(summary) {
  const entry = job(summary.id, summary.tool);
  entry.startedAt = summary.startedAt;
  if (entry.steps.size === 0) {
    entry.status = summary.status;
    entry.message = summary.message;
    entry.progress = summary.progress;
    entry.total = summary.total ?? null;
  }
  render(entry);
}

function render(entry) {
  if (!entry.node) {
    entry.node = template.content.firstElementChild.cloneNode(true);
    entry.node.dataset.jobId = entry.id;
    entry.node.querySelector('.cancel').addEventListener('click', () => cancel(entry));
    list.prepend(entry.node);
  }
  const node = entry.node;
  node.dataset.status = entry.status;
  node.querySelector('.tool').textContent = entry.tool;
  node.querySelector('.status').textContent = entry.status;
  node.querySelector('.started').textContent = entry.startedAt ? new Date(entry.startedAt).toLocaleTimeString() : '';
  node.querySelector('.message').textContent = entry.message;
  const done = entry.status !== 'running';
  const ratio = entry.total ? Math.min(1, entry.progress / entry.total) : (done ? 1 : 0);
  const fill = node.querySelector('.fill');
  fill.style.width = `${Math.round(ratio * 100)}%`;
  node.querySelector('.bar').classList.toggle('indeterminate', !entry.total && !done);
  node.querySelector('.cancel').hidden = done;
  const body = node.querySelector('tbody');
  const rows = [...entry.steps.values()].sort((a, b) => a.seq - b.seq);
  body.replaceChildren(...rows.map(stepRow));
  empty.hidden = jobs.size > 0;
}

function stepRow(step) {
  const row = document.createElement('tr');
  row.className = step.ok ? 'ok' : 'failed';
  row.dataset.seq = step.seq;
  for (const [text, cls] of [[step.seq, 'num'], [step.step, 'step'], [step.ok ? '✓' : '✗', 'mark'], [step.message, 'msg'], [step.millis, 'num']]) {
    const cell = document.createElement('td');
    cell.textContent = String(text);
    cell.className = cls;
    row.append(cell);
  }
  return row;
}

async function cancel(entry) {
  const button = entry.node.querySelector('.cancel');
  button.disabled = true;
  const response = await api(`/api/jobs/${encodeURIComponent(entry.id)}`, { method: 'DELETE' });
  if (!response.ok && response.status !== 409) {
    button.disabled = false;
  }
}

async function load() {
  const response = await api('/api/jobs');
  const body = await response.json();
  lastEventId = body.lastEventId;
  for (const summary of body.jobs.reverse()) {
    applySummary(summary);
    const detail = await (await api(`/api/jobs/${encodeURIComponent(summary.id)}`)).json();
    (detail.events || []).forEach(applyStep);
  }
}

function connect() {
  if (source) {
    source.close();
  }
  // the server prefers the Last-Event-ID header, which EventSource sends on its own reconnects
  source = new EventSource(`/api/jobs/events?lastEventId=${lastEventId}`);
  source.onopen = () => setConnection('live');
  source.onerror = () => setConnection('reconnecting');
  source.addEventListener('step', (e) => {
    lastEventId = Math.max(lastEventId, Number(e.lastEventId));
    applyStep(JSON.parse(e.data));
  });
  source.addEventListener('reset', async () => {
    await load();
  });
}

function setConnection(state) {
  connection.dataset.state = state;
  connection.textContent = state;
}

// for tests and for the curious: force a reconnect, inspect what the page holds
window.sondeJobs = {
  reconnect: connect,
  drop: () => { source.close(); setConnection('disconnected'); },
  steps: (id) => [...(jobs.get(id)?.steps.keys() || [])].sort((a, b) => a - b),
  lastEventId: () => lastEventId,
};

load().then(connect, () => { setConnection('offline'); setTimeout(() => load().then(connect), 2000); });
