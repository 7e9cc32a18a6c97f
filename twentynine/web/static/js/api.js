// The server's HTTP API: JSON in and out, the CSRF header on every state-changing request.
import { refusalText } from './i18n.js';

export class ApiError extends Error {
  /** ``reason``: the refusal's code, where the server gives one (``X-Error-Reason``); the
   * message is then in the page's language. */
  constructor(status, message, reason = null) {
    super(refusalText(reason, message));
    this.status = status;
    this.reason = reason;
  }
}

function cookie(name) {
  const found = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

function detail(body, status) {
  const d = body && body.detail;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) return d.map((e) => `${(e.loc || []).slice(1).join('.')}: ${e.msg}`).join('; ');
  return `HTTP ${status}`;
}

export async function api(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') {
    headers['X-CSRF-Token'] = cookie('tn_csrf');
    if (body !== undefined) headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const reason = response.headers.get('X-Error-Reason');
    throw new ApiError(response.status, detail(data, response.status), reason);
  }
  return data;
}

export const get = (path) => api('GET', path);
export const post = (path, body = {}) => api('POST', path, body);
export const patch = (path, body) => api('PATCH', path, body);
export const del = (path) => api('DELETE', path);
export const put = (path, body) => api('PUT', path, body);
