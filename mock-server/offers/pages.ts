/** The small HTML pages behind offers_url and each offer_url, so the links in a response work. */
import type { Offer, OfferRecord } from '../world/world.js';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (x: number): string => `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;

function page(title: string, body: string, status = 200): Response {
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n<h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>\n`;
  return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}

function offerRow(o: Offer): string {
  return (
    `<tr id="offer-${o.id}"><td><a href="${escapeHtml(o.offer_url)}">Offer ${o.id}</a></td><td>${o.loan_term_in_months} months</td>`
    + `<td>${money(o.loan_amount)}</td><td>${pct(o.loan_rate)}</td><td>${pct(o.apr)}</td><td>${money(o.monthly_payment)}</td></tr>`
  );
}

const HEAD = '<tr><th>offer</th><th>term</th><th>loan amount</th><th>rate</th><th>APR</th><th>monthly payment</th></tr>';

/** The page listing every offer of one response. */
export function offersPage(record: OfferRecord): Response {
  const rows = record.offers.map(offerRow).join('\n');
  return page(
    `Loan offers for ${record.firstName} (${record.referralCode})`,
    `<p>${record.offers.length} offers for a requested ${money(record.requestedAmount)}.</p>\n<table>\n${HEAD}\n${rows}\n</table>`,
  );
}

/** The page of one offer. */
export function offerPage(record: OfferRecord, offer: Offer): Response {
  return page(
    `Offer ${offer.id} for ${record.firstName}`,
    `<table>\n${HEAD}\n${offerRow(offer)}\n</table>\n<p>Includes an origination fee of ${money(offer.origination_fee)}. `
      + `<a href="${escapeHtml(offer.offer_url.replace(/\/\d+$/, ''))}">All offers (${escapeHtml(record.referralCode)})</a></p>`,
  );
}

/** 404 page for an unknown referral code or offer id. */
export function notFoundPage(what: string): Response {
  return page('Offer not found', `<p>${escapeHtml(what)} is not known to this marketplace (offers last until the mock is reset).</p>`, 404);
}
