/**
 * The browser-facing HTML of the mock's authorization endpoint: the consent page (a plain form, no
 * JavaScript) and an error page. Every interpolated value is HTML-escaped.
 */
import type { Account, OAuthClient, User } from '../world/world.js';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
fieldset{border:1px solid #ccc;margin:1rem 0;padding:.8rem}label{display:block;margin:.3rem 0}
button{font-size:1rem;padding:.4rem 1.2rem;margin-right:.6rem}.muted{color:#666;font-size:.9rem}</style>
</head><body>
${body}
</body></html>
`;
}

/** What the consent form needs to render. */
export interface ConsentView {
  client: OAuthClient;
  state: string | null;
  users: User[];
  accounts: Map<string, Account>;
  /** The form's action (the authorization endpoint's own path). */
  action: string;
}

/** The consent page: pick the investor account and the grant, then Allow or Cancel. */
export function consentPage(v: ConsentView): string {
  const options = v.users.flatMap((u) =>
    u.accountIds.map((id) => {
      const a = v.accounts.get(id);
      const label = `${u.name} (${u.id}) — account ${id}${a ? ` — ${a.externalUserId}` : ''}${u.active ? '' : ' — inactive'}`;
      return `<option value="${escapeHtml(id)}">${escapeHtml(label)}</option>`;
    }),
  );
  const state = v.state === null ? '' : `<input type="hidden" name="state" value="${escapeHtml(v.state)}">`;
  return layout(
    'Authorize an application',
    `<h1>Authorize ${escapeHtml(v.client.clientId)}</h1>
<p>The application <strong>${escapeHtml(v.client.clientId)}</strong> asks to act for you on the marketplace.
After you allow it, your browser goes back to <code>${escapeHtml(v.client.redirectUri)}</code>.</p>
<form method="post" action="${escapeHtml(v.action)}">
<input type="hidden" name="client_id" value="${escapeHtml(v.client.clientId)}">
<input type="hidden" name="response_type" value="auth_key">
${state}
<fieldset><legend>Investor account</legend>
<label for="account">Sign in as (this mock has no passwords)</label>
<select id="account" name="account">${options.join('')}</select>
</fieldset>
<fieldset><legend>Access</legend>
<label><input type="radio" name="access" value="read_write" checked> Read and write: place orders, read listings, loans, notes, account</label>
<label><input type="radio" name="access" value="read_only"> Read only: read orders, listings, loans, notes, account</label>
</fieldset>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="cancel">Cancel</button>
</form>
<p class="muted">Mock marketplace: the grant is remembered in a session cookie, so a repeat request skips this page.</p>`,
  );
}

/** An error page for a request the endpoint refuses (it never redirects to an unregistered URL). */
export function errorPage(status: number, error: string, description: string): string {
  return layout(
    `${status} ${error}`,
    `<h1>Authorization failed</h1>
<p><strong>${status} ${escapeHtml(error)}</strong></p>
<p>${escapeHtml(description)}</p>`,
  );
}
