/**
 * A time limit on each request of an undici dispatcher that starts when the request is written to a
 * connection (undici's onRequestStart), not when it is asked for: a request waiting for a connection
 * of a busy pool, or for its connect, is not yet running out of time. Had it started at the ask, a
 * receiver answering within the limit is sent the event again while its first copy is still on the
 * way (4,565 requests for 1,477 events against one answering in 4 s of 5). Native timers: undici's
 * own headersTimeout ticks in steps of about half a second.
 */
import type { Dispatcher } from 'undici';

/** The error a request ends with when its answer has not ended within the limit. */
export class AnswerTimeoutError extends Error {
  /** Undici's own codes are UND_ERR_*; this one is the mock's. */
  readonly code = 'MKT_ANSWER_TIMEOUT';

  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'AnswerTimeoutError';
  }
}

/** An interceptor (`agent.compose(...)`) that aborts each request whose answer has not ended `ms` after it was written. */
export function answerWithin(ms: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = (): void => clearTimeout(timer);
    return dispatch(options, {
      onRequestStart(controller, context) {
        timer = setTimeout(() => controller.abort(new AnswerTimeoutError(ms)), ms);
        timer.unref();
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade(controller, statusCode, headers, socket) {
        stop();
        handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
      },
      onResponseStart(controller, statusCode, headers, statusMessage) {
        handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      },
      onResponseData(controller, chunk) {
        handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd(controller, trailers) {
        stop();
        handler.onResponseEnd?.(controller, trailers);
      },
      onResponseError(controller, error) {
        stop();
        handler.onResponseError?.(controller, error);
      },
    });
  };
}
