/**
 * The browser build's twin of `answer-check.ts` (scripts/bundle-browser.mjs takes it in its place): the
 * answer check appends to a file, which a page has none of, so `checkAnswers` is refused (the app reports
 * it at the first answer, and the answer still goes out); ajv and the OpenAPI document stay out of the bundle.
 */
import { nodeOnly } from '../kit/setup-error.js';
import type { Violation } from './answer-check.js';

export type { Violation };

/** Refused at construction: there is no file to record mismatches in. */
export class AnswerChecker {
  constructor(
    readonly file: string,
    readonly basePath = '',
  ) {
    throw nodeOnly(`checkAnswers (${file})`);
  }

  /** Never reached: the constructor refuses. */
  check(_method: string, _url: URL, _response: Response): Promise<Violation | null> {
    return Promise.resolve(null);
  }
}
