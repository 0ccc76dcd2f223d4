/** Types for the undici modules imported by path (undici types only its index): two by src/api/undici.ts, one by one-shot.ts. */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export = AgentClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}

/**
 * undici's timers (util/timers.js, no dependencies): its timeouts tick every ~0.5 s, so one fires up to about a
 * second after it is due. src/api/one-shot.ts times its requests with the same timers, so that they fire alike.
 */
declare module 'undici/lib/util/timers.js' {
  interface FastTimer {
    refresh(): void;
  }
  const timers: {
    setFastTimeout(callback: () => void, delay: number): FastTimer;
    clearFastTimeout(timer: FastTimer): void;
  };
  export = timers;
}
