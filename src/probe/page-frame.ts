// What both status pages (the daemon's and the gateway's) are framed in: the document head with
// its one inline style, the closing refresh script under the same CSP nonce, and the "update
// now" form with the values the page handler checks.
import { escapeHtml } from './html.js';
import { PAGE_STYLE, REFRESH_SCRIPT } from './page-style.js';

export interface PageContext {
  /** The CSP nonce of this answer. */
  nonce: string;
  /** The anti-forgery value the "update now" form carries. */
  csrf: string;
  /** The token as the visitor gave it in ?token=, carried into links and the form. */
  token?: string;
  /** Set on the page shown after "update now". */
  asked?: boolean;
}

/** The document up to and including `<body>`. */
export function pageHead(title: string, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${PAGE_STYLE}</style>
</head>
<body>
`;
}

/** The refresh script and the document's end. */
export function pageEnd(nonce: string): string {
  return `<script nonce="${nonce}">${REFRESH_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The "update now" button (POST /update-now, page-handler.ts): the form value only this page holds, and the token when
 * the visitor gave it in the URL.
 */
export function updateNowForm(context: PageContext, label: string): string {
  return `<form method="post" action="/update-now">
<input type="hidden" name="csrf" value="${escapeHtml(context.csrf)}">
${context.token ? `<input type="hidden" name="token" value="${escapeHtml(context.token)}">` : ''}
<button type="submit">${escapeHtml(label)}</button>
</form>`;
}

/** An ISO time as the pages show it: UTC to the second, "2026-11-28 04:05:06". */
export const utcText = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
