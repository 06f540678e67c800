/**
 * The size rule of the verify page's "drop a PDF" check, in a module of its own so next.config.ts
 * (the server-action body limit), the page's form and the check itself share it without importing
 * the check's database code.
 */

/** Larger than any certificate FDP renders (tens of kilobytes); a bigger upload is not one of ours. */
export const MAX_CHECKED_PDF_BYTES = 2 * 1024 * 1024;

/**
 * The server-action body limit (Next.js's `serverActions.bodySizeLimit`, 1 MB by default): the
 * largest checked PDF plus room for the multipart framing and the action's other arguments. Without
 * it, a 1–2 MiB PDF (inside the app's own rule) was refused by Next.js with a 500 error page.
 */
export const SERVER_ACTION_BODY_LIMIT_BYTES = MAX_CHECKED_PDF_BYTES + 64 * 1024;

export const PDF_TOO_LARGE_STATEMENT = `This file is far larger than any FDP certificate (at most ${MAX_CHECKED_PDF_BYTES / 1048576} MiB are checked): it is not one.`;
