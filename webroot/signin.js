// Exchanges an API token for the session cookie, then goes back to the page that asked; only a
// path on this server is followed, never another site.
const form = document.getElementById('signin');
const problem = document.getElementById('problem');

function next() {
  const target = new URLSearchParams(location.search).get('next') || '/';
  return target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\') ? target : '/';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.hidden = true;
  const token = form.token.value.trim();
  const response = await fetch('/api/session', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (response.ok) {
    form.token.value = '';
    location.replace(next());
    return;
  }
  const body = await response.json().catch(() => ({}));
  problem.textContent = body.error || `sign-in failed (HTTP ${response.status})`;
  problem.hidden = false;
});
