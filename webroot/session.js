// The pages' way to the API: a request that needs a sign-in (401) goes to the sign-in page and
// comes back here after it; a change (not a read) carries the session's CSRF value.
let csrf;

export function signIn() {
  const here = location.pathname + location.search + location.hash;
  location.assign(`signin.html?next=${encodeURIComponent(here)}`);
  return new Promise(() => {});
}

export async function api(url, init = {}) {
  const method = (init.method || 'GET').toUpperCase();
  const headers = new Headers(init.headers || {});
  if (method !== 'GET' && method !== 'HEAD') {
    if (csrf === undefined) {
      const who = await fetch('/api/session');
      if (who.status === 401) return signIn();
      csrf = (await who.json()).csrf || '';
    }
    if (csrf) headers.set('X-Sonde-CSRF', csrf);
  }
  const response = await fetch(url, { ...init, headers });
  if (response.status === 401) return signIn();
  return response;
}
